package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/fspath"
)

// Boundary confines file reads to one canonical repository root.
type Boundary struct {
	root           string
	followSymlinks bool
}

// ErrOutside is returned for a path that resolves outside the root.
var ErrOutside = errors.New("path is outside the repository")

// ErrSymlink is returned for a path through a symlink when symlinks are not followed.
var ErrSymlink = errors.New("path is a symbolic link (set repository.follow_symlinks = true to allow)")

// NewBoundary canonicalises root (realpath) and returns a boundary for it.
func NewBoundary(root string, followSymlinks bool) (*Boundary, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve repository root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve repository root: %w", err)
	}
	return &Boundary{root: filepath.Clean(real), followSymlinks: followSymlinks}, nil
}

// Root is the canonical root.
func (b *Boundary) Root() string { return b.root }

// within reports whether the absolute path p lies under the root (name by name, fspath).
func (b *Boundary) within(p string) bool { return fspath.Within(b.root, p) }

// Resolve maps a repository-relative path (slash-separated) to an absolute path under the
// root. Absolute paths, ".." escapes and (unless allowed) symlinks on the way are refused.
func (b *Boundary) Resolve(rel string) (string, error) {
	if rel == "" || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") {
		return "", fmt.Errorf("%q: absolute paths are not repository paths: %w", rel, ErrOutside)
	}
	p := filepath.Join(b.root, filepath.FromSlash(rel))
	if !b.within(p) {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	if b.followSymlinks {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", err
		}
		if !b.within(real) {
			return "", fmt.Errorf("%q resolves to %q: %w", rel, real, ErrOutside)
		}
		return real, nil
	}
	// Walk every component below the root: none may be a symlink.
	r, _ := filepath.Rel(b.root, p)
	cur := b.root
	for _, part := range strings.Split(r, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%q: %w", rel, ErrSymlink)
		}
	}
	return p, nil
}

// ReadFile reads a regular file under the root, at most limit bytes (limit <= 0: no limit).
// A missing file returns an error that satisfies errors.Is(err, fs.ErrNotExist).
func (b *Boundary) ReadFile(rel string, limit int64) ([]byte, error) {
	p, err := b.Resolve(rel)
	if err != nil {
		return nil, err
	}
	// Stat before opening: opening a FIFO or a device could block forever.
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", rel)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", rel)
	}
	if limit > 0 && fi.Size() > limit {
		return nil, fmt.Errorf("%q is larger than %d bytes", rel, limit)
	}
	return io.ReadAll(f)
}

// CleanRepoPath reports a relative, slash-separated repository path with no ".", ".." or empty
// element: the only kind of path tollgate hands to git or reads through the boundary.
func CleanRepoPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || strings.HasSuffix(p, "/") {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	return true
}

// MaxConfigBytes bounds the config files read from a repository.
const MaxConfigBytes = 1 << 20

// ReadRepoFile reads a config file at the repository root through the boundary; a missing file
// is nil without error, a symlink or unreadable file is an error.
func ReadRepoFile(b *Boundary, name string) ([]byte, error) {
	data, err := b.ReadFile(name, MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, ErrSymlink) {
		// repository.follow_symlinks does not apply here: config is never read through a link.
		return nil, &ConfigError{File: name, Msg: "it is a symbolic link, and tollgate never reads its configuration through one; replace it with a regular file"}
	}
	if err != nil {
		return nil, &ConfigError{File: name, Msg: err.Error()}
	}
	return data, nil
}

// StateDir is $XDG_STATE_HOME or ~/.local/state.
func StateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state")
	}
	return ""
}
