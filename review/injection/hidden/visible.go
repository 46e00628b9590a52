package hidden

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuoteRunes bounds a quoted fragment inside a message.
const QuoteRunes = 120

// AppendVisible renders the rune at s[i:] for evidence and messages: a hidden character as
// <U+XXXX>, an invalid byte as <0xXX>, a tab as a space. It returns the bytes of s consumed and
// the width written (in runes).
func AppendVisible(b *strings.Builder, s string, i int) (int, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		fmt.Fprintf(b, "<0x%02X>", s[i])
		return size, 6
	case r == '\t':
		b.WriteByte(' ')
		return size, 1
	case IsHidden(r) || r == 0xA0 || r == 0x2800: // a no-break space or Braille blank reads as a space
		n, _ := fmt.Fprintf(b, "<U+%04X>", r)
		return size, n
	}
	b.WriteString(s[i : i+size])
	return size, 1
}

// Quote quotes s for a message, every hidden character shown as <U+XXXX>, cut at about
// QuoteRunes runes.
func Quote(s string) string {
	var b strings.Builder
	n := 0
	i := 0
	for i < len(s) && n < QuoteRunes {
		size, w := AppendVisible(&b, s, i)
		i += size
		n += w
	}
	out := b.String()
	if i < len(s) {
		out += "…"
	}
	return strconv.Quote(out)
}

// wordAround returns the run of non-space text around byte offset i, bounded in length.
func wordAround(s string, i int) string {
	if i < 0 || i > len(s) {
		return ""
	}
	a, b := i, i
	for n := 0; a > 0 && n < 30; n++ {
		r, sz := utf8.DecodeLastRuneInString(s[:a])
		if r == ' ' || r == '\t' {
			break
		}
		a -= sz
	}
	for n := 0; b < len(s) && n < 30; n++ {
		r, sz := utf8.DecodeRuneInString(s[b:])
		if r == ' ' || r == '\t' {
			break
		}
		b += sz
	}
	return s[a:b]
}
