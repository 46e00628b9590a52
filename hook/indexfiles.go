package hook

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// maxPathspecBytes bounds the file names given to git on its command line; a longer list is
// read as the whole index and filtered here.
const maxPathspecBytes = 64 << 10

// IndexFiles returns the full content at the index of each named file (as if added), for the
// pre-commit framework's `run --all-files` and `run --files`, which name files whose content
// the staged diff does not hold. Names the index does not hold are returned as missing.
func (r *Repo) IndexFiles(ctx context.Context, paths []string) (*diff.Change, []string, error) {
	if r.Bare {
		return nil, nil, fmt.Errorf("%s: %w", r.Root, ErrBare)
	}
	empty, err := r.EmptyTree(ctx)
	if err != nil {
		return nil, nil, err
	}
	dir, err := r.emptyDir()
	if err != nil {
		return nil, nil, err
	}
	defer os.Remove(dir)
	args := []string{empty}
	size := 0
	for _, p := range paths {
		size += len(p) + 1
	}
	if size <= maxPathspecBytes {
		// Every git call runs with GIT_LITERAL_PATHSPECS=1: a name is never read as pathspec
		// magic or a glob.
		args = append(args, "--")
		for _, p := range paths {
			args = append(args, strings.TrimPrefix(p, "./"))
		}
	}
	u, err := r.unit(ctx, r.Git.detached(r.GitDir, dir, r.Root), "", []string{"diff-index", "--cached"}, args...)
	if err = r.keepUnreadable(err); err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[strings.TrimPrefix(p, "./")] = true
	}
	kept := u.Files[:0]
	for _, f := range u.Files {
		if want[f.Path()] {
			kept = append(kept, f)
			delete(want, f.Path())
		}
	}
	u.Files = kept
	var missing []string
	for _, p := range paths {
		if want[strings.TrimPrefix(p, "./")] {
			missing = append(missing, p)
		}
	}
	head, _ := r.Head(ctx)
	ch, err := r.withLFS(ctx, &diff.Change{Kind: "staged", Base: head, Head: "index", Units: []diff.Unit{u}, Blobs: r}, nil)
	return ch, missing, err
}

// StagedPaths returns the paths the staged change adds or modifies (what the pre-commit
// framework passes at commit time).
func StagedPaths(ch *diff.Change) map[string]bool {
	out := map[string]bool{}
	for _, u := range ch.Units {
		for _, f := range u.Files {
			if f.Status != diff.Deleted {
				out[f.Path()] = true
			}
		}
	}
	return out
}
