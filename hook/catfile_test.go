package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestCatFileBatch: every blob of a review is read through one cat-file process, in any order
// and from several goroutines at once; a missing object is an error missingObject knows, a tree
// is no blob, and a closed reader starts again.
func TestCatFileBatch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g := NewGit(dir)
	if _, err := g.run(ctx, nil, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	contents := map[string]string{
		"empty":   "",
		"newline": "\n",
		"text":    "one\ntwo\n",
		"binary":  "\x00\x01\x02\n\x00",
		"big":     strings.Repeat("a line of a big blob\n", 100_000),
	}
	ids := map[string]string{}
	for name, c := range contents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		id, err := g.output(ctx, "hash-object", "-w", name)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, c := range contents {
				got, err := r.ReadBlob(ctx, ids[name])
				if err != nil || string(got) != c {
					t.Errorf("ReadBlob(%s) = %d bytes, %v; want %d bytes", name, len(got), err, len(c))
				}
				s, err := r.blobString(ctx, ids[name])
				if err != nil || s != c {
					t.Errorf("blobString(%s) = %d bytes, %v; want %d bytes", name, len(s), err, len(c))
				}
			}
		}()
	}
	wg.Wait()
	missing := strings.Repeat("1", len(ids["text"]))
	if _, err := r.ReadBlob(ctx, missing); err == nil || !missingObject(err) {
		t.Errorf("a missing blob: %v, want an error missingObject knows", err)
	}
	tree, err := r.EmptyTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadBlob(ctx, tree); err == nil {
		t.Error("a tree was read as a blob")
	}
	for _, bad := range []string{"", zero40, "--batch", "HEAD:x", "a b"} {
		if _, err := r.ReadBlob(ctx, bad); err == nil {
			t.Errorf("ReadBlob(%q) did not fail", bad)
		}
	}
	// After the failures above and a Close, the reader still reads.
	r.Close()
	if got, err := r.ReadBlob(ctx, ids["text"]); err != nil || string(got) != contents["text"] {
		t.Errorf("after Close: %q, %v", got, err)
	}
}
