package redact

import "strings"

// Fast supersets of default rules whose keywords are on many lines but whose regex, tried at
// every byte of each window, almost never matches. Each is used only while the rule's regex is
// exactly the source it was written for (a config that changes the rule, or another gitleaks,
// turns it off), and a fuzz test holds it a superset of that regex.

// vaultServiceTokenSrc is gitleaks' vault-service-token: its keyword "s." is on most lines of
// Python and JavaScript.
const vaultServiceTokenSrc = `\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;]|\\[nr]|$)`

// shapeOf returns the fast superset written for the regex src, or nil.
func shapeOf(src string) func(string) bool {
	if src == vaultServiceTokenSrc {
		return vaultShape
	}
	return nil
}

// vaultShape reports an "s." followed by 24 bytes of [\w-] or non-ASCII: both of the regex's
// forms hold one ("hvs." ends in "s.", and 90 or more [\w-] follow it; (?i:[a-z0-9]) also
// matches the Kelvin sign and the long s, whose UTF-8 bytes are all non-ASCII).
func vaultShape(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "s.")
		if j < 0 {
			return false
		}
		i += j + 2
		if i+24 <= len(text) && vaultRun(text[i:i+24]) {
			return true
		}
	}
}

// vaultRun reports whether every byte of s is [\w-] or non-ASCII.
func vaultRun(s string) bool {
	for k := 0; k < len(s); k++ {
		if c := s[k]; c < 0x80 && !tokenByte(c) {
			return false
		}
	}
	return true
}
