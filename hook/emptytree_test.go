package hook

import (
	"context"
	"strings"
	"testing"
)

// TestEmptyTreeIDs: the built-in empty tree ids are what git computes, for both formats.
func TestEmptyTreeIDs(t *testing.T) {
	ctx := context.Background()
	for _, format := range []string{"sha1", "sha256"} {
		dir := t.TempDir()
		g := NewGit(dir)
		if _, err := g.output(ctx, "init", "-q", "--object-format="+format); err != nil {
			t.Fatal(err)
		}
		out, err := g.run(ctx, strings.NewReader(""), "hash-object", "-t", "tree", "--stdin")
		if err != nil {
			t.Fatal(err)
		}
		r, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.EmptyTree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(string(out)); got != want || r.ObjectFormat != format {
			t.Errorf("%s: EmptyTree = %s, git says %s (format %s)", format, got, want, r.ObjectFormat)
		}
	}
}
