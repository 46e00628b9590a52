package hook

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNotRepository is returned outside a git work tree.
var ErrNotRepository = errors.New("not a git repository")

// Repo is an opened repository.
type Repo struct {
	Git          *Git
	Root         string // canonical work tree root
	GitDir       string // absolute
	CommonDir    string // absolute; differs from GitDir in a linked worktree
	HooksDir     string // absolute: where git really looks for hooks
	ObjectFormat string // sha1 or sha256
	// Bare is a repository without a work tree (a server's): Root is its git directory, and
	// there is no staged set; commits, ranges and received pushes are reviewed.
	Bare bool
	// Unreadable lists why parts of a change could not be read (an object missing from a
	// partial clone): the review that gets the change is incomplete, never clean.
	Unreadable []string
	// Notes are what a reader of the report must know about how the change was chosen (a
	// remote that could not be asked what it has).
	Notes     []string
	emptyTree string
	head      string     // HEAD's commit when the repository was opened ("" on an unborn branch)
	cat       catFile    // the blob reader (blobString, ReadBlob), started on first use
	lfs       lfsObjects // the Git LFS objects files were replaced with (lfs.go)
	subs      []*Repo    // the submodules a push review opened (submodule.go), closed by Close
}

// Open finds the repository that contains dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	g := NewGit(dir)
	var (
		revParse   = "rev-parse"
		absolute   = "--path-format=absolute"
		toplevel   = "--show-toplevel"
		gitDir     = "--git-dir"
		commonDir  = "--git-common-dir"
		gitPath    = "--git-path"
		hooks      = "hooks"
		objectForm = "--show-object-format"
		verify     = "--verify"
		quiet      = "-q"
		head       = "HEAD^{commit}"
	)
	// One call: the paths, the object format, and HEAD (absent on an unborn branch, where
	// rev-parse still prints the rest and exits 1).
	out, err := g.output(ctx, revParse, absolute, toplevel, gitDir, commonDir, gitPath, hooks, objectForm, verify, quiet, head)
	if err != nil && exitCode(err) != 1 {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
			return nil, fmt.Errorf("%s: %w", dir, ErrNotRepository)
		}
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "must be run in a work tree") {
			return openBare(ctx, g)
		}
		return nil, fmt.Errorf("failed to open repository: %w", err)
	}
	lines, headID := strings.Split(out, "\n"), ""
	switch {
	case err == nil && len(lines) == 6:
		headID, lines = lines[5], lines[:5]
	case err != nil && len(lines) == 5: // an unborn branch
	default:
		// A path that holds a newline: one call per value, each output whole.
		if lines, headID, err = openEach(ctx, g); err != nil {
			return nil, err
		}
	}
	root, err := filepath.EvalSymlinks(lines[0])
	if err != nil {
		return nil, fmt.Errorf("failed to resolve repository root: %w", err)
	}
	r := &Repo{
		Git: NewGit(root), Root: root, GitDir: lines[1], CommonDir: lines[2], HooksDir: lines[3],
		ObjectFormat: lines[4], head: headID,
	}
	return r, nil
}

// ErrBare is returned for what a bare repository does not have (a staged set).
var ErrBare = errors.New("a bare repository has no work tree and nothing staged")

// openBare opens a bare repository (a server's, or a pre-receive hook's, where git sets
// GIT_DIR and, during a push, the quarantine's object directories, which every later git
// call inherits). Root is the git directory.
func openBare(ctx context.Context, g *Git) (*Repo, error) {
	var (
		revParse = "rev-parse"
		absolute = "--path-format=absolute"
		verify   = "--verify"
		quiet    = "-q"
		head     = "HEAD^{commit}"
	)
	var vals []string
	for _, q := range [][]string{{"--git-dir"}, {"--git-common-dir"}, {"--git-path", "hooks"}, {"--show-object-format"}} {
		out, err := g.run(ctx, nil, append([]string{revParse, absolute}, q...)...)
		if err != nil {
			return nil, fmt.Errorf("failed to open repository: %w", err)
		}
		vals = append(vals, strings.TrimSuffix(string(out), "\n"))
	}
	out, err := g.run(ctx, nil, revParse, verify, quiet, head)
	if err != nil && exitCode(err) != 1 {
		return nil, fmt.Errorf("failed to open repository: %w", err)
	}
	root, err := filepath.EvalSymlinks(vals[0])
	if err != nil {
		return nil, fmt.Errorf("failed to resolve repository: %w", err)
	}
	return &Repo{
		Git: NewGit(root), Root: root, GitDir: vals[0], CommonDir: vals[1], HooksDir: vals[2],
		ObjectFormat: vals[3], head: strings.TrimSuffix(string(out), "\n"), Bare: true,
	}, nil
}

// openEach asks rev-parse for each of Open's values on its own, so a newline inside a path
// cannot shift them; it returns the five paths and values, and HEAD ("" when unborn).
func openEach(ctx context.Context, g *Git) ([]string, string, error) {
	var (
		revParse = "rev-parse"
		absolute = "--path-format=absolute"
		verify   = "--verify"
		quiet    = "-q"
		head     = "HEAD^{commit}"
	)
	var vals []string
	for _, q := range [][]string{{"--show-toplevel"}, {"--git-dir"}, {"--git-common-dir"}, {"--git-path", "hooks"}, {"--show-object-format"}} {
		out, err := g.run(ctx, nil, append([]string{revParse, absolute}, q...)...)
		if err != nil {
			return nil, "", fmt.Errorf("failed to open repository: %w", err)
		}
		vals = append(vals, strings.TrimSuffix(string(out), "\n"))
	}
	out, err := g.run(ctx, nil, revParse, verify, quiet, head)
	if err != nil && exitCode(err) != 1 {
		return nil, "", fmt.Errorf("failed to open repository: %w", err)
	}
	return vals, strings.TrimSuffix(string(out), "\n"), nil
}

// Head returns the commit HEAD pointed to when the repository was opened, or "" on an unborn
// branch.
func (r *Repo) Head(ctx context.Context) (string, error) {
	return r.head, nil
}

// resolveCommit resolves rev to a commit id. With optional, a missing rev is "" without error.
func (r *Repo) resolveCommit(ctx context.Context, rev string, optional bool) (string, error) {
	var (
		revParse = "rev-parse"
		verify   = "--verify"
		quiet    = "-q"
		end      = "--end-of-options"
		spec     = rev + "^{commit}"
	)
	out, err := r.Git.output(ctx, revParse, verify, quiet, end, spec)
	if err != nil {
		if exitCode(err) == 1 {
			if optional {
				return "", nil
			}
			if r.shallow(ctx) {
				return "", fmt.Errorf("unknown revision %q (%w: fetch more of it first, e.g. `git fetch --unshallow`, or fetch-depth: 0 in GitHub Actions' checkout)", rev, errShallowRev)
			}
			return "", fmt.Errorf("unknown revision %q (not a commit in this repository)", rev)
		}
		return "", err
	}
	return out, nil
}

// errShallowRev says a revision is missing because the clone is shallow.
var errShallowRev = errors.New("not in this shallow clone's history")

// shallow reports whether the repository is a shallow clone (false when git cannot say).
func (r *Repo) shallow(ctx context.Context) bool {
	var (
		revParse  = "rev-parse"
		isShallow = "--is-shallow-repository"
	)
	out, err := r.Git.output(ctx, revParse, isShallow)
	return err == nil && out == "true"
}

// EmptyTree is the id of the empty tree in this repository's object format.
func (r *Repo) EmptyTree(ctx context.Context) (string, error) {
	if r.emptyTree != "" {
		return r.emptyTree, nil
	}
	if id, ok := emptyTrees[r.ObjectFormat]; ok {
		r.emptyTree = id
		return id, nil
	}
	var (
		hashObject = "hash-object"
		typ        = "-t"
		tree       = "tree"
		stdin      = "--stdin"
	)
	out, err := r.Git.run(ctx, strings.NewReader(""), hashObject, typ, tree, stdin)
	if err != nil {
		return "", fmt.Errorf("failed to compute the empty tree id: %w", err)
	}
	r.emptyTree = strings.TrimSpace(string(out))
	return r.emptyTree, nil
}

// isZeroOID reports an all-zero object id (SHA-1 or SHA-256).
func isZeroOID(oid string) bool {
	return (len(oid) == 40 || len(oid) == 64) && strings.Trim(oid, "0") == ""
}
