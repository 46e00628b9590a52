package shellword

import (
	"os/exec"
	"testing"
)

var quoteCases = []string{
	"/home/u/go/bin/tollgate", ".husky/pre-commit", "", "a b", "it's", `say "hi"`, `it's "both"`,
	"$HOME", "`x`", "$(touch pwned)", "a\nb", "tab\there", `back\slash`, `C:\Program Files\tollgate.exe`,
	"x\x01y", "*", "~/bin", "naïve/日本", "-n", "a=b",
}

func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range quoteCases {
		q := Quote(s)
		got, ok := Unquote(q)
		if !ok || got != s {
			t.Errorf("Unquote(Quote(%q) = %s) = %q, %v", s, q, got, ok)
		}
	}
	if q := Quote("/usr/local/bin/tollgate"); q != "/usr/local/bin/tollgate" {
		t.Errorf("a plain path is quoted: %s", q)
	}
}

// TestShellQuoteRealShell: sh reads each quoted word back as the string.
func TestQuoteRealShell(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, s := range quoteCases {
		out, err := exec.Command("sh", "-c", "printf '%s' "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh read %s as %q (%v), want %q", Quote(s), out, err, s)
		}
	}
}

func TestUnquoteRefuses(t *testing.T) {
	for _, w := range []string{"$HOME", `"$HOME"`, "$(id)", "a b", "`id`", "a;b", "$'x'", "'open"} {
		if got, ok := Unquote(w); ok {
			t.Errorf("Unquote(%q) = %q, true; want refused", w, got)
		}
	}
}

func TestAssigned(t *testing.T) {
	for _, path := range []string{"/usr/local/bin/tollgate", `/tmp/we'ird $dir "x"/tollgate`, "C:/Program Files/tollgate.exe"} {
		script := "b=" + Quote(path) + `; [ -x "$b" ] || b=$(command -v tollgate) || exit 2`
		if got, ok := Assigned(script, "b"); !ok || got != path {
			t.Errorf("Assigned(%q) = %q, %v; want %q", script, got, ok, path)
		}
	}
	// the double-quoted form an older install wrote
	if got, ok := Assigned(`: tollgate-guard; b="/opt/t \$x/tollgate"; [ -x "$b" ]`, "b"); !ok || got != `/opt/t $x/tollgate` {
		t.Errorf("old form: got %q, %v", got, ok)
	}
	for _, script := range []string{`b=$(command -v tollgate)`, `c=/x`, `echo b=/x`, `b=`} {
		if got, ok := Assigned(script, "b"); ok && got != "" {
			t.Errorf("Assigned(%q) = %q, want none", script, got)
		}
	}
}
