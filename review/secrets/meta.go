package secrets

import (
	"context"
	"fmt"
	"strings"

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
}

// scanMeta scans the unit's git metadata (a commit's message and identities, an annotated tag's
// message, pushed ref names) as text: each secret is reported at the metadata's name and line.
func (s *Scanner) scanMeta(ctx context.Context, u *diff.Unit, r *review.Result) {
	for i := range u.Meta {
		f := &u.Meta[i]
		if size, over := oversize(f); over {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets",
				Reason: fmt.Sprintf("%s: %d bytes exceed the %d-byte limit; not scanned", f.Path(), size, maxScanBytes)})
			continue
		}
		for hi := range f.Hunks {
			for _, block := range addedBlocks(&f.Hunks[hi]) {
				secs, err := s.Detector.ScanContext(ctx, f.Path(), block.text, block.start)
				if ctx.Err() != nil {
					return
				}
				if err != nil {
					r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: f.Path() + ": " + err.Error()})
					continue
				}
				for _, sec := range secs {
					s.reportAt(u, f.Path(), metaWhere[f.Meta], sec, r)
				}
			}
		}
	}
}

// scanPaths looks for secrets in the paths of the unit's new, renamed and copied files: a
// token in a file's name leaves with the commit as surely as one in its content. The paths are
// scanned in one text, one a line (a newline in a name read as a space), and each secret is
// reported at its file with no line, metadata "path".
func (s *Scanner) scanPaths(ctx context.Context, u *diff.Unit, r *review.Result) {
	var b strings.Builder
	var paths []string
	for i := range u.Files {
		f := &u.Files[i]
		if f.Status != diff.Added && f.Status != diff.Renamed && f.Status != diff.Copied {
			continue
		}
		paths = append(paths, f.Path())
		b.WriteString(oneLine.Replace(f.Path()))
		b.WriteByte('\n')
	}
	if len(paths) == 0 {
		return
	}
	secs, err := s.Detector.ScanContext(ctx, "", b.String(), 1)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: "file paths: " + err.Error()})
		return
	}
	for _, sec := range secs {
		if sec.Line < 1 || sec.Line > len(paths) {
			continue
		}
		path := paths[sec.Line-1]
		at := sec
		at.Line, at.EndLine = 0, 0
		n := len(r.Findings)
		s.reportAt(u, path, "in the file's path", at, r)
		for i := n; i < len(r.Findings); i++ {
			r.Findings[i].Metadata = diff.MetaPath
		}
	}
}

// oneLine keeps a path on one line of the text scanPaths scans.
var oneLine = strings.NewReplacer("\n", " ", "\r", " ")
