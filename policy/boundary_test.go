package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boundaryTree builds:
//
//	root/a.txt             "A"
//	root/dir/b.txt         "B"
//	root/big.txt           100 bytes
//	root/in-link    -> a.txt             (inside)
//	root/dir-link   -> dir               (inside)
//	root/out-link   -> outside/secret    (outside)
//	root/out-dir    -> outside           (outside)
//	root/chain      -> in-chain -> outside/secret
//	root/up-link    -> ../outside/secret (relative, outside)
//	outside/secret         "S"
func boundaryTree(t *testing.T) (root, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.txt"), "A")
	write(filepath.Join(root, "dir", "b.txt"), "B")
	write(filepath.Join(root, "big.txt"), strings.Repeat("x", 100))
	write(filepath.Join(outside, "secret"), "S")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	link("a.txt", "in-link")
	link("dir", "dir-link")
	link(filepath.Join(outside, "secret"), "out-link")
	link(outside, "out-dir")
	link(filepath.Join(outside, "secret"), "in-chain")
	link("in-chain", "chain")
	link("../outside/secret", "up-link")
	return root, outside
}

func TestBoundaryResolve(t *testing.T) {
	root, outside := boundaryTree(t)
	tests := []struct {
		rel string
		// want: "" for an error, else the path relative to root it resolves to
		noFollow, follow string
		errNoFollow      error
		errFollow        error
	}{
		{rel: "a.txt", noFollow: "a.txt", follow: "a.txt"},
		{rel: "dir/b.txt", noFollow: "dir/b.txt", follow: "dir/b.txt"},
		{rel: "dir/../a.txt", noFollow: "a.txt", follow: "a.txt"},
		{rel: "./a.txt", noFollow: "a.txt", follow: "a.txt"},
		{rel: "dir", noFollow: "dir", follow: "dir"},
		{rel: "", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "a\x00.txt", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "/etc/passwd", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: filepath.Join(root, "a.txt"), errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "..", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "../outside/secret", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "dir/../../outside/secret", errNoFollow: ErrOutside, errFollow: ErrOutside},
		{rel: "in-link", errNoFollow: ErrSymlink, follow: "a.txt"},
		{rel: "dir-link/b.txt", errNoFollow: ErrSymlink, follow: "dir/b.txt"},
		{rel: "out-link", errNoFollow: ErrSymlink, errFollow: ErrOutside},
		{rel: "out-dir/secret", errNoFollow: ErrSymlink, errFollow: ErrOutside},
		{rel: "chain", errNoFollow: ErrSymlink, errFollow: ErrOutside},
		{rel: "up-link", errNoFollow: ErrSymlink, errFollow: ErrOutside},
		{rel: "missing.txt", errNoFollow: fs.ErrNotExist, errFollow: fs.ErrNotExist},
	}
	for _, follow := range []bool{false, true} {
		b, err := NewBoundary(root, follow)
		if err != nil {
			t.Fatal(err)
		}
		if b.Root() != root {
			t.Errorf("Root() = %q, want %q", b.Root(), root)
		}
		for _, tt := range tests {
			want, wantErr := tt.noFollow, tt.errNoFollow
			if follow {
				want, wantErr = tt.follow, tt.errFollow
			}
			got, err := b.Resolve(tt.rel)
			if wantErr != nil {
				if !errors.Is(err, wantErr) {
					t.Errorf("follow=%v Resolve(%q) = %q, %v; want error %v", follow, tt.rel, got, err, wantErr)
				}
				if strings.HasPrefix(got, outside) {
					t.Errorf("follow=%v Resolve(%q) returned a path outside: %q", follow, tt.rel, got)
				}
				continue
			}
			if err != nil || got != filepath.Join(root, want) {
				t.Errorf("follow=%v Resolve(%q) = %q, %v; want %q", follow, tt.rel, got, err, filepath.Join(root, want))
			}
		}
	}
}

func TestBoundaryReadFile(t *testing.T) {
	root, _ := boundaryTree(t)
	for _, follow := range []bool{false, true} {
		b, err := NewBoundary(root, follow)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := b.ReadFile("dir/b.txt", 0); err != nil || string(got) != "B" {
			t.Errorf("follow=%v ReadFile(dir/b.txt) = %q, %v", follow, got, err)
		}
		if got, err := b.ReadFile("big.txt", 100); err != nil || len(got) != 100 {
			t.Errorf("follow=%v ReadFile(big.txt, 100) = %d bytes, %v", follow, len(got), err)
		}
		if got, err := b.ReadFile("big.txt", 99); err == nil || !strings.Contains(err.Error(), "larger than 99") {
			t.Errorf("follow=%v ReadFile(big.txt, 99) = %d bytes, %v; want a size error", follow, len(got), err)
		}
		if _, err := b.ReadFile("dir", 0); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("follow=%v ReadFile(dir) error = %v, want not a regular file", follow, err)
		}
		if _, err := b.ReadFile("missing.txt", 0); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("follow=%v ReadFile(missing.txt) error = %v, want fs.ErrNotExist", follow, err)
		}
		for _, rel := range []string{"out-link", "out-dir/secret", "chain", "up-link", "../outside/secret", "/etc/hostname"} {
			if got, err := b.ReadFile(rel, 0); err == nil {
				t.Errorf("follow=%v ReadFile(%q) = %q: read outside the root", follow, rel, got)
			}
		}
		got, err := b.ReadFile("in-link", 0)
		if follow && (err != nil || string(got) != "A") {
			t.Errorf("follow=true ReadFile(in-link) = %q, %v; want A", got, err)
		}
		if !follow && !errors.Is(err, ErrSymlink) {
			t.Errorf("follow=false ReadFile(in-link) error = %v, want ErrSymlink", err)
		}
	}
}

// A root reached through a symlink is canonicalised, and works as the real directory.
func TestBoundaryRootThroughSymlink(t *testing.T) {
	root, _ := boundaryTree(t)
	via := filepath.Join(t.TempDir(), "via")
	if err := os.Symlink(root, via); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	for _, follow := range []bool{false, true} {
		b, err := NewBoundary(via, follow)
		if err != nil {
			t.Fatal(err)
		}
		if b.Root() != root {
			t.Errorf("Root() = %q, want the real path %q", b.Root(), root)
		}
		if got, err := b.ReadFile("a.txt", 0); err != nil || string(got) != "A" {
			t.Errorf("follow=%v ReadFile(a.txt) via a symlinked root = %q, %v", follow, got, err)
		}
		if _, err := b.Resolve("../outside/secret"); !errors.Is(err, ErrOutside) {
			t.Errorf("follow=%v Resolve(../outside/secret) error = %v, want ErrOutside", follow, err)
		}
	}
	// A relative root is made absolute.
	t.Chdir(filepath.Dir(root))
	b, err := NewBoundary("root", false)
	if err != nil || b.Root() != root {
		t.Errorf("NewBoundary(relative) = %v, %v; want root %q", b, err, root)
	}
	if _, err := NewBoundary(filepath.Join(root, "no-such-dir"), false); err == nil {
		t.Error("NewBoundary on a missing directory succeeded")
	}
}

func TestBoundaryWithin(t *testing.T) {
	b := &Boundary{root: "/repo"}
	for p, want := range map[string]bool{
		"/repo":            true,
		"/repo/a":          true,
		"/repo/a/b":        true,
		"/repo/..a":        true, // a name starting with two dots is inside
		"/repository":      false,
		"/repo2/a":         false,
		"/":                false,
		"/other/repo/a":    false,
		"/repo/../etc/x":   false,
		"/repo/a/../../x":  false,
		"/repo/a/../b":     true,
		"/repo/./a":        true,
		"/rep":             false,
		"/repo/../repo/ok": true,
	} {
		if got := b.within(filepath.Clean(p)); got != want {
			t.Errorf("within(%q) = %v, want %v", p, got, want)
		}
	}
}
