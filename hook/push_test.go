package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBatchCheckPartialClone checks that object lookups in a partial clone fetch nothing and
// go on past the objects git stops at: each name gets its answer, a missing one none.
func TestBatchCheckPartialClone(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	setGitTestEnv(t, tmp)
	src := filepath.Join(tmp, "src")
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := NewGit(dir).output(ctx, args...)
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	git(src, "init", "-q")
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(src, "add", ".")
	git(src, "commit", "-q", "-m", "one")
	git(src, "config", "uploadpack.allowFilter", "true")
	part := filepath.Join(tmp, "part")
	git(tmp, "clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+src, part)
	head := git(src, "rev-parse", "HEAD")
	blobA := git(src, "rev-parse", "HEAD:a.txt")
	blobB := git(src, "rev-parse", "HEAD:b.txt")
	r, err := Open(ctx, part)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{head, blobA, head + "^{commit}", blobB + "^{commit}", strings.Repeat("1", 40), head + "^{}"}
	objs, err := r.batchCheck(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	want := []object{{head, "commit"}, {}, {head, "commit"}, {}, {}, {head, "commit"}}
	for i := range want {
		if objs[i] != want[i] {
			t.Errorf("%s: got %+v, want %+v", names[i], objs[i], want[i])
		}
	}
	// nothing was fetched: the blobs are still missing
	out := git(part, "rev-list", "--objects", "--missing=print", "HEAD")
	if !strings.Contains(out, "?"+blobA) || !strings.Contains(out, "?"+blobB) {
		t.Fatalf("a blob was fetched:\n%s", out)
	}
}
