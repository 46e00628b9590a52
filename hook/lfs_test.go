package hook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

const testOID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"

func TestParseLFSPointer(t *testing.T) {
	v1 := "version https://git-lfs.github.com/spec/v1\n"
	for _, c := range []struct {
		name, in string
		ok       bool
		size     int64
	}{
		{"plain", v1 + "oid sha256:" + testOID + "\nsize 12345\n", true, 12345},
		{"crlf", strings.ReplaceAll(v1+"oid sha256:"+testOID+"\nsize 7\n", "\n", "\r\n"), true, 7},
		{"no final newline", v1 + "oid sha256:" + testOID + "\nsize 0", true, 0},
		{"extension", v1 + "ext-0-foo sha256:" + testOID + "\noid sha256:" + testOID + "\nsize 3\n", true, 3},
		{"hawser", "version https://hawser.github.com/spec/v1\noid sha256:" + testOID + "\nsize 3\n", true, 3},
		{"empty lines", "\n" + v1 + "\noid sha256:" + testOID + "\n\nsize 3\n\n", true, 3},
		// leave-alones: text that mentions a pointer, or one git-lfs would not take
		{"prose", "the pointer has an oid sha256:" + testOID + " line\n", false, 0},
		{"unknown version", "version https://example.com/spec/v9\noid sha256:" + testOID + "\nsize 3\n", false, 0},
		{"order", "oid sha256:" + testOID + "\n" + v1 + "size 3\n", false, 0},
		{"md5", v1 + "oid md5:" + testOID + "\nsize 3\n", false, 0},
		{"short oid", v1 + "oid sha256:abc\nsize 3\n", false, 0},
		{"negative size", v1 + "oid sha256:" + testOID + "\nsize -1\n", false, 0},
		{"extra line", v1 + "oid sha256:" + testOID + "\nsize 3\ntoken ghp_x\n", false, 0},
		{"no size", v1 + "oid sha256:" + testOID + "\n", false, 0},
		{"too large", v1 + "oid sha256:" + testOID + "\nsize 3\n" + strings.Repeat(" ", 1100) + "x", false, 0},
		{"empty", "", false, 0},
	} {
		p, ok := parseLFSPointer([]byte(c.in))
		if ok != c.ok || (ok && (p.size != c.size || p.oid != testOID)) {
			t.Errorf("%s: got %+v, %v; want size %d, %v", c.name, p, ok, c.size, c.ok)
		}
	}
}

func FuzzParseLFSPointer(f *testing.F) {
	f.Add([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:" + testOID + "\nsize 3\n"))
	f.Add([]byte("version x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := parseLFSPointer(data)
		if !ok {
			return
		}
		if len(data) >= lfsPointerMax && len(strings.TrimSpace(string(data))) >= lfsPointerMax {
			t.Fatalf("a pointer of %d bytes", len(data))
		}
		if len(p.oid) < 64 || p.size < 0 || !strings.Contains(string(data), "oid sha256:"+p.oid) {
			t.Fatalf("bad pointer %+v from %q", p, data)
		}
	})
}

// setGitTestEnv gives git a home of its own and a pinned identity for the rest of the test.
func setGitTestEnv(t *testing.T, home string) {
	t.Helper()
	for k, v := range map[string]string{
		"HOME": home, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t.invalid",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t.invalid",
	} {
		t.Setenv(k, v)
	}
}

// lfsRepo makes a repository with a commit that adds a pointer for content, and the object in
// the LFS storage when stored is true.
func lfsRepo(t *testing.T, content []byte, stored bool) (*Repo, string) {
	t.Helper()
	ctx := context.Background()
	tmp := t.TempDir()
	setGitTestEnv(t, tmp)
	git := func(args ...string) string {
		t.Helper()
		out, err := NewGit(tmp).output(ctx, args...)
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	git("init", "-q")
	sum := sha256.Sum256(content)
	oid := hex.EncodeToString(sum[:])
	ptr := fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", oid, len(content))
	if err := os.WriteFile(filepath.Join(tmp, "app.env"), []byte(ptr), 0o644); err != nil {
		t.Fatal(err)
	}
	if stored {
		dir := filepath.Join(tmp, ".git", "lfs", "objects", oid[:2], oid[2:4])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, oid), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "app.env")
	git("commit", "-q", "-m", "pointer")
	r, err := Open(ctx, tmp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, oid
}

func addedText(f *diff.FileDiff) string {
	var b strings.Builder
	for l := range f.Added() {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// TestLFSObjectReviewed checks that a commit adding a pointer is reviewed at the object's
// text, and a binary object through ReadBlob, each checked against its sha256.
func TestLFSObjectReviewed(t *testing.T) {
	ctx := context.Background()
	r, oid := lfsRepo(t, []byte("TOKEN=ghp_example\nOTHER=1\n"), true)
	ch, err := r.Commit(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	f := &ch.Units[0].Files[0]
	if got := addedText(f); got != "TOKEN=ghp_example\nOTHER=1\n" || f.Binary || f.NewOID != oid {
		t.Fatalf("not replaced by the object: binary %v, oid %s, added %q", f.Binary, f.NewOID, got)
	}
	if len(r.Unreadable) != 0 {
		t.Fatalf("unreadable: %v", r.Unreadable)
	}
	data, err := r.ReadBlob(ctx, f.NewOID)
	if err != nil || string(data) != "TOKEN=ghp_example\nOTHER=1\n" {
		t.Fatalf("ReadBlob of the object: %q, %v", data, err)
	}
	// the object changed on disk after it was read: ReadBlob refuses it
	path := filepath.Join(r.CommonDir, "lfs", "objects", oid[:2], oid[2:4], oid)
	if err := os.WriteFile(path, []byte("TOKEN=ghp_exampleX\nOTHER=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadBlob(ctx, f.NewOID); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("a changed object was read: %v", err)
	}

	bin := []byte("PK\x03\x04\x00\x00binary\x00TOKEN=ghp_example")
	r2, oid2 := lfsRepo(t, bin, true)
	ch, err = r2.Commit(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	f = &ch.Units[0].Files[0]
	if !f.Binary || len(f.Hunks) != 0 || f.NewOID != oid2 {
		t.Fatalf("binary object: binary %v, hunks %d, oid %s", f.Binary, len(f.Hunks), f.NewOID)
	}
	if data, err := r2.ReadBlob(ctx, f.NewOID); err != nil || string(data) != string(bin) {
		t.Fatalf("ReadBlob of the binary object: %q, %v", data, err)
	}
}

// TestLFSObjectMissing checks that a pointer whose object is absent, or does not match it, is
// listed as unreadable, and the pointer text is kept.
func TestLFSObjectMissing(t *testing.T) {
	ctx := context.Background()
	r, oid := lfsRepo(t, []byte("TOKEN=ghp_example\n"), false)
	ch, err := r.Staged(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Units[0].Files) != 0 {
		t.Fatalf("nothing is staged, got %d files", len(ch.Units[0].Files))
	}
	ch, err = r.Range(ctx, RootRev+"..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	f := &ch.Units[0].Files[0]
	if f.NewOID == oid || !strings.Contains(addedText(f), "oid sha256:"+oid) {
		t.Fatalf("pointer replaced though its object is absent: %q", addedText(f))
	}
	if len(r.Unreadable) != 1 || !strings.Contains(r.Unreadable[0], "app.env") || !strings.Contains(r.Unreadable[0], "is not in") {
		t.Fatalf("unreadable: %v", r.Unreadable)
	}

	// an object whose content does not match its pointer
	dir := filepath.Join(r.CommonDir, "lfs", "objects", oid[:2], oid[2:4])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, oid), []byte("TOKEN=ghp_examplX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Unreadable = nil
	if _, err := r.Commit(ctx, "HEAD"); err != nil {
		t.Fatal(err)
	}
	if len(r.Unreadable) != 1 || !strings.Contains(r.Unreadable[0], "does not match") {
		t.Fatalf("unreadable: %v", r.Unreadable)
	}

	// lfs.storage elsewhere: the object is read from there
	other := filepath.Join(t.TempDir(), "store")
	sdir := filepath.Join(other, "objects", oid[:2], oid[2:4])
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sdir, oid), []byte("TOKEN=ghp_example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Git.output(ctx, "config", "lfs.storage", other); err != nil {
		t.Fatal(err)
	}
	r2, err := Open(ctx, r.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	ch, err = r2.Commit(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got := addedText(&ch.Units[0].Files[0]); got != "TOKEN=ghp_example\n" || len(r2.Unreadable) != 0 {
		t.Fatalf("lfs.storage not used: %q, %v", got, r2.Unreadable)
	}
}
