package redact

import (
	"strings"
	"unicode/utf8"
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
	var b strings.Builder
	at := make([]int, 0, len(text))
	for i, r := range text {
		if invisible(r) {
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
// invisible characters are removed, every occurrence of it in text as text holds it (with the
// invisible characters), so that redaction removes the split token too.
func (f *Filter) splitFound(path, text string) ([]Found, error) {
	if strings.IndexFunc(text, invisible) < 0 {
		return nil, nil
	}
	stripped, at := stripInvisible(text)
	var out []Found
	for _, d := range f.dets {
		found, err := d.findAt(path, stripped)
		if err != nil {
			return nil, err
		}
		for _, x := range found {
			if x.Value == "" || strings.Contains(text, x.Value) {
				continue
			}
			for from := 0; ; {
				i := strings.Index(stripped[from:], x.Value)
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
