package hook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShimShellcheck lints every rendered shim as POSIX sh with shellcheck when it is
// installed (CI installs it).
func TestShimShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck not installed")
	}
	dir := t.TempDir()
	for _, h := range Hooks {
		for _, bin := range []string{"/usr/local/bin/tollgate", "/tmp/it's here/$HOME/`x`/tollgate"} {
			path := filepath.Join(dir, h)
			if err := os.WriteFile(path, []byte(Shim(h, bin)), 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(sc, "--shell=sh", "--severity=style", path).CombinedOutput()
			if err != nil {
				t.Errorf("shellcheck %s (binary %q): %v\n%s", h, bin, err, out)
			}
		}
	}
}

// TestShimQuoting checks that a binary path with shell metacharacters (or a Windows-style one)
// is quoted, not run: sh reads the shim's tollgate_bin line back as exactly the path, and status
// reads it back the same way.
func TestShimQuoting(t *testing.T) {
	dir := t.TempDir()
	for _, bin := range []string{"/tmp/it's $(touch pwned) `x`/tollgate", filepath.Join(dir, "pwned") + "$(touch " + filepath.Join(dir, "pwned") + ")", `C:\Users\Dev User\go\bin\tollgate.exe`, "/usr/local/bin/tollgate"} {
		s := Shim("pre-commit", bin)
		var line string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "tollgate_bin=") {
				line = l
			}
		}
		out, err := exec.Command("sh", "-c", line+"\nprintf '%s' \"$tollgate_bin\"").Output()
		if err != nil || string(out) != bin {
			t.Errorf("sh reads %q as %q (%v), want %q", line, out, err, bin)
		}
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Fatal("the shim ran the path's command substitution")
		}
		hooks := t.TempDir()
		if err := os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
		st := (&Repo{HooksDir: hooks}).HookStates()
		if len(st) == 0 || st[0].Name != "pre-commit" || st[0].Binary != bin {
			t.Errorf("status reads the binary of %q as %+v, want %q", line, st, bin)
		}
	}
	s := Shim("pre-commit", "/usr/local/bin/tollgate")
	if !IsManaged([]byte(s)) {
		t.Fatal("shim lacks the marker")
	}
	if strings.Contains(s, "{{") {
		t.Fatal("shim has an unreplaced placeholder")
	}
	if !strings.HasPrefix(s, "#!/bin/sh\n") {
		t.Fatal("shim is not a POSIX sh script")
	}
}
