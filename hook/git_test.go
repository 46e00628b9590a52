package hook

import (
	"strings"
	"testing"
)

// tunablesOf returns the GLIBC_TUNABLES entries of env.
func tunablesOf(env []string) []string {
	var out []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GLIBC_TUNABLES="); ok {
			out = append(out, v)
		}
	}
	return out
}

func TestMallocTunables(t *testing.T) {
	t.Setenv("GLIBC_TUNABLES", "")
	if got := tunablesOf(NewGit(t.TempDir()).env); len(got) != 1 || got[0] != mallocTunables {
		t.Fatalf("GLIBC_TUNABLES = %q, want %q", got, mallocTunables)
	}
	// A user's own settings come after ours: glibc takes the last value of a tunable.
	t.Setenv("GLIBC_TUNABLES", "glibc.malloc.top_pad=0")
	want := mallocTunables + ":glibc.malloc.top_pad=0"
	if got := tunablesOf(NewGit(t.TempDir()).env); len(got) != 1 || got[0] != want {
		t.Fatalf("GLIBC_TUNABLES = %q, want %q", got, want)
	}
}
