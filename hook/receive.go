package hook

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// ServerHooks are the hooks tollgate installs on the receiving side of a push (a bare
// repository on a server). They are installed only when asked for by name.
var ServerHooks = []string{"pre-receive"}

// ParseReceiveLines reads git's pre-receive stdin: one `<old> <new> <ref>` line per updated
// ref. A ref name never holds white space (git check-ref-format).
func ParseReceiveLines(in io.Reader) ([]PushRef, error) {
	var refs []PushRef
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 || !isOID(f[0]) || !isOID(f[1]) {
			return nil, fmt.Errorf("malformed pre-receive input line %q: want <old oid> <new oid> <ref>", line)
		}
		refs = append(refs, PushRef{LocalRef: f[2], LocalOID: f[1], RemoteRef: f[2], RemoteOID: f[0]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read pre-receive input: %w", err)
	}
	return refs, nil
}

// Receive returns what a push received by this repository brings, for its pre-receive hook:
// each updated ref's new commits at their own content, a new branch or tag only for the
// commits that no existing ref of this repository has (the refs are not updated yet while the
// hook runs), deletions skipped. The pushed objects sit in git's quarantine directory, which
// git names in the hook's environment; every git call here inherits it, so they are readable.
func (r *Repo) Receive(ctx context.Context, refs []PushRef) (*diff.Change, error) {
	ch, err := r.push(ctx, refs, nil, func([]PushRef) ([]string, error) {
		return r.existingRefs(ctx)
	})
	if err != nil {
		return nil, err
	}
	ch.Kind = "push"
	return r.withLFS(ctx, ch, nil)
}

// existingRefs returns the commits every ref of this repository points to (tags peeled).
func (r *Repo) existingRefs(ctx context.Context) ([]string, error) {
	var (
		forEachRef = "for-each-ref"
		format     = "--format=%(objectname)"
	)
	out, err := r.Git.run(ctx, nil, forEachRef, format)
	if err != nil {
		return nil, fmt.Errorf("failed to list the repository's refs: %w", err)
	}
	var ids []string
	seen := map[string]bool{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		id := string(bytes.TrimSpace(line))
		if isOID(id) && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return r.localCommits(ctx, ids)
}
