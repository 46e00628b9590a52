package lang

import "testing"

// FuzzMayHide: wherever the hidden-element expression matches, the cheap test before it says
// it may.
func FuzzMayHide(f *testing.F) {
	for _, s := range []string{`<div style="DISPLAY : none">`, `<span hidden>`, `<p style="font-size:0px;">`,
		`<p style="Font-Size:	0.0em'">`, `visibility:HIDDEN`, `<path d="M1 2"/>`, `display:block`, `font-size:12px`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if hiddenCSSRe.MatchString(LowerASCII(s)) && !mayHide(s) {
			t.Fatalf("the expression matches %q, mayHide says it cannot", s)
		}
	})
}
