package redact

import (
	"regexp"
	"strings"

	"github.com/tollgate-dev/tollgate/redact/lite"
)

// gitleaks' generic-api-key is the rule whose regex costs most (a case-insensitive, unanchored
// [\w.-]{0,50}? before its keyword, so the regexp engine starts a match at every word byte), and
// its keywords are on most lines of code. keysMayMatch is a fast superset of that regex and of
// the other rules gitleaks writes with the same template: it runs first, and only where it says
// yes does the regex. For generic-api-key it applies only while the rule's regex is exactly
// genericAPIKeySrc (a config that changes the rule, or another gitleaks, turns it off).
const genericAPIKeySrc = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`

// genericKeywords are the regex's keywords, lower-cased (passw(or)?d spelled out).
var genericKeywords = [...]string{"access", "auth", "api", "credential", "creds", "key", "passwd", "password", "secret", "token"}

// semiGenericPrefix and semiGenericGap frame the identifiers of the rules gitleaks generates
// with its semi-generic template: (?i), up to 50 word bytes, one of the identifiers, a gap,
// an assignment operator, then the secret. generic-api-key is one of them.
const (
	semiGenericPrefix = `(?i)[\w.-]{0,50}?(?:`
	semiGenericGap    = `)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`
)

// semiGenericKeys returns, lower-cased, the identifiers of a regex written with gitleaks'
// semi-generic template, whose match holds one of them followed by the gap and an operator;
// nil for any other regex, or one whose identifiers are not plain words.
func semiGenericKeys(src string) []string {
	if src == genericAPIKeySrc {
		return genericKeywords[:]
	}
	rest, ok := strings.CutPrefix(src, semiGenericPrefix)
	if !ok {
		return nil
	}
	i := strings.Index(rest, semiGenericGap)
	if i <= 0 {
		return nil
	}
	var keys []string
	for _, k := range strings.Split(rest[:i], "|") {
		if k == "" || strings.IndexFunc(k, func(r rune) bool { return r > 127 || !tokenByte(byte(r)) }) >= 0 {
			return nil
		}
		keys = append(keys, strings.ToLower(k))
	}
	return keys
}

// semiGenericGate returns a regex that matches the same texts as re, a semi-generic regex,
// without its lazy [\w.-]{0,50}? before the identifier: that part may match nothing, so a text
// holds a match of re exactly where it holds one of the rest. Only whether a text matches is
// the same, not where: the gate says whether to run the detector, which finds with re. Without
// the regexp engine trying those 50 bytes at every word byte it costs a fraction of re. at is
// the gate anchored at the start of its text (keysMatch). re itself and nil if re is not
// written with the template.
func semiGenericGate(re *regexp.Regexp) (gate, at *regexp.Regexp) {
	rest, ok := strings.CutPrefix(re.String(), semiGenericPrefix)
	if !ok {
		return re, nil
	}
	gate, err := regexp.Compile(`(?i)(?:` + rest)
	if err != nil {
		return re, nil
	}
	at, err = regexp.Compile(`^(?:` + gate.String() + `)`)
	if err != nil {
		return gate, nil
	}
	return gate, at
}

// keysMatch reports whether the gate matches text (foldsInASCII; lower: text lowercased), trying at (the gate anchored)
// only where one of keys starts and an operator may follow (operatorNext). A match of the gate
// starts with one of its identifiers, which in such text are keys in any case of their ASCII
// letters, so it starts at one of those places; the gate begins with no assertion (\b, ^), so
// a match there is a match of at in the text from there. It costs one short attempt per place
// instead of the regexp engine's walk over the whole text (~100 ns a byte on an SVG's lines of
// path data, where "linearGradient" is a key of linear-client-secret).
func keysMatch(text, lower string, keys []string, at *regexp.Regexp) bool {
	// lower is text lowercased (lowerASCIIBytes): the same offsets
	for _, w := range keys {
		for i := 0; ; {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			i += j
			if operatorNext(lower[i+len(w):]) && at.MatchString(text[i:]) {
				return true
			}
			i++
		}
	}
	return false
}

// foldsInASCII reports whether no character of s other than an ASCII letter case-folds to an
// ASCII letter: under (?i) only the long s (U+017F) and the Kelvin sign (U+212A) do.
func foldsInASCII(s string) bool {
	return isASCII(s) || !strings.Contains(s, "\u017f") && !strings.Contains(s, "\u212a")
}

// lowerASCIIBytes lowercases the ASCII letters of s and leaves every other byte as it is.
func lowerASCIIBytes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isASCII reports whether s is ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// keysMayMatch reports whether text may hold a match of a semi-generic regex with these
// identifiers: one of them, then at most 20 bytes of [ \t\w.-] and 3 of [\s'"], then an
// assignment operator's first byte.
func keysMayMatch(text string, keys []string) bool {
	return lite.WordFollowedBy(lite.FoldLower(text), keys, operatorNext)
}

// operatorNext reports an assignment operator's first byte (= > : | ? ,) after at most 23 bytes
// that are [ \t\w.-] or [\s'"] at the start of s.
func operatorNext(s string) bool {
	for k := 0; k <= 23 && k < len(s); k++ {
		switch c := s[k]; {
		case c == '=' || c == '>' || c == ':' || c == '|' || c == '?' || c == ',':
			return true
		case !genericGap[c]:
			return false
		}
	}
	return false
}

// genericGap holds the bytes of [ \t\w.-] and [\s'"].
var genericGap = func() (t [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.- \t\n\f\r'\"") {
		t[c] = true
	}
	return t
}()
