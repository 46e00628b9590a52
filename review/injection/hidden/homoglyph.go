package hidden

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// homoglyph reports an identifier that mixes Latin with Cyrillic (cyrillic) or Greek letters.
func homoglyph(tok string, at int, cyrillic bool) Hit {
	script := "Greek"
	if cyrillic {
		script = "Cyrillic"
	}
	var shown, reads strings.Builder
	lookalike, allLook := false, true
	for _, r := range tok {
		if r < utf8.RuneSelf || unicode.Is(unicode.Latin, r) || !(unicode.Is(unicode.Cyrillic, r) || unicode.Is(unicode.Greek, r)) {
			shown.WriteRune(r)
			reads.WriteRune(r)
			continue
		}
		fmt.Fprintf(&shown, "<U+%04X>", r)
		l, ok := lookalikeOf(r)
		reads.WriteRune(l)
		lookalike = lookalike || ok
		allLook = allLook && ok
	}
	detail := fmt.Sprintf("identifier %s mixes Latin and %s letters (homoglyph, CVE-2021-42694)", Quote(shown.String()), script)
	conf := 0.7
	if lookalike && allLook {
		detail += ": it reads like " + Quote(reads.String())
		conf = 0.9
	}
	return Hit{Detail: detail, Conf: conf, At: at, Kind: KindHomoglyph}
}

// lookalikeOf returns the Latin letter r is drawn like, or r itself and false.
func lookalikeOf(r rune) (rune, bool) {
	if l, ok := cyrillicLookalike[r]; ok {
		return l, true
	}
	if l, ok := greekLookalike[r]; ok {
		return l, true
	}
	return r, false
}

var cyrillicLookalike = map[rune]rune{
	'а': 'a', 'в': 'B', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's',
	'і': 'i', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'к': 'k',
	'м': 'M', 'н': 'H', 'т': 'T', 'ь': 'b', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M',
	'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'Ѕ': 'S', 'І': 'I',
	'Ј': 'J', 'Ԁ': 'D', 'Ү': 'Y', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'h', 'Ӏ': 'I', 'Ԍ': 'G', 'Ь': 'b',
}

// greekLookalike holds only the Greek letters drawn exactly like Latin ones: lowercase α, ε,
// κ, ν, ρ ... are everyday math names and stay out.
var greekLookalike = map[rune]rune{
	'ο': 'o', 'ϲ': 'c', 'ϳ': 'j', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H',
	'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'Ϲ': 'C', 'Ϳ': 'J',
}
