package bundle

import (
	"bytes"
	"path"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
)

// Reading the repository at the reviewed version, through the unit's BlobReader only.

// dirOf is the directory of a repository path ("" for the root).
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// join joins a directory and a relative reference and cleans the result; ok is false when it
// would leave the repository (or is not a path at all).
func join(dir, rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return "", false
	}
	p := path.Clean(path.Join(dir, rel))
	if p == "." {
		return "", true // the root itself
	}
	return p, policy.CleanRepoPath(p)
}

// list returns the set of files directly in dir at the reviewed version.
func (e *expander) list(dir string) map[string]bool {
	if l, ok := e.lists[dir]; ok {
		return l
	}
	set := map[string]bool{}
	if dir == "" || policy.CleanRepoPath(dir) {
		if paths, err := e.blobs.List(e.ctx, e.rev, dir); err == nil {
			for _, p := range paths {
				if policy.CleanRepoPath(p) && dirOf(p) == dir {
					set[p] = true
				}
			}
		}
	}
	e.lists[dir] = set
	return set
}

// listSorted returns the files directly in dir, sorted.
func (e *expander) listSorted(dir string) []string {
	var out []string
	for p := range e.list(dir) {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// exists reports whether p is a file (of any mode) at the reviewed version.
func (e *expander) exists(p string) bool {
	return policy.CleanRepoPath(p) && e.list(dirOf(p))[p]
}

// load reads a text file at the reviewed version: a regular file, or with follow a symlink to
// one inside the repository. Submodules, directories, binary and empty files are not loaded.
func (e *expander) load(p string) (string, bool) {
	if l, ok := e.loads[p]; ok {
		return l.text, l.ok
	}
	text, ok := e.read(p)
	e.loads[p] = loaded{text, ok}
	return text, ok
}

func (e *expander) read(p string) (string, bool) {
	cur := p
	for hop := 0; hop <= maxSymlinkHops; hop++ {
		if !policy.CleanRepoPath(cur) {
			return "", false
		}
		mode, oid, ok, err := e.blobs.Stat(e.ctx, e.rev, cur)
		if err != nil || !ok {
			return "", false
		}
		switch mode {
		case "100644", "100755":
			data, err := e.blobs.ReadBlob(e.ctx, oid)
			if err != nil || len(data) == 0 || bytes.ContainsRune(data, 0) {
				return "", false
			}
			return string(data), true
		case "120000":
			if !e.follow {
				return "", false
			}
			target, err := e.blobs.ReadBlob(e.ctx, oid)
			if err != nil {
				return "", false
			}
			next, ok := join(dirOf(cur), string(target))
			if !ok || next == "" {
				return "", false
			}
			cur = next
		default: // 160000 (submodule), 040000 (directory), anything else
			return "", false
		}
	}
	return "", false
}
