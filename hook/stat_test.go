package hook

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// statRepo makes a repository with one commit and further staged changes:
//
//	committed: a.txt, glob*.txt, globX.txt, link -> a.txt, dir/b.txt, dir/sub/c.txt, mod (submodule)
//	staged:    a.txt changed, dir/new.txt added
func statRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	g := NewGit(dir)
	git := func(args ...string) string {
		t.Helper()
		out, err := g.output(ctx, args...)
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("a.txt", "one\n")
	write("glob*.txt", "star\n")
	write("globX.txt", "x\n")
	write("dir/b.txt", "b\n")
	write("dir/sub/c.txt", "c\n")
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	git("add", "-A")
	git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",mod")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "one")
	head := git("rev-parse", "HEAD")
	write("a.txt", "two\n")
	write("dir/new.txt", "new\n")
	git("add", "a.txt", "dir/new.txt")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, head
}

func TestRepoStat(t *testing.T) {
	ctx := context.Background()
	r, head := statRepo(t)
	blob := func(spec string) string {
		out, err := r.Git.output(ctx, "rev-parse", spec)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		rev, path string
		mode, oid string
		ok        bool
	}{
		{"", "a.txt", "100644", blob(":a.txt"), true},
		{head, "a.txt", "100644", blob(head + ":a.txt"), true},
		{"", "dir/new.txt", "100644", blob(":dir/new.txt"), true},
		{head, "dir/new.txt", "", "", false},
		{"", "dir/sub/c.txt", "100644", blob(":dir/sub/c.txt"), true},
		{head, "dir/sub/c.txt", "100644", blob(head + ":dir/sub/c.txt"), true},
		{"", "link", "120000", blob(":link"), true},
		{head, "link", "120000", blob(head + ":link"), true},
		{"", "mod", "160000", strings.Repeat("1", 40), true},
		{head, "mod", "160000", strings.Repeat("1", 40), true},
		{"", "glob*.txt", "100644", blob(":glob*.txt"), true},
		{head, "glob*.txt", "100644", blob(head + ":glob*.txt"), true},
		{"", "glob?.txt", "", "", false},
		{head, "glob?.txt", "", "", false},
		// A directory is not a file.
		{"", "dir", "", "", false},
		{head, "dir", "", "", false},
		{"", "missing.txt", "", "", false},
		{head, "missing.txt", "", "", false},
	} {
		mode, oid, ok, err := r.Stat(ctx, c.rev, c.path)
		if err != nil || mode != c.mode || oid != c.oid || ok != c.ok {
			t.Errorf("Stat(%q, %q) = %q, %q, %v, %v; want %q, %q, %v", c.rev, c.path, mode, oid, ok, err, c.mode, c.oid, c.ok)
		}
	}
	if _, oid, _, _ := r.Stat(ctx, "", "link"); true {
		data, err := r.ReadBlob(ctx, oid)
		if err != nil || string(data) != "a.txt" {
			t.Errorf("the link's blob = %q, %v; want its target", data, err)
		}
	}
	if _, a0, _, _ := r.Stat(ctx, "", "a.txt"); true {
		if _, a1, _, _ := r.Stat(ctx, head, "a.txt"); a0 == a1 {
			t.Errorf("the index and the commit give the same a.txt")
		}
	}
}

func TestRepoList(t *testing.T) {
	ctx := context.Background()
	r, head := statRepo(t)
	for _, c := range []struct {
		rev, dir string
		want     []string
	}{
		{"", "", []string{"a.txt", "glob*.txt", "globX.txt", "link"}},
		{head, "", []string{"a.txt", "glob*.txt", "globX.txt", "link"}},
		{"", "dir", []string{"dir/b.txt", "dir/new.txt"}},
		{head, "dir", []string{"dir/b.txt"}},
		{"", "dir/sub", []string{"dir/sub/c.txt"}},
		{head, "dir/sub", []string{"dir/sub/c.txt"}},
		{"", "nothing", nil},
		{head, "nothing", nil},
	} {
		got, err := r.List(ctx, c.rev, c.dir)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("List(%q, %q) = %q, %v; want %q", c.rev, c.dir, got, err, c.want)
		}
	}
}

func TestRepoStatListRefuseEscapes(t *testing.T) {
	ctx := context.Background()
	r, head := statRepo(t)
	for _, rev := range []string{"", head} {
		for _, p := range []string{"../x", "/etc/passwd", "dir/../a.txt", "./a.txt", "dir//b.txt", "dir/", "", "a\x00b"} {
			if mode, _, ok, err := r.Stat(ctx, rev, p); err == nil || ok {
				t.Errorf("Stat(%q, %q) = %q, %v, %v; want a refusal", rev, p, mode, ok, err)
			}
		}
		for _, d := range []string{"../x", "/etc", "..", ".", "dir/..", "dir/"} {
			if got, err := r.List(ctx, rev, d); err == nil {
				t.Errorf("List(%q, %q) = %q; want a refusal", rev, d, got)
			}
		}
	}
}

func TestRepoListUnmerged(t *testing.T) {
	ctx := context.Background()
	r, _ := statRepo(t)
	oid, err := r.Git.output(ctx, "rev-parse", ":a.txt")
	if err != nil {
		t.Fatal(err)
	}
	// A conflict: conf.txt at stages 1, 2 and 3.
	info := "100644 " + oid + " 1\tconf.txt\n100644 " + oid + " 2\tconf.txt\n100644 " + oid + " 3\tconf.txt\n"
	if _, err := r.Git.run(ctx, strings.NewReader(info), "update-index", "--index-info"); err != nil {
		t.Fatal(err)
	}
	got, err := r.List(ctx, "", "")
	if want := []string{"a.txt", "conf.txt", "glob*.txt", "globX.txt", "link"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("List with an unmerged path = %q, %v; want %q", got, err, want)
	}
}
