package hook

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// lsRemoteTimeout bounds the one network call a review makes: asking the remote being pushed to
// which objects it already has.
const lsRemoteTimeout = 60 * time.Second

// PushRef is one line of pre-push input.
type PushRef struct {
	LocalRef, LocalOID, RemoteRef, RemoteOID string
}

// ParsePushLines reads git's pre-push stdin.
func ParsePushLines(in io.Reader) ([]PushRef, error) {
	var refs []PushRef
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		// The local ref is what the user typed and may hold spaces (main@{1 day ago}): split
		// the three fixed fields off the right, as git writes them.
		f := strings.Fields(line)
		if len(f) < 4 || !isOID(f[len(f)-3]) || !isOID(f[len(f)-1]) {
			return nil, fmt.Errorf("malformed pre-push input line %q: want <local ref> <local oid> <remote ref> <remote oid>", line)
		}
		n := len(f)
		refs = append(refs, PushRef{LocalRef: strings.Join(f[:n-3], " "), LocalOID: f[n-3], RemoteRef: f[n-2], RemoteOID: f[n-1]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read pre-push input: %w", err)
	}
	return refs, nil
}

// isOID reports a full hexadecimal object id (SHA-1 or SHA-256).
func isOID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// PushFromEnv builds the ref list the pre-commit framework describes in its environment
// (stdin is empty under it): PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF, or, when the push
// starts at a root commit (the framework then sets neither), PRE_COMMIT_LOCAL_BRANCH.
func PushFromEnv() []PushRef {
	to := os.Getenv("PRE_COMMIT_TO_REF")
	if to == "" {
		to = os.Getenv("PRE_COMMIT_LOCAL_BRANCH")
	}
	if to == "" {
		return nil
	}
	return []PushRef{{LocalRef: to, LocalOID: to, RemoteRef: os.Getenv("PRE_COMMIT_REMOTE_BRANCH"), RemoteOID: os.Getenv("PRE_COMMIT_FROM_REF")}}
}

// object is one answer of `git cat-file --batch-check`: typ is "" for a missing object.
type object struct{ oid, typ string }

// Push returns everything being pushed to remote (a name, or the URL when pushed to one) at
// url, each commit at its own content. Deletions are skipped. A ref on a blob or a tree
// (directly or through tags) is reviewed by that content. Commits the remote already has are
// left out, and what the remote has is taken from the remote itself: the remote ids git
// hands the hook, and `git ls-remote` when a ref is new there; never the local
// remote-tracking refs, which may be stale or belong to another server.
func (r *Repo) Push(ctx context.Context, remote, url string, refs []PushRef) (*diff.Change, error) {
	ch, err := r.push(ctx, refs, nil, func(pushed []PushRef) ([]string, error) {
		return r.remoteHas(ctx, remote, url, pushed)
	})
	ch, err = r.withLFS(ctx, ch, err)
	return r.withSubmodules(ctx, ch, err)
}

// ErrFrameworkPush is returned when a push under the pre-commit framework cannot be reviewed
// with certainty.
var ErrFrameworkPush = errors.New("cannot tell what this push sends under the pre-commit framework")

// PushFramework reviews a push under the pre-commit framework's push stage, which gives hooks
// no ref lines and only the first pushed ref in its variables (env). So that nothing
// pushed goes unreviewed, it reviews that ref and every local branch and tag, each against
// what the remote has (`git ls-remote`, which must succeed: if the remote cannot be listed
// the review fails closed), and Notes says so.
func (r *Repo) PushFramework(ctx context.Context, remote, url string, env []PushRef) (*diff.Change, error) {
	if url == "" && remote == "" {
		return nil, fmt.Errorf("%w: it names no remote (PRE_COMMIT_REMOTE_NAME is empty)", ErrFrameworkPush)
	}
	dest, why := r.pushDest(ctx, remote, url)
	if why != "" {
		return nil, fmt.Errorf("%w: %s", ErrFrameworkPush, why)
	}
	listed, err := r.lsRemote(ctx, dest)
	if err != nil {
		return nil, fmt.Errorf("%w: failed to ask %s which commits it has: %w", ErrFrameworkPush, displayURL(dest), err)
	}
	var (
		forEachRef = "for-each-ref"
		format     = "--format=%(objectname) %(refname)"
		heads      = "refs/heads/"
		tags       = "refs/tags/"
	)
	out, err := r.Git.output(ctx, forEachRef, format, heads, tags)
	if err != nil {
		return nil, fmt.Errorf("failed to list local branches and tags: %w", err)
	}
	onRemote := map[string]bool{}
	for _, id := range listed {
		onRemote[id] = true
	}
	refs := append([]PushRef{}, env...)
	for _, line := range strings.Split(out, "\n") {
		oid, name, ok := strings.Cut(line, " ")
		if ok && isOID(oid) && !onRemote[oid] {
			refs = append(refs, PushRef{LocalRef: name, LocalOID: oid, RemoteRef: name})
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("the pre-commit framework tells hooks only the first ref of a push, so every local branch and tag %s does not have was reviewed too; for an exact review of each pushed ref use tollgate's own pre-push hook (tollgate install --hooks pre-push)", displayURL(dest)))
	ch, err := r.push(ctx, refs, onRemote, func([]PushRef) ([]string, error) {
		have := listed
		for _, ref := range env {
			if isOID(ref.RemoteOID) && !isZeroOID(ref.RemoteOID) {
				have = append(have, ref.RemoteOID)
			}
		}
		return r.localCommits(ctx, have)
	})
	ch, err = r.withLFS(ctx, ch, err)
	return r.withSubmodules(ctx, ch, err)
}

// push reviews refs: blobs and trees by content (unless onRemote already has that object),
// commits not reachable from what have returns.
func (r *Repo) push(ctx context.Context, refs []PushRef, onRemote map[string]bool, have func([]PushRef) ([]string, error)) (*diff.Change, error) {
	ch := &diff.Change{Kind: "push", Blobs: r}
	pushed := pushedRefs(refs)
	if len(pushed) == 0 {
		return ch, nil
	}
	if err := r.addRefMeta(ctx, ch, pushed); err != nil { // ref names, tag messages (meta.go)
		return nil, err
	}
	tips, err := r.pushedObjects(ctx, ch, pushed, onRemote)
	if err != nil {
		return nil, err
	}
	if len(tips) == 0 {
		return ch, nil
	}
	exclude, err := have(pushed)
	if err != nil {
		return nil, err
	}
	var in bytes.Buffer
	for _, t := range tips {
		in.WriteString(t + "\n")
	}
	for _, h := range exclude {
		in.WriteString("^" + h + "\n")
	}
	commits, err := r.revListFrom(ctx, &in)
	if err != nil {
		return nil, err
	}
	return ch, r.addCommits(ctx, ch, commits)
}

// pushedRefs drops deletions from refs.
func pushedRefs(refs []PushRef) []PushRef {
	var pushed []PushRef
	for _, ref := range refs {
		if isZeroOID(ref.LocalOID) || ref.LocalRef == "(delete)" {
			continue
		}
		pushed = append(pushed, ref)
	}
	return pushed
}

// pushedObjects peels the pushed refs: a blob or tree the remote lacks is added to ch by
// content, a commit is returned as a tip. ch's head and base are the first pushed object's.
func (r *Repo) pushedObjects(ctx context.Context, ch *diff.Change, pushed []PushRef, onRemote map[string]bool) ([]string, error) {
	peel := make([]string, len(pushed))
	for i, ref := range pushed {
		peel[i] = ref.LocalOID + "^{}"
	}
	objs, err := r.batchCheck(ctx, peel)
	if err != nil {
		return nil, err
	}
	var tips []string
	for i, ref := range pushed {
		o := objs[i]
		switch o.typ {
		case "commit":
			tips = append(tips, o.oid)
		case "blob", "tree":
			if onRemote[o.oid] || onRemote[ref.LocalOID] {
				continue
			}
			if err := r.addObject(ctx, ch, ref, o); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("failed to read the push: %q (pushed as %q) is not an object of this repository", ref.LocalOID, ref.LocalRef)
		}
		if ch.Head == "" {
			ch.Head, ch.Base = o.oid, ref.RemoteOID
			if isZeroOID(ch.Base) {
				ch.Base = ""
			}
		}
	}
	return tips, nil
}

// remoteHas returns the commits of this repository that the remote already has: the remote ids
// on git's ref lines, and, when a ref is new on the remote (or its remote id is unknown
// here), every ref `git ls-remote` lists. Only ids this repository holds as commits are
// returned. If the remote cannot be listed the review covers more, never less (everything
// not reachable from the ids git gave), and Notes says so.
func (r *Repo) remoteHas(ctx context.Context, remote, url string, pushed []PushRef) ([]string, error) {
	var ids []string
	need := false
	for _, ref := range pushed {
		if ref.RemoteOID == "" || isZeroOID(ref.RemoteOID) || !isOID(ref.RemoteOID) {
			need = true
			continue
		}
		ids = append(ids, ref.RemoteOID)
	}
	have, err := r.localCommits(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(have) < len(ids) {
		need = true
	}
	if !need {
		return have, nil
	}
	dest, why := r.pushDest(ctx, remote, url)
	if why != "" {
		r.Notes = append(r.Notes, why+": every pushed commit not reachable from the remote ids git gave was reviewed")
		return have, nil
	}
	listed, err := r.lsRemote(ctx, dest)
	if err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("could not ask %s which commits it has (git ls-remote failed: %v): every pushed commit not reachable from the remote ids git gave was reviewed", displayURL(dest), err))
		return have, nil
	}
	more, err := r.localCommits(ctx, listed)
	if err != nil {
		return nil, err
	}
	return append(have, more...), nil
}

// lsRemote lists the object ids of the branches and tags on dest (a remote name or URL).
func (r *Repo) lsRemote(ctx context.Context, dest string) ([]string, error) {
	var (
		lsRemote = "ls-remote"
		heads    = "--heads"
		tags     = "--tags"
		end      = "--end-of-options"
	)
	ctx, cancel := context.WithTimeout(ctx, lsRemoteTimeout)
	defer cancel()
	// Branches and tags only: a forge's review refs (refs/pull/*) can number thousands, and
	// leaving them out only means reviewing more.
	out, err := r.Git.run(ctx, nil, lsRemote, heads, tags, end, dest)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var ids []string
	for _, line := range strings.Split(string(out), "\n") {
		oid, _, _ := strings.Cut(line, "\t")
		if isOID(oid) && !isZeroOID(oid) && !seen[oid] {
			seen[oid] = true
			ids = append(ids, oid)
		}
	}
	return ids, nil
}

// localCommits returns the commits (tags peeled) that ids name in this repository; ids this
// repository does not hold, or that are not commits, are left out (an exclusion must exist).
func (r *Repo) localCommits(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in := make([]string, len(ids))
	for i, id := range ids {
		in[i] = id + "^{commit}"
	}
	objs, err := r.batchCheck(ctx, in)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range objs {
		if o.typ == "commit" {
			out = append(out, o.oid)
		}
	}
	return out, nil
}

// batchCheck asks git for the id and type of each object name. A missing object has an empty
// type. In a partial clone git stops at the first object it would have to fetch (fetching is
// disabled): that one counts as missing and git is asked again for the rest, so the calls
// are one plus one per such object.
func (r *Repo) batchCheck(ctx context.Context, names []string) ([]object, error) {
	var (
		catFile = "cat-file"
		check   = "--batch-check=%(objectname) %(objecttype)"
	)
	objs := make([]object, len(names))
	for start := 0; start < len(names); {
		in := strings.Join(names[start:], "\n") + "\n"
		out, err := r.Git.run(ctx, strings.NewReader(in), catFile, check)
		if err != nil && !missingObject(err) {
			return nil, fmt.Errorf("failed to look up objects: %w", err)
		}
		// Only whole lines are answers; git flushes each one before it reads the next name.
		done := bytes.Count(out, []byte("\n"))
		if start+done > len(names) {
			return nil, fmt.Errorf("failed to look up objects: git answered %d names, asked %d", start+done, len(names))
		}
		for i, line := range strings.SplitN(string(out), "\n", done+1)[:done] {
			oid, typ, _ := strings.Cut(line, " ")
			if isOID(oid) && typ != "missing" && typ != "ambiguous" {
				objs[start+i] = object{oid: oid, typ: typ}
			}
		}
		start += done
		if err != nil {
			start++ // git stopped at this name: it is not here
		} else if start < len(names) {
			return nil, fmt.Errorf("failed to look up objects: git answered %d names, asked %d", start, len(names))
		}
	}
	return objs, nil
}

// addObject adds a unit for a pushed ref that points at a tree (every file in it, as added)
// or a blob (its content as one added file named after the ref).
func (r *Repo) addObject(ctx context.Context, ch *diff.Change, ref PushRef, o object) error {
	if o.typ == "tree" {
		empty, err := r.EmptyTree(ctx)
		if err != nil {
			return err
		}
		u, err := r.unit(ctx, r.Git, o.oid, []string{"diff-tree"}, empty, o.oid)
		if err = r.keepUnreadable(err); err != nil {
			return err
		}
		if u.Files != nil {
			ch.Units = append(ch.Units, u)
		}
		return nil
	}
	data, err := r.ReadBlob(ctx, o.oid)
	if err != nil {
		if missingObject(err) {
			return r.keepUnreadable(&unreadableError{commit: o.oid, err: err})
		}
		return err
	}
	name := ref.RemoteRef
	if name == "" {
		name = ref.LocalRef
	}
	f := diff.FileDiff{Status: diff.Added, NewPath: name, NewMode: "100644", NewOID: o.oid}
	if diff.IsBinary(string(data[:min(len(data), 8000)])) {
		f.Binary = true
	} else if len(data) > 0 {
		f.Hunks = []diff.Hunk{diff.TextHunk(string(data))}
	}
	ch.Units = append(ch.Units, diff.Unit{Commit: o.oid, Files: []diff.FileDiff{f}})
	return nil
}
