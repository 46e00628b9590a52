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

// TestShimQuoting checks that a binary path with shell metacharacters is quoted, not run.
func TestShimQuoting(t *testing.T) {
	bin := "/tmp/it's $(touch pwned) `x`/tollgate"
	s := Shim("pre-commit", bin)
	want := "tollgate_bin='/tmp/it'\\''s $(touch pwned) `x`/tollgate'"
	if !strings.Contains(s, want) {
		t.Fatalf("shim does not quote the binary path; want line %q in:\n%s", want, s)
	}
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
