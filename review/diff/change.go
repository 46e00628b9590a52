package diff

import "context"

// Change is what one review looks at: the staged set, one commit, a range, or a push. Each
// Unit is reviewed at its own content, so a secret added in one commit of a push and removed in
// a later one is still found.
type Change struct {
	Kind  string // staged | commit | range | push | message (the commit-msg hook)
	Base  string
	Head  string
	Units []Unit
	// Blobs reads file contents at the reviewed version (nil: only the diff is known).
	Blobs BlobReader
}

// BlobReader reads the repository under review, read-only: blobs by id, and paths at a
// unit's version (rev "" is the index, otherwise a commit id).
type BlobReader interface {
	ReadBlob(ctx context.Context, oid string) ([]byte, error)
	// Stat returns the mode and blob id of path at rev; ok is false when there is no such file.
	Stat(ctx context.Context, rev, path string) (mode, oid string, ok bool, err error)
	// List returns the paths of the files directly in dir ("" for the root) at rev.
	List(ctx context.Context, rev, dir string) ([]string, error)
}

// Unit is one diff: the staged set against HEAD, or one commit against its first parent.
type Unit struct {
	Commit string // "" for the staged set
	Files  []FileDiff
	// Meta is the git metadata the unit brings, each piece as one added text (NewMeta): a
	// commit's message and identities, an annotated tag's message, pushed ref names. Only the
	// scanners that read secrets and prose look at it; it is never a file of the change.
	Meta []FileDiff
	// Blobs reads the unit's file contents (Run fills it from Change.Blobs).
	Blobs BlobReader
}

// FileCount is the number of distinct paths the change touches.
func (c *Change) FileCount() int {
	seen := map[string]bool{}
	for _, u := range c.Units {
		for i := range u.Files {
			seen[u.Files[i].Path()] = true
		}
	}
	return len(seen)
}

// Kinds of git metadata (FileDiff.Meta).
const (
	MetaMessage    = "commit-message" // a commit's message
	MetaAuthor     = "author"         // a commit's author, "Name <email>"
	MetaCommitter  = "committer"      // a commit's committer, "Name <email>"
	MetaTagMessage = "tag-message"    // an annotated tag's message
	MetaTagger     = "tagger"         // an annotated tag's tagger, "Name <email>"
	MetaRef        = "ref"            // the names of pushed refs, one a line
	MetaPath       = "path"           // a file's path (set on findings, never on a FileDiff)
)

// NewMeta is a piece of git metadata as an added text: name says what was read (it is the
// path findings are reported at, e.g. "(commit 0123456789ab message)") and never holds the
// text itself, so it is safe to print.
func NewMeta(kind, name, text string) FileDiff {
	f := FileDiff{NewPath: name, Status: Added, Meta: kind}
	if text != "" {
		f.Hunks = []Hunk{TextHunk(text)}
	}
	return f
}
