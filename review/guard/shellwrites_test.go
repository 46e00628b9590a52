package guard

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestShellWritesJudgedOnTheResult: what a shell command puts into a file is scanned, however
// it gets there: sed's replacement text, a variable echoed, base64 decoded.
func TestShellWritesJudgedOnTheResult(t *testing.T) {
	o := testOptions()
	o.Detector = testDetector(t)
	tok := fakePAT()
	b64 := base64.StdEncoding.EncodeToString([]byte("T=" + tok + "\n"))
	for _, c := range []struct {
		cmd  string
		want Verdict
	}{
		// catches
		{"sed -i 's/X/" + tok + "/' app.py", Deny},
		{"sed -i.bak -e 's|X|" + tok + "|g' app.py", Deny},
		{"sed --in-place --expression='s/X/" + tok + "/' app.py", Deny},
		{"sed -i '/x/a\\ T=" + tok + "' app.py", Deny},
		{"P=" + tok + "; echo \"$P\" > app.py", Deny},
		{"echo " + b64 + " | base64 -d > app.py", Deny},
		{"echo " + b64 + " | base64 --decode >> app.py", Deny},
		{"base64 -d <<< " + b64 + " > app.py", Deny},
		{"printf '%s' '" + tok[:20] + "''" + tok[20:] + "' > app.py", Deny},
		// leave-alones
		{"sed -i 's/foo/bar/g' app.py", NoObjection},
		{"sed -i 's/" + tok + "/REDACTED/' app.py", NoObjection},
		{"sed 's/X/" + tok + "/' app.py", NoObjection}, // prints, writes no file
		{"echo aGVsbG8gd29ybGQK | base64 -d > hello.txt", NoObjection},
		{"echo not-base64 | base64 -d > out.txt", NoObjection},
		{"base64 -d < in.b64 > out.bin", NoObjection},
		{"echo " + b64 + " | base64 > app.b64", NoObjection}, // encodes: the file holds base64
	} {
		ans := Decide(Call{Kind: Shell, Command: c.cmd}, o)
		if ans.Verdict != c.want {
			t.Errorf("%s: got %s %s (%s), want %s", c.cmd, ans.Verdict, ans.Rule, ans.Reason, c.want)
		}
		if strings.Contains(ans.Reason, tok) {
			t.Errorf("%s: the answer shows the secret: %s", c.cmd, ans.Reason)
		}
	}
}

func TestSedInserted(t *testing.T) {
	for script, want := range map[string]string{
		"s/a/b/":           "b",
		"s|a|b|g;s/c/d/":   "b|d",
		`s/a\/b/c\/d/`:     "c/d",
		"1,3s/x/y/":        "y",
		"/re/a\\ added":    "added",
		"/x/d":             "",
		"y/abc/xyz/":       "",
		"s/x/" + "y" + "/": "y",
	} {
		if got := strings.Join(sedInserted(script), "|"); got != want {
			t.Errorf("sedInserted(%q) = %q, want %q", script, got, want)
		}
	}
}
