package injection

import "bytes"

// bigrams is the set of adjacent byte pairs of a lowercased line. A gate word with a pair that
// is not in the set is not in the line: most of the phrase patterns' gate words are ruled out
// with a few bit tests instead of a search of the line each.
type bigrams struct {
	bits [1 << 10]uint64
	set  []uint16 // the pairs set (repeats too), so that the next line clears only their words
}

func pairOf(x, y byte) uint16 { return uint16(x)<<8 | uint16(y) }

// reset makes b the set of low's pairs.
func (b *bigrams) reset(low []byte) {
	for _, p := range b.set {
		b.bits[p>>6] = 0
	}
	b.set = b.set[:0]
	for i := 0; i+1 < len(low); i++ {
		p := pairOf(low[i], low[i+1])
		b.bits[p>>6] |= 1 << (p & 63)
		b.set = append(b.set, p)
	}
}

func (b *bigrams) has(x, y byte) bool {
	p := pairOf(x, y)
	return b.bits[p>>6]&(1<<(p&63)) != 0
}

// contains reports whether low (the line b was reset to) holds w: every pair of w must be
// among the line's before the line is searched.
func (b *bigrams) contains(low []byte, w string) bool {
	for i := 0; i+1 < len(w); i++ {
		if !b.has(w[i], w[i+1]) {
			return false
		}
	}
	return bytes.Contains(low, []byte(w))
}

// gatesMet reports whether low (the line b was reset to) holds a word of each gate group.
func (b *bigrams) gatesMet(low []byte, gate [][]string) bool {
	for _, g := range gate {
		found := false
		for _, w := range g {
			if b.contains(low, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
