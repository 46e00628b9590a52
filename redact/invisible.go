package redact

import (
	"strings"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// invisible is a rune a report shows as <U+XXXX> that is not a line break: inserted into a
// token, a zero-width space, joiner, bidi control or variation selector breaks every rule's
// pattern while the token stays whole to anyone who copies it.
func invisible(r rune) bool { return HiddenRune(r) && r != '\n' && r != '\r' }

// splitSecrets returns the secrets d finds on text once its invisible characters are removed:
// a token split by a zero-width space is still that token, and no report may show it.
func (d *Detector) splitSecrets(path, text string) []string {
	if strings.IndexFunc(text, invisible) < 0 {
		return nil
	}
	stripped, _ := stripInvisible(text)
	values, _, err := d.lineSecrets(path, stripped)
	if err != nil {
		return nil
	}
	return values
}

// stripInvisible returns text without its invisible characters and, for each byte of the
// result, its offset in text.
func stripInvisible(text string) (string, []int) {
	return rewriteRunes(text, func(r rune) (string, bool) { return "", invisible(r) })
}

// rewriteRunes returns text with each character f replaces (ok) written as repl, the others
// copied, and, for each byte of the result, the offset in text of the character it comes from.
func rewriteRunes(text string, f func(r rune) (repl string, ok bool)) (string, []int) {
	var b strings.Builder
	at := make([]int, 0, len(text))
	for i, r := range text {
		if repl, ok := f(r); ok {
			b.WriteString(repl)
			for range len(repl) {
				at = append(at, i)
			}
			continue
		}
		n := utf8.RuneLen(r)
		if r == utf8.RuneError {
			n = 1
		}
		b.WriteString(text[i : i+n])
		for k := 0; k < n; k++ {
			at = append(at, i+k)
		}
	}
	return b.String(), at
}

// splitFound returns, for each secret the filter's detectors find in text only once its
// invisible characters are removed, or once its tag characters are read as the ASCII they
// stand for, every occurrence of it in text as text holds it (with the invisible or tag
// characters), so that redaction removes the split or hidden token too.
func (f *Filter) splitFound(path, text string) ([]Found, error) {
	var out []Found
	if strings.IndexFunc(text, invisible) >= 0 {
		stripped, at := stripInvisible(text)
		found, err := f.foundIn(path, text, stripped, at)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	if hasTags(text) {
		decoded, at := decodeTags(text)
		found, err := f.foundIn(path, text, decoded, at)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// foundIn returns the secrets the filter's detectors find in read, a rewriting of text whose
// byte i comes from text's byte at[i], that text does not hold as they are: each occurrence as
// the span of text it comes from.
func (f *Filter) foundIn(path, text, read string, at []int) ([]Found, error) {
	var out []Found
	for _, d := range f.dets {
		found, err := d.findAt(path, read)
		if err != nil {
			return nil, err
		}
		for _, x := range found {
			if x.Value == "" || strings.Contains(text, x.Value) {
				continue
			}
			for from := 0; ; {
				i := strings.Index(read[from:], x.Value)
				if i < 0 {
					break
				}
				s, e := from+i, from+i+len(x.Value)
				end := at[e-1] + 1
				for end < len(text) && !utf8.RuneStart(text[end]) {
					end++
				}
				out = append(out, Found{RuleID: x.RuleID, Value: text[at[s]:end], Line: x.Line})
				from = e
			}
		}
	}
	return out, nil
}

// tagASCII returns the ASCII character a Unicode tag character stands for (U+E0041 is A).
func tagASCII(r rune) (byte, bool) {
	if r >= 0xE0020 && r <= 0xE007E {
		return byte(r - 0xE0000), true
	}
	return 0, false
}

// decodeTags returns text with its tag characters read as the ASCII they stand for, and, for
// each byte of the result, the offset in text of the character it comes from.
func decodeTags(text string) (string, []int) {
	return rewriteRunes(text, func(r rune) (string, bool) {
		if c, ok := tagASCII(r); ok {
			return string(rune(c)), true
		}
		return "", false
	})
}

// hasTags reports a Unicode tag character that stands for an ASCII character.
func hasTags(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { _, ok := tagASCII(r); return ok }) >= 0
}

// tagSecrets returns the spans of text whose tag characters spell a secret d finds once they
// are read as ASCII, and those secrets (decoded): a token hidden in tag characters is still a
// token, and its code points (<U+E0067>...) must not spell it out in a report.
func (d *Detector) tagSecrets(path, text string) ([]maskSpan, []string) {
	if !hasTags(text) {
		return nil, nil
	}
	decoded, at := decodeTags(text)
	values, _, err := d.lineSecrets(path, decoded)
	if err != nil {
		// the line cannot be checked: hide every tag character of it
		return []maskSpan{{0, len(text), "[line masked: it holds hidden tag characters]"}}, nil
	}
	var spans []maskSpan
	var secrets []string
	for _, v := range values {
		if v == "" || strings.Contains(text, v) {
			continue
		}
		secrets = append(secrets, v)
		for from := 0; ; {
			i := strings.Index(decoded[from:], v)
			if i < 0 {
				break
			}
			s, e := from+i, from+i+len(v)
			end := at[e-1] + 1
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
			spans = append(spans, maskSpan{at[s], end, MaskValue(v)})
			from = e
		}
	}
	return spans, secrets
}

// tagNotation matches a tag character as Visible shows it.
var tagNotation = lazyre.New(`<U\+E00([2-7][0-9A-F])>`)

// decodeTagNotation reads the <U+E00XX> notation of tag characters in shown text back as the
// ASCII they stand for, for the final check that no secret survives spelled out that way.
func decodeTagNotation(shown string) string {
	return tagNotation.ReplaceAllStringFunc(shown, func(m string) string {
		var c byte
		for _, h := range m[6:8] {
			c <<= 4
			switch {
			case h >= '0' && h <= '9':
				c |= byte(h - '0')
			default:
				c |= byte(h-'A') + 10
			}
		}
		if c < 0x20 || c > 0x7e {
			return m
		}
		return string(rune(c))
	})
}

// StripInvisible returns text without its invisible characters (line breaks are kept, so line
// numbers stay): the text a person who copies a token split by a zero-width space gets.
func StripInvisible(text string) string {
	// Every invisible character is outside ASCII: most added text is passed by one byte loop.
	if isASCII(text) || strings.IndexFunc(text, invisible) < 0 {
		return text
	}
	stripped, _ := stripInvisible(text)
	return stripped
}
