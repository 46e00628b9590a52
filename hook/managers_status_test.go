package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// hooksRunning lists only the hooks whose own file runs tollgate for that hook.
func TestHooksRunning(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pre-commit":       "#!/bin/sh\nnpm test\ntollgate hook pre-commit\n",
		"pre-merge-commit": "#!/bin/sh\n# tollgate hook pre-commit would be the wrong hook\n",
		"pre-push":         "#!/bin/sh\nnpm run lint\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := hooksRunning(dir, Hooks)
	if !slices.Equal(got, []string{"pre-commit"}) {
		t.Fatalf("hooksRunning = %v, want [pre-commit]", got)
	}
}
