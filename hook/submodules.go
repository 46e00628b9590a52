package hook

import (
	"context"
	"fmt"
	"strings"
)

// Submodule is a submodule of a work tree: its path and, when this machine has its repository
// (initialised), that repository.
type Submodule struct {
	Path string
	Repo *Repo // nil when the submodule is not initialised here
}

// Submodules lists the submodules (gitlinks) in the index, each with its repository when it is
// initialised here: its git directory under <common git dir>/modules/<name> (the name from
// HEAD's .gitmodules) or its work tree's. The repositories are closed with r.
func (r *Repo) Submodules(ctx context.Context) ([]Submodule, error) {
	if r.Bare {
		return nil, nil
	}
	var (
		lsFiles = "ls-files"
		stage   = "-s"
		nul     = "-z"
	)
	out, err := r.Git.run(ctx, nil, lsFiles, stage, nul)
	if err != nil {
		return nil, fmt.Errorf("failed to list the index: %w", err)
	}
	var subs []Submodule
	seen := map[string]bool{}
	for _, rec := range splitZ(out) {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok || !strings.HasPrefix(meta, gitlinkMode+" ") || seen[path] {
			continue
		}
		seen[path] = true
		sub, err := r.openSubmodule(ctx, gitlinkMove{path: path, commit: r.head})
		if err != nil {
			return nil, err
		}
		subs = append(subs, Submodule{Path: path, Repo: sub})
	}
	return subs, nil
}
