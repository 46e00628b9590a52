package hook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

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
		u, err := r.allUnit(ctx, r.Git.detached(r.GitDir, dir, r.Root), "", []string{diffIndex, cached}, empty)
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
	u, err := r.allUnit(ctx, g, r.head, []string{diffTree}, empty, r.head)
	if err = r.keepUnreadable(err); err != nil {
		return nil, err
	}
	return r.withLFS(ctx, &diff.Change{Kind: "all", Head: r.head, Units: []diff.Unit{u}, Blobs: r}, nil)
}

// allUnit is unit for a whole tree: when git cannot read it because blobs are missing (a
// snapshot without some large files, a partial clone), the files whose blobs are there are
// reviewed and each missing one is listed in r.Unreadable (the review is then incomplete, never
// clean). Any other failure, or one the missing blobs do not explain, is returned as it is.
func (r *Repo) allUnit(ctx context.Context, g *Git, commit string, cmd []string, trees ...string) (diff.Unit, error) {
	u, err := r.unit(ctx, g, commit, cmd, trees...)
	var ue *unreadableError
	if err == nil || !errors.As(err, &ue) {
		return u, err
	}
	entries, missing, lerr := missingBlobs(ctx, g, commit, cmd, trees)
	if lerr != nil || len(missing) == 0 {
		return u, err
	}
	// The readable files by name, in batches (git's pathspecs are literal here: see Git).
	gone := map[string]bool{}
	for _, e := range missing {
		gone[e.newPath] = true
	}
	var batch []string
	size := 0
	out := diff.Unit{Commit: commit}
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		part, err := r.unit(ctx, g, commit, cmd, append(append(append([]string{}, trees...), "--"), batch...)...)
		out.Files = append(out.Files, part.Files...)
		batch, size = batch[:0], 0
		return err
	}
	for _, e := range entries {
		if gone[e.newPath] || e.newPath == "" {
			continue
		}
		batch, size = append(batch, e.newPath), size+len(e.newPath)+1
		if size > pathBatchBytes {
			if err := flush(); err != nil {
				return out, err
			}
		}
	}
	if err := flush(); err != nil {
		return out, err
	}
	for _, e := range missing {
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s: its blob %s is not in this repository (a partial clone's objects are never fetched during a review), so it was not reviewed", e.newPath, e.newOID))
	}
	return out, nil
}

// pathBatchBytes bounds the path arguments of one git call of allUnit's fallback.
const pathBatchBytes = 64 << 10

// missingBlobs lists the files of a tree diff (entries: all of them) whose new blob git does
// not have: the raw listing (which reads no blob), then the objects of the commit git lacks
// (rev-list --missing=print, which fetches nothing), or for the index (commit ""), one cat-file
// --batch-check of the blobs.
func missingBlobs(ctx context.Context, g *Git, commit string, cmd, trees []string) (entries, missing []rawEntry, err error) {
	var (
		recursive = "-r"
		rawFlag   = "--raw"
		nulFlag   = "-z"
		noAbbrev  = "--no-abbrev"
		end       = "--end-of-options"
	)
	args := append(append([]string{}, cmd...), recursive, rawFlag, nulFlag, noAbbrev, end)
	args = append(append(args, trees...), "--")
	out, err := g.run(ctx, nil, args...)
	if err != nil {
		return nil, nil, err
	}
	if entries, err = parseRaw(out); err != nil {
		return nil, nil, err
	}
	gone, err := goneObjects(ctx, g, commit, entries)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if gone[e.newOID] {
			missing = append(missing, e)
		}
	}
	return entries, missing, nil
}

// goneObjects returns the objects of commit's tree git does not have, or (commit "") those of
// entries' new blobs.
func goneObjects(ctx context.Context, g *Git, commit string, entries []rawEntry) (map[string]bool, error) {
	var (
		revList     = "rev-list"
		objects     = "--objects"
		noWalk      = "--no-walk"
		printAbsent = "--missing=print"
		end         = "--end-of-options"
		catFile     = "cat-file"
		check       = "--batch-check"
	)
	gone := map[string]bool{}
	if commit != "" {
		res, err := g.run(ctx, nil, revList, objects, noWalk, printAbsent, end, commit)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(res), "\n") {
			if oid, ok := strings.CutPrefix(line, "?"); ok {
				gone[strings.TrimSpace(oid)] = true
			}
		}
		return gone, nil
	}
	var oids []string
	for _, e := range entries {
		if e.newOID != "" && !isZeroOID(e.newOID) {
			oids = append(oids, e.newOID)
		}
	}
	if len(oids) == 0 {
		return gone, nil
	}
	res, err := g.run(ctx, strings.NewReader(strings.Join(oids, "\n")+"\n"), catFile, check)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(res), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == "missing" {
			gone[f[0]] = true
		}
	}
	return gone, nil
}
