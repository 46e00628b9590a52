package secrets

import (
	"strings"
	"testing"
)

// TestSplitToken: a token split by an invisible character (zero-width space, word joiner, soft
// hyphen's invisible kin) is the token to whoever copies it, so it is a finding at its line,
// high, its parts never in the evidence; a line whose invisible character splits no token is
// none of this scanner's business.
func TestSplitToken(t *testing.T) {
	const tok = "ghp_Spl1tT0k3nW1thEnoughEntropyAbCdEf12Q"
	for _, tc := range []struct {
		name, text string
		want       int // secrets findings
	}{
		{"zero-width space", "x = 1\ntoken = \"" + tok[:12] + "\u200b" + tok[12:] + "\"\n", 1},
		{"word joiner twice", "export GH=" + tok[:6] + "\u2060" + tok[6:20] + "\u2060" + tok[20:] + "\n", 1},
		{"written whole", "token = \"" + tok + "\"\n", 1},
		{"no token", "name = \"ca\u200bfé\"\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := scanRepo(t, map[string]string{"conf.py": tc.text})
			var got int
			for _, f := range rep.Findings {
				if f.RuleID != "secrets/github-pat" {
					continue
				}
				got++
				if f.Severity.String() != "high" || f.Line != strings.Count(tc.text[:strings.Index(tc.text, tok[:6])], "\n")+1 {
					t.Errorf("finding %s at line %d, want high at the token's line", f.Severity, f.Line)
				}
				if strings.Contains(f.Evidence, tok[8:20]) || strings.Contains(f.Evidence, tok[22:]) {
					t.Errorf("evidence shows the token: %q", f.Evidence)
				}
			}
			if got != tc.want {
				t.Errorf("%d github-pat findings, want %d (not run: %+v)", got, tc.want, rep.NotRun)
			}
		})
	}
}
