// Silently drop malformed packets; the peer retransmits.
if err != nil {
	return nil
}
