package hook

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// What leaves with a commit or a push besides file content is git metadata: each commit's
// message, author and committer, each annotated tag's message and tagger, and the names of
// the pushed refs. They are read from the raw objects (`git cat-file --batch`, one process for
// all of them) and handed to the review as Unit.Meta, each under a name that says what it is
// and never holds the text itself.

// maxTagDepth bounds how many tags pointing at tags are followed from one pushed ref.
const maxTagDepth = 8

// rawObject is one object of `git cat-file --batch`: typ is "" for a missing object.
type rawObject struct {
	typ  string
	data []byte
}

// readObjects reads the raw objects ids name, in one git process. A missing object has an
// empty type; a batch git cannot finish is an error.
func (r *Repo) readObjects(ctx context.Context, ids []string) (map[string]rawObject, error) {
	out := map[string]rawObject{}
	if len(ids) == 0 {
		return out, nil
	}
	var (
		catFile = "cat-file"
		batch   = "--batch"
	)
	var in bytes.Buffer
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	data, err := r.Git.run(ctx, &in, catFile, batch)
	if err != nil {
		return nil, fmt.Errorf("failed to read commit and tag objects: %w", err)
	}
	br := bufio.NewReader(bytes.NewReader(data))
	for range ids {
		header, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("failed to read commit and tag objects: git's answer ends early")
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			out[f[0]] = rawObject{}
			continue
		}
		size := -1
		if len(f) == 3 {
			size, _ = strconv.Atoi(f[2])
		}
		if size < 0 {
			return nil, fmt.Errorf("failed to read commit and tag objects: unexpected header %q", strings.TrimSpace(header))
		}
		body := make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(br, body); err != nil {
			return nil, fmt.Errorf("failed to read commit and tag objects: %w", err)
		}
		out[f[0]] = rawObject{typ: f[1], data: body[:size]}
	}
	return out, nil
}

// splitObject splits a raw commit or tag into its header fields (continuation lines, which
// start with a space, are left out: signatures and embedded tags) and its message.
func splitObject(data []byte) (map[string]string, string) {
	head, msg, _ := bytes.Cut(data, []byte("\n\n"))
	fields := map[string]string{}
	for _, line := range strings.Split(string(head), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k != "" {
			if _, seen := fields[k]; !seen {
				fields[k] = v
			}
		}
	}
	return fields, string(msg)
}

// identity is "Name <email>" of an author, committer or tagger line (its date left out).
func identity(v string) string {
	if i := strings.LastIndexByte(v, '>'); i >= 0 {
		return v[:i+1]
	}
	return v
}

// metaName is the name metadata is reported at: "(commit 0123456789ab message)".
func metaName(what, oid, part string) string {
	return "(" + what + " " + shortID(oid) + " " + part + ")"
}

// shortID is an object id as reports show it: its first 12 hex digits.
func shortID(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}

// commitMeta is the metadata of one raw commit: its message, its author, and its committer
// when that is someone else.
func commitMeta(oid string, data []byte) []diff.FileDiff {
	fields, msg := splitObject(data)
	author, committer := identity(fields["author"]), identity(fields["committer"])
	meta := []diff.FileDiff{
		diff.NewMeta(diff.MetaMessage, metaName("commit", oid, "message"), msg),
		diff.NewMeta(diff.MetaAuthor, metaName("commit", oid, "author"), author),
	}
	if committer != author {
		meta = append(meta, diff.NewMeta(diff.MetaCommitter, metaName("commit", oid, "committer"), committer))
	}
	return meta
}

// addCommitMeta adds each commit's metadata to its unit in ch (a new unit for a commit that
// has none: no file changed, or none left to review). A commit git cannot read is listed
// as unreadable.
func (r *Repo) addCommitMeta(ctx context.Context, ch *diff.Change, commits []string) error {
	objs, err := r.readObjects(ctx, commits)
	if err != nil {
		return err
	}
	r.attachCommitMeta(ch, commits, objs)
	return nil
}

// attachCommitMeta is addCommitMeta with the commits' objects read.
func (r *Repo) attachCommitMeta(ch *diff.Change, commits []string, objs map[string]rawObject) {
	at := map[string]int{}
	for i := range ch.Units {
		if c := ch.Units[i].Commit; c != "" {
			at[c] = i
		}
	}
	for _, c := range commits {
		o := objs[c]
		if o.typ != "commit" {
			r.Unreadable = append(r.Unreadable, fmt.Sprintf("commit %s: its message and identities could not be read", shortID(c)))
			continue
		}
		i, ok := at[c]
		if !ok {
			ch.Units = append(ch.Units, diff.Unit{Commit: c})
			i = len(ch.Units) - 1
			at[c] = i
		}
		ch.Units[i].Meta = append(ch.Units[i].Meta, commitMeta(c, o.data)...)
	}
}

// addRefMeta adds what a push says besides its commits: the name of every pushed ref (as it
// will be called on the remote) and the message and tagger of every annotated tag pushed,
// tags pointing at tags followed. They go in one unit of their own, with no commit.
func (r *Repo) addRefMeta(ctx context.Context, ch *diff.Change, pushed []PushRef) error {
	if len(pushed) == 0 {
		return nil
	}
	var names strings.Builder
	var ids []string
	for _, ref := range pushed {
		name := ref.RemoteRef
		if name == "" {
			name = ref.LocalRef
		}
		names.WriteString(oneLineName(name) + "\n")
		if isOID(ref.LocalOID) {
			ids = append(ids, ref.LocalOID)
		}
	}
	u := diff.Unit{Meta: []diff.FileDiff{diff.NewMeta(diff.MetaRef, "(pushed refs)", names.String())}}
	seen := map[string]bool{}
	for depth := 0; len(ids) > 0 && depth < maxTagDepth; depth++ {
		objs, err := r.readObjects(ctx, ids)
		if err != nil {
			return err
		}
		var next []string
		for _, id := range ids {
			o := objs[id]
			if o.typ != "tag" || seen[id] {
				continue
			}
			seen[id] = true
			fields, msg := splitObject(o.data)
			u.Meta = append(u.Meta,
				diff.NewMeta(diff.MetaTagMessage, metaName("tag", id, "message"), msg),
				diff.NewMeta(diff.MetaTagger, metaName("tag", id, "tagger"), identity(fields["tagger"])))
			if fields["type"] == "tag" && isOID(fields["object"]) {
				next = append(next, fields["object"])
			}
		}
		ids = next
	}
	ch.Units = append(ch.Units, u)
	return nil
}

// oneLineName keeps a ref name on one line of the names' text (git's ref names hold no
// white space; a name typed by hand on the framework's path might).
func oneLineName(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
