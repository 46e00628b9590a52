package redact

import "strings"

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
	stripped := strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, text)
	values, _, err := d.lineSecrets(path, stripped)
	if err != nil {
		return nil
	}
	return values
}
