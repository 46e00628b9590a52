package injection

import (
	"strings"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/review/injection/hidden"
)

// quoteVisible quotes s for a message, every hidden character shown as <U+XXXX>.
func quoteVisible(s string) string { return hidden.Quote(s) }

// renderEvidence shows the line around byte offset focus, trimmed to about evidenceRunes
// runes, with every invisible, bidi, tag or control character rendered as <U+XXXX>.
func renderEvidence(s string, focus int) string {
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	end := max(len(strings.TrimRight(s, " \t\r")), lead)
	focus = min(max(focus, lead), end)
	start := focus
	for n := 0; n < 40 && start > lead; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	var b strings.Builder
	if start > lead {
		b.WriteString("…")
	}
	n, i := 0, start
	for i < end && n < evidenceRunes {
		size, w := hidden.AppendVisible(&b, s, i)
		i += size
		n += w
	}
	if i < end {
		b.WriteString("…")
	}
	return b.String()
}
