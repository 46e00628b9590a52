package hook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// gitlinkMode is the mode of a submodule's entry (a gitlink) in a tree or the index.
const gitlinkMode = "160000"

// maxSubmoduleDepth bounds how deep submodules inside submodules are followed.
const maxSubmoduleDepth = 8

// gitlinkMove is a pushed commit that moves (or adds) a submodule's gitlink.
type gitlinkMove struct {
	path     string // the submodule's path in the superproject
	old, new string // the gitlink's commits; old is "" for a new submodule
	commit   string // the superproject commit that moves it
}

// withSubmodules adds to a push's change the new commits of each submodule whose gitlink a
// pushed commit moves (see addSubmodules); err is the builder's.
func (r *Repo) withSubmodules(ctx context.Context, ch *diff.Change, err error) (*diff.Change, error) {
	if err != nil {
		return nil, err
	}
	if err := r.addSubmodules(ctx, ch, 0); err != nil {
		return nil, err
	}
	return ch, nil
}

// addSubmodules reviews, as part of a push, the commits a moved gitlink brings:
// `git push --recurse-submodules` pushes them to the submodule's remote with the superproject.
// For each gitlink a commit of ch moves, the submodule's commits in old..new are added, each
// at its own content, read from the submodule's repository on this machine (its git directory
// under <common git dir>/modules/<name>, or its work tree's); their paths are prefixed with
// the submodule's path. A new submodule brings the commits not reachable from its
// remote-tracking refs (those git's on-demand push would send). Where the submodule's commits
// are not here, that is listed in r.Unreadable (not run), never passed as clean. Submodules of
// submodules are followed the same way.
func (r *Repo) addSubmodules(ctx context.Context, ch *diff.Change, depth int) error {
	moves := gitlinkMoves(ch)
	if len(moves) == 0 {
		return nil
	}
	if depth >= maxSubmoduleDepth {
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("submodules nested more than %d deep were not reviewed", maxSubmoduleDepth))
		return nil
	}
	for _, m := range moves {
		if err := r.addSubmoduleMove(ctx, ch, m, depth); err != nil {
			return err
		}
	}
	return nil
}

// gitlinkMoves lists the gitlinks ch's commits move or add, each move once.
func gitlinkMoves(ch *diff.Change) []gitlinkMove {
	var moves []gitlinkMove
	seen := map[gitlinkMove]bool{}
	for _, u := range ch.Units {
		for i := range u.Files {
			f := &u.Files[i]
			if f.NewMode != gitlinkMode || f.Status == diff.Deleted || !isOID(f.NewOID) || isZeroOID(f.NewOID) || f.NewOID == f.OldOID {
				continue
			}
			m := gitlinkMove{path: f.NewPath, new: f.NewOID}
			if f.OldMode == gitlinkMode && isOID(f.OldOID) && !isZeroOID(f.OldOID) {
				m.old = f.OldOID
			}
			if seen[m] {
				continue
			}
			seen[m] = true
			m.commit = u.Commit
			moves = append(moves, m)
		}
	}
	return moves
}

// addSubmoduleMove adds the commits one gitlink move brings, or lists why they cannot be read.
func (r *Repo) addSubmoduleMove(ctx context.Context, ch *diff.Change, m gitlinkMove, depth int) error {
	what := fmt.Sprintf("submodule %s: the commits up to %s (moved to by commit %s)", m.path, m.new, m.commit)
	notRun := func(why string) error {
		r.Unreadable = append(r.Unreadable, what+" "+why+": they were not reviewed")
		return nil
	}
	sub, err := r.openSubmodule(ctx, m)
	if err != nil {
		return err
	}
	if sub == nil {
		return notRun("cannot be read: the submodule's repository is not on this machine (`git submodule update --init` brings it)")
	}
	commits, ok, err := sub.movedCommits(ctx, m)
	if err != nil {
		return err
	}
	if !ok {
		return notRun("are not in the submodule's repository at " + sub.GitDir)
	}
	subch := &diff.Change{Kind: "push", Blobs: sub}
	if err := sub.addCommits(ctx, subch, commits); err != nil {
		return err
	}
	if err := sub.resolveLFS(ctx, subch); err != nil {
		return err
	}
	if err := sub.addSubmodules(ctx, subch, depth+1); err != nil {
		return err
	}
	prefix := m.path + "/"
	ch.Units = append(ch.Units, prefixUnits(subch.Units, sub, prefix)...)
	for _, why := range sub.Unreadable {
		r.Unreadable = append(r.Unreadable, "submodule "+m.path+": "+why)
	}
	for _, n := range sub.Notes {
		r.Notes = append(r.Notes, "submodule "+m.path+": "+n)
	}
	if len(commits) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("submodule %s: %d commit(s) the push moves it to were reviewed (paths under %s)", m.path, len(commits), prefix))
	}
	return nil
}

// movedCommits lists the commits of r (the submodule's repository) that a gitlink move
// brings: old..new, or, for a new submodule (or an old commit not here), those new has that
// the remote-tracking refs do not. ok is false when new is not in r.
func (r *Repo) movedCommits(ctx context.Context, m gitlinkMove) ([]listedCommit, bool, error) {
	have, err := r.localCommits(ctx, []string{m.new})
	if err != nil || len(have) == 0 {
		return nil, false, err
	}
	revs := []string{m.new, "--not", "--remotes"}
	if m.old != "" {
		old, err := r.localCommits(ctx, []string{m.old})
		if err != nil {
			return nil, false, err
		}
		if len(old) == 1 {
			revs = []string{m.new, "^" + m.old}
		}
	}
	commits, err := r.revList(ctx, revs...)
	return commits, err == nil, err
}

// prefixUnits puts a submodule's units under its path: every file name gets prefix, and the
// files are read from sub through that prefix.
func prefixUnits(units []diff.Unit, sub *Repo, prefix string) []diff.Unit {
	for ui := range units {
		u := &units[ui]
		if u.Blobs == nil {
			u.Blobs = subBlobs{r: sub, prefix: prefix}
		}
		for i := range u.Files {
			f := &u.Files[i]
			if f.OldPath != "" {
				f.OldPath = prefix + f.OldPath
			}
			if f.NewPath != "" {
				f.NewPath = prefix + f.NewPath
			}
		}
	}
	return units
}

// openSubmodule opens the repository of the submodule at m.path, or returns nil when this
// machine has none: its git directory under <common git dir>/modules/<name> (the name from
// .gitmodules at the commit that moves it), or the git directory of its work tree. Nothing
// outside those is opened: the name and the path must be clean relative paths.
func (r *Repo) openSubmodule(ctx context.Context, m gitlinkMove) (*Repo, error) {
	if !policy.CleanRepoPath(m.path) {
		return nil, nil
	}
	names, err := r.submoduleNames(ctx, m.commit)
	if err != nil {
		return nil, err
	}
	var tries []string
	for _, name := range append(names[m.path], m.path) {
		if policy.CleanRepoPath(name) {
			tries = append(tries, filepath.Join(r.CommonDir, "modules", filepath.FromSlash(name)))
		}
	}
	if !r.Bare {
		tries = append(tries, filepath.Join(r.Root, filepath.FromSlash(m.path)))
	}
	for _, dir := range tries {
		if sub := r.openOwn(ctx, dir); sub != nil {
			r.subs = append(r.subs, sub)
			return sub, nil
		}
	}
	return nil, nil
}

// openOwn opens the repository at dir when dir is its git directory or its work tree's root,
// never one that merely contains dir (an empty submodule directory is inside the
// superproject).
func (r *Repo) openOwn(ctx context.Context, dir string) *Repo {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil
	}
	sub, err := Open(ctx, real)
	if err != nil {
		return nil
	}
	gitDir, _ := filepath.EvalSymlinks(sub.GitDir)
	if (sub.Root == real || gitDir == real) && !samePath(sub.GitDir, r.GitDir) {
		return sub
	}
	return nil
}

// submoduleNames maps each submodule path to its names in .gitmodules at commit ("" or a commit
// without .gitmodules: none).
func (r *Repo) submoduleNames(ctx context.Context, commit string) (map[string][]string, error) {
	names := map[string][]string{}
	if commit == "" {
		return names, nil
	}
	var (
		config = "config"
		nul    = "-z"
		blob   = "--blob=" + commit + ":.gitmodules"
		regexp = "--get-regexp"
		keys   = `^submodule\..*\.path$`
	)
	out, err := r.Git.run(ctx, nil, config, nul, blob, regexp, keys)
	if err != nil {
		// No .gitmodules there, no path in it, or one git cannot parse: the submodule's path
		// is still tried as its name, and its work tree's git directory.
		return names, nil
	}
	for _, rec := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		key, path, ok := strings.Cut(string(rec), "\n")
		if !ok {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".path")
		names[path] = append(names[path], name)
	}
	return names, nil
}

// subBlobs reads a submodule's files for units whose paths carry the submodule's path as a
// prefix.
type subBlobs struct {
	r      *Repo
	prefix string
}

func (s subBlobs) ReadBlob(ctx context.Context, oid string) ([]byte, error) {
	return s.r.ReadBlob(ctx, oid)
}

func (s subBlobs) Stat(ctx context.Context, rev, path string) (string, string, bool, error) {
	rest, ok := strings.CutPrefix(path, s.prefix)
	if !ok || rev == "" {
		return "", "", false, nil
	}
	return s.r.Stat(ctx, rev, rest)
}

func (s subBlobs) List(ctx context.Context, rev, dir string) ([]string, error) {
	if rev == "" {
		return nil, nil
	}
	rest, ok := strings.CutPrefix(dir+"/", s.prefix)
	if !ok {
		return nil, nil
	}
	paths, err := s.r.List(ctx, rev, strings.TrimSuffix(rest, "/"))
	for i := range paths {
		paths[i] = s.prefix + paths[i]
	}
	return paths, err
}
