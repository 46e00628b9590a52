package hook

import (
	"context"
	"errors"
	"os"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// ErrNoHead is returned by All on an unborn branch: there is no commit to read files from.
var ErrNoHead = errors.New("HEAD has no commit yet, so there is no file at HEAD to review")

// RootRev is the range start that stands for "before the first commit": ROOT..B reviews every
// commit reachable from B, root commits included (A..B never includes A itself).
const RootRev = "ROOT"

// All returns every file at HEAD (index false) or in the index (index true) as one unit of
// added files, for a first review of a repository or a CI job that checks the whole tree.
func (r *Repo) All(ctx context.Context, index bool) (*diff.Change, error) {
	var (
		diffIndex = "diff-index"
		cached    = "--cached"
		diffTree  = "diff-tree"
	)
	empty, err := r.EmptyTree(ctx)
	if err != nil {
		return nil, err
	}
	if index {
		// As Staged: the index diffed with an empty directory as the work tree, so every line
		// comes from the staged blob.
		dir, err := r.emptyDir()
		if err != nil {
			return nil, err
		}
		defer os.Remove(dir)
		u, err := r.unit(ctx, r.Git.detached(r.GitDir, dir, r.Root), "", []string{diffIndex, cached}, empty)
		if err = r.keepUnreadable(err); err != nil {
			return nil, err
		}
		return r.withLFS(ctx, &diff.Change{Kind: "all", Head: "index", Units: []diff.Unit{u}, Blobs: r}, nil)
	}
	if r.head == "" {
		return nil, ErrNoHead
	}
	g, err := r.treeGit() // every blob from the object store, never a work-tree file
	if err != nil {
		return nil, err
	}
	u, err := r.unit(ctx, g, r.head, []string{diffTree}, empty, r.head)
	if err = r.keepUnreadable(err); err != nil {
		return nil, err
	}
	return r.withLFS(ctx, &diff.Change{Kind: "all", Head: r.head, Units: []diff.Unit{u}, Blobs: r}, nil)
}
