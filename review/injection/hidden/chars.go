package hidden

import (
	"fmt"
	"github.com/tollgate-dev/tollgate/redact"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsBidi reports a bidirectional embedding, override or isolate control.
func IsBidi(r rune) bool { return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 }

// IsZeroWidth reports a zero-width or invisible operator character.
func IsZeroWidth(r rune) bool {
	switch r {
	case 0x200B, 0x200C, 0x200D, 0x2060, 0x180E, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF:
		return true
	}
	return false
}

// IsHidden reports a character that renders as nothing (or moves other characters): evidence
// and messages show it as <U+XXXX>, and phrase matching ignores it. It is the one definition
// every report uses (redact.HiddenRune).
func IsHidden(r rune) bool { return redact.HiddenRune(r) }

// zeroWidthSuspicious applies the exceptions: a BOM at the start of the file; ZWNJ/ZWJ unless
// they sit inside an ASCII identifier or word (Persian, Indic and emoji sequences need them);
// ZWSP and the Mongolian vowel separator between letters of scripts written without spaces.
func zeroWidthSuspicious(text string, i, size int, r rune, first bool) bool {
	if r == 0xFEFF && i == 0 && first {
		return false
	}
	prev, next := neighbours(text, i, size)
	switch r {
	case 0x200C, 0x200D:
		return isWordRune(prev) && isWordRune(next)
	case 0x200B:
		return !(noSpaceScript(prev) && noSpaceScript(next))
	case 0x180E:
		return !(unicode.Is(unicode.Mongolian, prev) && unicode.Is(unicode.Mongolian, next))
	}
	return true
}

// neighbours returns the runes before and after the invisible character at i, skipping other
// invisible characters; -1 when there is none.
func neighbours(text string, i, size int) (rune, rune) {
	prev, next := rune(-1), rune(-1)
	for j := i; j > 0; {
		r, s := utf8.DecodeLastRuneInString(text[:j])
		j -= s
		if !IsZeroWidth(r) {
			prev = r
			break
		}
	}
	for j := i + size; j < len(text); {
		r, s := utf8.DecodeRuneInString(text[j:])
		j += s
		if !IsZeroWidth(r) {
			next = r
			break
		}
	}
	return prev, next
}

func isWordRune(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

func noSpaceScript(r rune) bool {
	return r > 0 && unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func bidiBalanced(rs []rune) bool {
	emb, iso := 0, 0
	for _, r := range rs {
		switch {
		case r >= 0x202A && r <= 0x202E && r != 0x202C:
			emb++
		case r == 0x202C:
			emb--
		case r >= 0x2066 && r <= 0x2068:
			iso++
		case r == 0x2069:
			iso--
		}
		if emb < 0 || iso < 0 {
			return false
		}
	}
	return emb == 0 && iso == 0
}

// bidiHit reports the bidi controls of a line; balanced ones in right-to-left text are likelier
// to be legitimate.
func bidiHit(bidi []rune, at int, rtl bool) Hit {
	conf := 0.95
	if rtl && bidiBalanced(bidi) {
		conf = 0.7
	}
	return Hit{Detail: fmt.Sprintf("bidirectional control characters %s (Trojan Source, CVE-2021-42574): the line displays in a different order than it is read", joinNames(bidi)), Conf: conf, At: at, Kind: KindBidi}
}

// isFlagTags accepts the tag sequence of an emoji subdivision flag (🏴 + "gbsct" + cancel tag):
// 2-7 lowercase letters or digits, then U+E007F.
func isFlagTags(run []rune) bool {
	n := len(run)
	if n < 3 || n > 8 || run[n-1] != 0xE007F {
		return false
	}
	for _, r := range run[:n-1] {
		c := r - 0xE0000
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func tagDetail(run []rune) string {
	var b strings.Builder
	for _, r := range run {
		c := r - 0xE0000
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(byte(c))
		} else {
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
	}
	return "hidden text in Unicode tag characters: " + strconv.Quote(b.String())
}

func variationByte(r rune) (byte, bool) {
	switch {
	case r >= 0xFE00 && r <= 0xFE0F:
		return byte(r - 0xFE00), true
	case r >= 0xE0100 && r <= 0xE01EF:
		return byte(r - 0xE0100 + 16), true
	}
	return 0, false
}

func variationDetail(n int, payload []byte) string {
	var out strings.Builder
	for _, c := range payload {
		if c >= 0x20 && c < 0x7f {
			out.WriteByte(c)
		} else {
			fmt.Fprintf(&out, "<0x%02X>", c)
		}
	}
	return fmt.Sprintf("%d variation selectors in a row hide data: %s", n, strconv.Quote(out.String()))
}

func invisibleDetail(names []string, text string, at int) string {
	return fmt.Sprintf("invisible characters %s inside %s", strings.Join(uniq(names), ", "), Quote(wordAround(text, at)))
}

var runeNames = map[rune]string{
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING", 0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE", 0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER", 0x2060: "WORD JOINER",
	0x180E: "MONGOLIAN VOWEL SEPARATOR", 0x2061: "FUNCTION APPLICATION",
	0x2062: "INVISIBLE TIMES", 0x2063: "INVISIBLE SEPARATOR", 0x2064: "INVISIBLE PLUS",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0x3164: "HANGUL FILLER",
	0xFFA0: "HALFWIDTH HANGUL FILLER", 0xA0: "NO-BREAK SPACE", 0x2800: "BRAILLE PATTERN BLANK",
	0xFE0E: "VARIATION SELECTOR-15", 0xFE0F: "VARIATION SELECTOR-16",
}

func runeName(r rune) string {
	if n, ok := runeNames[r]; ok {
		return fmt.Sprintf("<U+%04X> %s", r, n)
	}
	return fmt.Sprintf("<U+%04X>", r)
}

func joinNames(rs []rune) string {
	var names []string
	for _, r := range rs {
		names = append(names, runeName(r))
	}
	return strings.Join(uniq(names), ", ")
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
