package lite

import (
	"strings"
	"unicode/utf8"
)

// MaxEvidence bounds the length of a masked evidence line, in runes.
const MaxEvidence = 160

// Kept returns the prefix of a secret that is safe to show: the BEGIN line of a PEM block, or
// a few leading characters of a long secret (token prefixes such as "ghp_" carry no entropy).
func Kept(secret string) string {
	if strings.HasPrefix(secret, "-----BEGIN ") {
		// Only when something follows the header: a secret that is all header stays hidden.
		if i := strings.Index(secret[5:], "-----"); i >= 0 && 5+i+5 < len(secret) {
			return secret[:5+i+5]
		}
	}
	n := utf8.RuneCountInString(secret)
	switch {
	case n >= 20:
		return FirstRunes(secret, 4)
	case n >= 12:
		return FirstRunes(secret, 2)
	}
	return ""
}

func FirstRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// MaskValue is how a secret is shown (ShapeOf): a URL with only its secret parts masked, any
// other secret as its safe prefix, then ****.
func MaskValue(secret string) string { return ShapeOf(secret).Masked }

// Mask returns the first line of text with every secret masked, trimmed and bounded in
// length. If any 6-character run of a secret's hidden part would survive, the whole line is
// replaced: a secret is never returned in clear.
func Mask(text string, secrets ...string) string {
	out := text
	for _, s := range secrets {
		if s == "" {
			continue
		}
		out = strings.ReplaceAll(out, s, MaskValue(s))
		// A multi-line secret: mask each of its lines too.
		if strings.Contains(s, "\n") {
			for _, part := range strings.Split(s, "\n") {
				part = strings.TrimSpace(part)
				if len(part) >= 6 && !strings.HasPrefix(s, part) {
					out = strings.ReplaceAll(out, part, "****")
				}
			}
		}
	}
	if i := strings.IndexAny(out, "\r\n"); i >= 0 {
		out = out[:i]
	}
	out = strings.TrimSpace(out)
	if utf8.RuneCountInString(out) > MaxEvidence {
		out = FirstRunes(out, MaxEvidence) + "…"
	}
	for _, s := range secrets {
		if Leaks(out, s) {
			return "[line masked: it holds a secret]"
		}
	}
	return out
}

// Leaks reports whether out holds secret, or a 6-byte run of a part of it that MaskValue hides
// (ShapeOf). A run that also occurs in a shown part (such as "PRIVAT" of a PEM block's BEGIN
// line, or the host of a URL) tells nothing new and does not count.
func Leaks(out, secret string) bool {
	if secret != "" && strings.Contains(out, secret) {
		return true
	}
	sh := ShapeOf(secret)
	for _, h := range sh.Hidden {
		if leaksPart(out, h, sh.Shown) {
			return true
		}
	}
	return false
}

// MaskAll masks every secret in text, keeping all of its lines (Mask keeps the first only).
func MaskAll(text string, secrets ...string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		masked := Mask(l, secrets...)
		if strings.TrimSpace(l) == "" {
			masked = l
		}
		lines[i] = masked
	}
	return strings.Join(lines, "\n")
}

// CredentialValues returns every credential value FindCredential (all forms) finds on each
// line of text, several on one line (mysql -pA && curl -u u:B): each found value is hidden
// before the line is read again.
func CredentialValues(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for n := 0; n < 16; n++ {
			c, ok := FindCredential(line, AllForms)
			if !ok || c.Value == "" || !strings.Contains(line, c.Value) {
				break
			}
			out = append(out, c.Value)
			line = strings.ReplaceAll(line, c.Value, "****")
		}
	}
	return out
}

// MayHoldCredential is the cheap test FindCredential starts with: a secret word, a URL or a
// program whose command line can carry a password.
func MayHoldCredential(line string) bool { return mayHoldCredential(line) }
