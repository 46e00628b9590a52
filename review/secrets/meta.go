package secrets

import (
	"context"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// metaWhere says in a finding's message which metadata a secret was found in.
var metaWhere = map[string]string{
	diff.MetaMessage:    "in the commit message",
	diff.MetaAuthor:     "in the commit's author",
	diff.MetaCommitter:  "in the commit's committer",
	diff.MetaTagMessage: "in the annotated tag's message",
	diff.MetaTagger:     "in the annotated tag's tagger",
	diff.MetaRef:        "in a pushed ref's name",
	diff.MetaPath:       "in the file's path",
}

// namePiece is one piece of scanNames' text: a metadata text (meta set) or a file's path
// (path set), from line first to line last of the text.
type namePiece struct {
	meta        *diff.FileDiff
	path        string
	first, last int
}

// scanNames looks for secrets in what leaves with the unit besides file content: its git
// metadata (a commit's message and identities, an annotated tag's message and tagger, pushed
// ref names) and the paths of its new, renamed and copied files (a token in a file's name
// leaves as surely as one in its content). All of it is scanned in one text, each piece on
// lines of its own (a newline in a path read as a space): a history's commits cost one
// detector call each, not one per piece. A secret in metadata is reported at the metadata's
// name and line, one in a path at that file with no line; both carry their kind (Metadata).
func (s *Scanner) scanNames(ctx context.Context, u *diff.Unit, r *review.Result) {
	text, pieces := namesText(u, r)
	if len(pieces) == 0 {
		return
	}
	secs, err := s.Detector.ScanContext(ctx, "", text, 1)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: "commit metadata and file paths: " + err.Error()})
		return
	}
	for _, sec := range secs {
		for _, p := range pieces {
			if sec.Line >= p.first && sec.Line <= p.last {
				s.reportName(u, p, sec, r)
				break
			}
		}
	}
}

// namesText is scanNames' text and its pieces; metadata over the size limit is not run.
func namesText(u *diff.Unit, r *review.Result) (string, []namePiece) {
	var b strings.Builder
	var pieces []namePiece
	line := 1
	add := func(p namePiece, text string) {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		p.first = line
		b.WriteString(text)
		line += strings.Count(text, "\n")
		p.last = line - 1
		pieces = append(pieces, p)
	}
	for i := range u.Meta {
		f := &u.Meta[i]
		if size, over := oversize(f); over {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets",
				Reason: fmt.Sprintf("%s: %d bytes exceed the %d-byte limit; not scanned", f.Path(), size, maxScanBytes)})
			continue
		}
		if text := metaText(f); text != "" {
			add(namePiece{meta: f}, text)
		}
	}
	for i := range u.Files {
		f := &u.Files[i]
		if f.Status == diff.Added || f.Status == diff.Renamed || f.Status == diff.Copied {
			add(namePiece{path: f.Path()}, oneLine.Replace(f.Path()))
		}
	}
	return b.String(), pieces
}

// reportName reports sec, found in piece p of scanNames' text.
func (s *Scanner) reportName(u *diff.Unit, p namePiece, sec redact.Secret, r *review.Result) {
	at, kind := sec, diff.MetaPath
	path := p.path
	if p.meta != nil {
		path, kind = p.meta.Path(), p.meta.Meta
		at.Line, at.EndLine = sec.Line-p.first+1, min(sec.EndLine, p.last)-p.first+1
	} else {
		at.Line, at.EndLine = 0, 0
	}
	n := len(r.Findings)
	s.reportAt(u, path, metaWhere[kind], at, r)
	for i := n; i < len(r.Findings); i++ {
		r.Findings[i].Metadata = kind
	}
}

// metaText is the text of a metadata piece (one added hunk, as diff.NewMeta makes it).
func metaText(f *diff.FileDiff) string {
	var b strings.Builder
	for hi := range f.Hunks {
		for _, block := range addedBlocks(&f.Hunks[hi]) {
			b.WriteString(block.text)
		}
	}
	return b.String()
}

// oneLine keeps a path on one line of the text scanNames scans.
var oneLine = strings.NewReplacer("\n", " ", "\r", " ")
