package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// rawEntry is one record of `git diff-* --raw -z`.
type rawEntry struct {
	oldMode, newMode string
	oldOID, newOID   string
	status           byte
	oldPath, newPath string
}

// parseRaw parses NUL-separated --raw output.
func parseRaw(b []byte) ([]rawEntry, error) {
	fields := splitZ(b)
	var out []rawEntry
	for i := 0; i < len(fields); {
		head := fields[i]
		i++
		if !strings.HasPrefix(head, ":") {
			return nil, fmt.Errorf("failed to parse git raw diff: unexpected record %q", head)
		}
		parts := strings.Fields(head[1:])
		if len(parts) != 5 || parts[4] == "" {
			return nil, fmt.Errorf("failed to parse git raw diff: unexpected record %q", head)
		}
		e := rawEntry{oldMode: parts[0], newMode: parts[1], oldOID: parts[2], newOID: parts[3], status: parts[4][0]}
		if i >= len(fields) {
			return nil, fmt.Errorf("failed to parse git raw diff: record %q has no path", head)
		}
		e.oldPath, e.newPath = fields[i], fields[i]
		i++
		if e.status == 'R' || e.status == 'C' {
			if i >= len(fields) {
				return nil, fmt.Errorf("failed to parse git raw diff: record %q has no second path", head)
			}
			e.newPath = fields[i]
			i++
		}
		out = append(out, e)
	}
	return out, nil
}

// unit builds one review unit from a plumbing diff command (diff-index or diff-tree) and its
// tree arguments. The raw -z listing gives exact names; the patch gives the lines.
func (r *Repo) unit(ctx context.Context, g *Git, commit string, cmd []string, trees ...string) (diff.Unit, error) {
	// One git call: the NUL-separated --raw listing (exact names), an empty record, then the
	// patch (lines).
	end := "--end-of-options"
	args := append(append(append([]string{}, cmd...), unitFlags...), diffFlags...)
	// "--" after the trees (unless paths follow one already): a work-tree file named like a
	// tree id must not make them ambiguous.
	args = append(append(args, end), trees...)
	if !slices.Contains(trees, "--") {
		args = append(args, "--")
	}
	out, err := g.run(ctx, nil, args...)
	if err != nil {
		if missingObject(err) {
			return diff.Unit{}, &unreadableError{commit: commit, err: err}
		}
		return diff.Unit{}, fmt.Errorf("failed to read the diff: %w", err)
	}
	return r.parseUnit(ctx, g, commit, cmd, trees, out)
}

// unitFlags make a diff command print the raw -z listing, an empty record, then the patch
// with no context lines.
var unitFlags = func() []string {
	var (
		recursive = "-r"
		renames   = "-M"
		rawFlag   = "--raw"
		nulFlag   = "-z"
		noAbbrev  = "--no-abbrev"
		patch     = "-p"
		noContext = "-U0"
	)
	return []string{recursive, renames, rawFlag, patch, nulFlag, noAbbrev, noContext}
}()

// parseUnit builds a unit from the output of a unitFlags diff command; cmd and trees name the
// command again for the rare file that must be diffed once more as text.
func (r *Repo) parseUnit(ctx context.Context, g *Git, commit string, cmd, trees []string, out []byte) (diff.Unit, error) {
	rawOut, patchOut := out, []byte(nil)
	if i := bytes.Index(out, []byte{0, 0}); i >= 0 {
		rawOut, patchOut = out[:i+1], out[i+2:]
	}
	entries, err := parseRaw(rawOut)
	if err != nil {
		return diff.Unit{}, err
	}
	entries = dropUnmerged(entries)
	u := diff.Unit{Commit: commit}
	if len(entries) == 0 {
		return u, nil
	}
	files, err := diff.ParseDiff(patchOut)
	if err != nil {
		return diff.Unit{}, err
	}
	files = pairTypeChanges(files, entries)
	if len(files) != len(entries) {
		return diff.Unit{}, fmt.Errorf("failed to read the diff: git listed %d files but the patch has %d", len(entries), len(files))
	}
	for i := range files {
		e := &entries[i]
		f := &files[i]
		applyRaw(f, e)
		if f.Binary && e.newOID != "" && !isZeroOID(e.newOID) {
			if err := r.textIfText(ctx, g, commit, cmd, trees, e, f); err != nil {
				return diff.Unit{}, err
			}
		}
		u.Files = append(u.Files, *f)
	}
	return u, nil
}

// dropUnmerged drops unmerged paths (a conflict not yet resolved): they have no staged content
// and no patch section ("* Unmerged path"), and nothing of them can be committed until staged.
func dropUnmerged(entries []rawEntry) []rawEntry {
	merged := entries[:0]
	for _, e := range entries {
		if e.status != 'U' {
			merged = append(merged, e)
		}
	}
	return merged
}

// textIfText diffs again as text a file git showed as binary whose blob is text: a text file
// that .gitattributes marks binary (-diff) would otherwise hide its content from the review.
func (r *Repo) textIfText(ctx context.Context, g *Git, commit string, cmd, trees []string, e *rawEntry, f *diff.FileDiff) error {
	var (
		recursive = "-r"
		renames   = "-M"
		patch     = "-p"
		noContext = "-U0"
		textFlag  = "--text"
		end       = "--end-of-options"
	)
	if e.status == 'A' && (e.newMode == "100644" || e.newMode == "100755") {
		return r.addedText(ctx, commit, e, f)
	}
	text, err := r.blobIsText(ctx, e.newOID)
	if err != nil {
		if missingObject(err) {
			return &unreadableError{commit: commit, err: err}
		}
		return err
	}
	if !text {
		return nil
	}
	one := append(append(append([]string{}, cmd...), recursive, renames, patch, noContext, textFlag), diffFlags...)
	one = append(one, end)
	one = append(one, trees...)
	one = append(one, "--", e.oldPath)
	if e.newPath != e.oldPath {
		one = append(one, e.newPath)
	}
	out, err := g.run(ctx, nil, one...)
	if err != nil {
		return fmt.Errorf("failed to read the diff of %q: %w", e.newPath, err)
	}
	again, err := diff.ParseDiff(out)
	if err != nil {
		return err
	}
	for _, g := range again {
		// A type change is a deletion then a creation: the creation holds the content.
		if g.Status != diff.Deleted && (g.Path() == e.newPath || len(again) == 1) {
			g.OldPath, g.NewPath, g.Status = f.OldPath, f.NewPath, f.Status
			g.OldMode, g.NewMode, g.OldOID, g.NewOID = f.OldMode, f.NewMode, f.OldOID, f.NewOID
			g.Binary = false
			*f = g
			return nil
		}
	}
	return nil
}

// pairTypeChanges drops the deletion half of each type change (file, symlink, submodule):
// --raw lists one T entry, the patch shows a deletion then a creation of the same path. The
// creation holds the new content, so the files line up with the entries again.
func pairTypeChanges(files []diff.FileDiff, entries []rawEntry) []diff.FileDiff {
	out := make([]diff.FileDiff, 0, len(files))
	j := 0
	for i := range entries {
		if j >= len(files) {
			break
		}
		if entries[i].status == 'T' && j+1 < len(files) && files[j].Status == diff.Deleted && files[j+1].Status == diff.Added {
			j++
		}
		out = append(out, files[j])
		j++
	}
	return append(out, files[j:]...)
}

// applyRaw overwrites the patch's best-effort names and status with git's exact ones.
func applyRaw(f *diff.FileDiff, e *rawEntry) {
	f.OldMode, f.NewMode = e.oldMode, e.newMode
	f.OldOID, f.NewOID = e.oldOID, e.newOID
	switch e.status {
	case 'A':
		f.Status, f.OldPath, f.NewPath = diff.Added, "", e.newPath
		f.OldMode = ""
	case 'D':
		f.Status, f.OldPath, f.NewPath = diff.Deleted, e.oldPath, ""
		f.NewMode = ""
	case 'R':
		f.Status, f.OldPath, f.NewPath = diff.Renamed, e.oldPath, e.newPath
	case 'C':
		f.Status, f.OldPath, f.NewPath = diff.Copied, e.oldPath, e.newPath
	default:
		f.OldPath, f.NewPath = e.oldPath, e.newPath
		f.Status = diff.Modified
		if len(f.Hunks) == 0 && !f.Binary && e.oldMode != e.newMode && e.oldOID == e.newOID {
			f.Status = diff.ModeOnly
		}
	}
}

// lsEntries lists index entries (rev "": ls-files -s) or tree entries (ls-tree) for a pathspec,
// NUL-separated.
func (r *Repo) lsEntries(ctx context.Context, rev, spec string) ([]byte, error) {
	var (
		lsFiles = "ls-files"
		lsTree  = "ls-tree"
		stage   = "-s"
		nul     = "-z"
		full    = "--full-tree"
		sep     = "--"
	)
	if rev == "" {
		return r.Git.run(ctx, nil, lsFiles, stage, nul, sep, spec)
	}
	return r.Git.run(ctx, nil, lsTree, nul, full, rev, sep, spec)
}

// Stat implements review.BlobReader: mode and blob id of path in the index (rev "") or in a
// commit. Paths are repository-relative and never escape the tree (no "..", no absolute).
func (r *Repo) Stat(ctx context.Context, rev, path string) (string, string, bool, error) {
	if !policy.CleanRepoPath(path) {
		return "", "", false, fmt.Errorf("refusing path %q: not a clean repository path", path)
	}
	out, err := r.lsEntries(ctx, rev, path)
	if err != nil {
		return "", "", false, fmt.Errorf("failed to look up %q: %w", path, err)
	}
	for _, rec := range splitZ(out) {
		meta, name, ok := strings.Cut(rec, "\t")
		if !ok || name != path {
			continue
		}
		f := strings.Fields(meta)
		if len(f) < 3 {
			continue
		}
		if rev == "" { // <mode> <oid> <stage>
			return f[0], f[1], true, nil
		}
		if f[1] == "tree" { // a directory is not a file (the index never lists one)
			continue
		}
		return f[0], f[2], true, nil // <mode> <type> <oid>
	}
	return "", "", false, nil
}

// List implements review.BlobReader: the files directly in dir at rev.
func (r *Repo) List(ctx context.Context, rev, dir string) ([]string, error) {
	if dir != "" && !policy.CleanRepoPath(dir) {
		return nil, fmt.Errorf("refusing directory %q: not a clean repository path", dir)
	}
	spec := "."
	if dir != "" {
		spec = dir + "/"
	}
	out, err := r.lsEntries(ctx, rev, spec)
	if err != nil {
		return nil, fmt.Errorf("failed to list %q: %w", dir, err)
	}
	return listedFiles(out, rev, dir), nil
}

// listedFiles returns the files directly in dir of lsEntries output.
func listedFiles(out []byte, rev, dir string) []string {
	var paths []string
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for _, rec := range splitZ(out) {
		// Files only (symlinks included), never a submodule, as ls-tree's blob entries:
		// the index gives <mode> <oid> <stage>, a commit <mode> <type> <oid>.
		meta, p, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if len(f) < 2 || (rev == "" && f[0] == "160000") || (rev != "" && f[1] != "blob") {
			continue
		}
		// An unmerged path is listed once per stage.
		if n := len(paths); n > 0 && paths[n-1] == p {
			continue
		}
		rest, ok := strings.CutPrefix(p, prefix)
		if ok && rest != "" && !strings.Contains(rest, "/") {
			paths = append(paths, p)
		}
	}
	return paths
}

// blobIsText reports whether a blob has no NUL byte in its first 8000 bytes (git's own test).
func (r *Repo) blobIsText(ctx context.Context, oid string) (bool, error) {
	if !blobID(oid) {
		return false, fmt.Errorf("no blob %q", oid)
	}
	// Only the first 8000 bytes decide (as git decides); the rest is read past, not kept.
	text := false
	err := r.cat.read(ctx, r.Git, oid, func(size int, src io.Reader) error {
		head := make([]byte, min(size, 8000))
		if _, err := io.ReadFull(src, head); err != nil {
			return err
		}
		text = !bytes.ContainsRune(head, 0)
		_, err := io.Copy(io.Discard, src)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	return text, nil
}

// emptyTrees are the ids of the empty tree per object format.
var emptyTrees = map[string]string{
	"sha1":   "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
	"sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}

// Staged returns the staged set: the index (GIT_INDEX_FILE honoured) against HEAD, or against
// the empty tree on an unborn branch.
func (r *Repo) Staged(ctx context.Context) (*diff.Change, error) {
	if r.Bare {
		return nil, fmt.Errorf("%s: %w", r.Root, ErrBare)
	}
	var (
		diffIndex = "diff-index"
		cached    = "--cached"
	)
	head, err := r.Head(ctx)
	if err != nil {
		return nil, err
	}
	base := head
	if base == "" { // an unborn branch: everything staged is new
		if base, err = r.EmptyTree(ctx); err != nil {
			return nil, err
		}
	}
	// The index is diffed with an empty directory as the work tree, so every staged line
	// comes from the staged blob (see Git.detached).
	empty, err := r.emptyDir()
	if err != nil {
		return nil, err
	}
	defer os.Remove(empty)
	u, err := r.unit(ctx, r.Git.detached(r.GitDir, empty, r.Root), "", []string{diffIndex, cached}, base)
	if err = r.keepUnreadable(err); err != nil {
		return nil, err
	}
	return r.withLFS(ctx, &diff.Change{Kind: "staged", Base: head, Head: "index", Units: []diff.Unit{u}, Blobs: r}, nil)
}

// unreadableError is a change git could not read because an object is missing (a partial
// clone's promisor object, which is never fetched during a review, or a damaged repository).
type unreadableError struct {
	commit string // "" for the staged set
	err    error
}

func (e *unreadableError) Error() string {
	what := "the staged set"
	if e.commit != "" {
		what = "commit " + e.commit
	}
	return fmt.Sprintf("%s could not be read: an object it needs is not in this repository (a partial clone's objects are never fetched during a review): %v", what, e.err)
}

// missingObject reports a git failure caused by an object the repository does not have.
func missingObject(err error) bool {
	var ge *GitError
	if !errors.As(err, &ge) {
		return false
	}
	for _, s := range []string{"promisor remote", "lazy fetching disabled", "unable to read", "bad object", "missing blob", "missing tree", "missing commit"} {
		if strings.Contains(ge.Stderr, s) {
			return true
		}
	}
	return false
}

// keepUnreadable records an unreadable change in r.Unreadable (the review is then incomplete)
// and returns nil; any other error is returned as it is.
func (r *Repo) keepUnreadable(err error) error {
	var ue *unreadableError
	if errors.As(err, &ue) {
		r.Unreadable = append(r.Unreadable, ue.Error())
		return nil
	}
	return err
}

// treeGit returns a runner that diffs commits with a work tree that does not exist, run from
// the git directory: git then reads every blob of a commit from the object store, never from a
// work-tree file that merely looks unchanged (see Git.detached), and a file named like a
// revision cannot make an argument ambiguous. Nothing is created, so an unusable TMPDIR does
// not stop a push review.
func (r *Repo) treeGit() (*Git, error) {
	// A name unique to this process and moment, which nothing creates (nothing may be written
	// to the repository).
	none := filepath.Join(r.GitDir, "tollgate-no-work-tree-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	g := r.Git.detached(r.GitDir, none, r.Root)
	g.Dir = r.GitDir
	return g, nil
}

// emptyDir creates an empty directory outside the repository (removed by the caller).
func (r *Repo) emptyDir() (string, error) {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		return "", fmt.Errorf("no usable temporary directory: %w", err)
	}
	if fspath.Within(r.Root, tmp) {
		return "", fmt.Errorf("the temporary directory %s is inside the repository; set TMPDIR elsewhere", tmp)
	}
	dir, err := os.MkdirTemp(tmp, "tollgate-empty-")
	if err != nil {
		return "", fmt.Errorf("failed to create an empty directory: %w", err)
	}
	return dir, nil
}

// commitUnit is one commit against its first parent (the empty tree for a root commit).
func (r *Repo) commitUnit(ctx context.Context, commit string) (diff.Unit, string, error) {
	var (
		revParse = "rev-parse"
		verify   = "--verify"
		quiet    = "-q"
		end      = "--end-of-options"
	)
	parent, err := r.Git.output(ctx, revParse, verify, quiet, end, commit+"^1")
	if err != nil {
		if exitCode(err) != 1 {
			return diff.Unit{}, "", err
		}
		parent = "" // a root commit
	}
	g, err := r.treeGit()
	if err != nil {
		return diff.Unit{}, "", err
	}
	return r.unitAgainst(ctx, g, commit, parent)
}

// unitAgainst diffs commit against parent ("" for a root commit: the empty tree).
func (r *Repo) unitAgainst(ctx context.Context, g *Git, commit, parent string) (diff.Unit, string, error) {
	diffTree := "diff-tree"
	if parent == "" {
		var err error
		if parent, err = r.EmptyTree(ctx); err != nil {
			return diff.Unit{}, "", err
		}
	}
	u, err := r.unit(ctx, g, commit, []string{diffTree}, parent, commit)
	return u, parent, err
}

// listedCommit is one commit from rev-list with its first parent ("" for a root commit) and, for
// a merge, its other parents.
type listedCommit struct {
	id, parent string
	others     []string
}

// Commit returns one commit's change against its first parent.
func (r *Repo) Commit(ctx context.Context, rev string) (*diff.Change, error) {
	id, err := r.resolveCommit(ctx, rev, false)
	if err != nil {
		return nil, err
	}
	u, parent, err := r.commitUnit(ctx, id)
	if err = r.keepUnreadable(err); err != nil {
		return nil, err
	}
	ch, err := r.withLFS(ctx, &diff.Change{Kind: "commit", Base: parent, Head: id, Units: []diff.Unit{u}, Blobs: r}, nil)
	if err != nil {
		return nil, err
	}
	return ch, r.addCommitMeta(ctx, ch, []string{id})
}

// Range returns every commit in A..B, each at its own content. A is RootRev for every commit
// reachable from B, its root commits included.
func (r *Repo) Range(ctx context.Context, spec string) (*diff.Change, error) {
	a, b, ok := strings.Cut(spec, "..")
	if !ok || strings.HasPrefix(b, ".") || a == "" || b == "" {
		return nil, fmt.Errorf("bad range %q: want A..B (or %s..B from the first commit)", spec, RootRev)
	}
	head, err := r.resolveCommit(ctx, b, false)
	if err != nil {
		return nil, err
	}
	if a == RootRev {
		commits, err := r.revList(ctx, head)
		if err != nil {
			return nil, err
		}
		ch := &diff.Change{Kind: "range", Head: head, Blobs: r}
		return r.withLFS(ctx, ch, r.addCommits(ctx, ch, commits))
	}
	base, err := r.resolveCommit(ctx, a, false)
	if errors.Is(err, errShallowRev) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w; to start before the first commit, use %s..%s", err, RootRev, b)
	}
	commits, err := r.revList(ctx, head, "^"+base)
	if err != nil {
		return nil, err
	}
	ch := &diff.Change{Kind: "range", Base: base, Head: head, Blobs: r}
	return r.withLFS(ctx, ch, r.addCommits(ctx, ch, commits))
}

// revList lists commits with their first parents, oldest first (one git call for all of
// them, so no commit needs its own rev-parse).
func (r *Repo) revList(ctx context.Context, revs ...string) ([]listedCommit, error) {
	return r.revListFrom(ctx, nil, revs...)
}

// revListFrom is revList with more revisions read from stdin (one per line, ^ to exclude), for
// lists too long for a command line.
func (r *Repo) revListFrom(ctx context.Context, stdin io.Reader, revs ...string) ([]listedCommit, error) {
	var (
		revList = "rev-list"
		topo    = "--topo-order"
		reverse = "--reverse"
		parents = "--parents"
		fromIn  = "--stdin"
	)
	// revs are resolved object ids and fixed options only, never user text.
	args := append([]string{revList, topo, reverse, parents}, revs...)
	if stdin != nil {
		args = append(args, fromIn)
	}
	// "--": a work-tree file named like a revision must not make it ambiguous.
	args = append(args, "--")
	out, err := r.Git.run(ctx, stdin, args...)
	if err != nil {
		return nil, fmt.Errorf("failed to list commits: %w", err)
	}
	var list []listedCommit
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		c := listedCommit{id: f[0]}
		if len(f) > 1 {
			c.parent, c.others = f[1], f[2:]
		}
		list = append(list, c)
	}
	return list, nil
}
