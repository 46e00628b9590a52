package secrets

import (
	"context"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// maxBinaryBytes bounds the size of one binary file whose content the secrets scanner reads.
const maxBinaryBytes = 4 * maxScanBytes

// scanBinary reads a file git calls binary through the unit's BlobReader and scans the text
// in it (binary.go): decoded text line by line, a real binary's printable runs with no line
// (0), archive members under "archive!member". A secret already in the old version of the
// file (the same rule on the same text) is not reported again. What could not be read or
// unpacked is reported as not run: the review is incomplete, never clean.
func (s *Scanner) scanBinary(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *review.Result) {
	s.scanBlob(ctx, u, f, r, false)
}

// scanCompressedText reads a file git took for text whose first line starts with the magic
// bytes of compressed data (bzip2, zstd and zlib data hold no NUL byte in a small file) and
// scans what it unpacks to. Its lines were scanned as text already: only what it unpacks to
// is looked at here; text that only looks like it ("x^2 + y^2") is left as it is.
func (s *Scanner) scanCompressedText(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *review.Result) {
	for l := range f.Added() {
		if l.New == 1 && compressedKind([]byte(l.Text[:min(len(l.Text), 16)])) != "" {
			s.scanBlob(ctx, u, f, r, true)
		}
		return
	}
}

// scanBlob scans the text in the file's blob; membersOnly scans only what archives and
// compressed data in it hold.
func (s *Scanner) scanBlob(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *review.Result, membersOnly bool) {
	path := f.Path()
	notRun := func(reason string) {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: reason})
	}
	if u.Blobs == nil || !realOID(f.NewOID) {
		if membersOnly {
			notRun(path + ": compressed data whose content could not be read; not scanned")
			return
		}
		r.Binary = append(r.Binary, path) // only the name is known
		return
	}
	data, err := u.Blobs.ReadBlob(ctx, f.NewOID)
	if err != nil {
		notRun(fmt.Sprintf("%s: failed to read the binary file: %v", path, err))
		return
	}
	if len(data) > maxBinaryBytes {
		notRun(fmt.Sprintf("%s: binary file of %d bytes exceeds the %d-byte limit; not scanned", path, len(data), maxBinaryBytes))
		return
	}
	x := extractText(path, data)
	data = nil
	old := s.oldBinaryLines(ctx, u, f)
	spent := 0 // bytes the base64 blobs in its texts inflated to (embedded.go)
	for _, t := range x.Texts {
		if membersOnly && !t.Member {
			continue
		}
		s.scanBinaryText(u, t, old, r)
		if t.Lines && len(t.Text) <= maxScanBytes {
			s.scanBlobs(u, t.Path, block{start: 1, text: t.Text}, &spent, r)
		}
	}
	for _, l := range x.Limits {
		notRun(l)
	}
}

// scanBinaryText scans one piece of text found in a binary file.
func (s *Scanner) scanBinaryText(u *diff.Unit, t binText, old map[string]bool, r *review.Result) {
	if t.Member {
		secs, err := s.Detector.ScanPath(t.Path)
		if err != nil {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: err.Error()})
			return
		}
		for _, sec := range secs {
			s.reportAt(u, t.Path, "in binary file", sec, r)
		}
	}
	if len(t.Text) > maxScanBytes {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets",
			Reason: fmt.Sprintf("%s: %d bytes of text (%s) exceed the %d-byte limit; not scanned", t.Path, len(t.Text), t.How, maxScanBytes)})
		return
	}
	secs, err := s.Detector.Scan(t.Path, t.Text, 1)
	if err != nil {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: t.Path + ": " + err.Error()})
		return
	}
	where := "in binary file, read as " + t.How
	if !t.Lines {
		where = "in binary file, found in its printable text; no line"
	}
	for _, sec := range secs {
		if old[t.Path+"\x00"+sec.RuleID+"\x00"+sec.LineText] {
			continue
		}
		if !t.Lines {
			sec.Line, sec.EndLine = 0, 0
		}
		s.reportAt(u, t.Path, where, sec, r)
	}
}

// oldBinaryLines returns the findings' lines in the old version of a modified binary file,
// keyed by path, rule and line text (nil when there is no old version or it cannot be read:
// then everything counts as new).
func (s *Scanner) oldBinaryLines(ctx context.Context, u *diff.Unit, f *diff.FileDiff) map[string]bool {
	if f.Status == diff.Added || !realOID(f.OldOID) || f.OldOID == f.NewOID {
		return nil
	}
	data, err := u.Blobs.ReadBlob(ctx, f.OldOID)
	if err != nil || len(data) > maxBinaryBytes {
		return nil
	}
	old := map[string]bool{}
	name := f.Path()
	for _, t := range extractText(name, data).Texts {
		if len(t.Text) > maxScanBytes {
			continue
		}
		secs, err := s.Detector.Scan(t.Path, t.Text, 1)
		if err != nil {
			continue
		}
		for _, sec := range secs {
			old[t.Path+"\x00"+sec.RuleID+"\x00"+sec.LineText] = true
		}
	}
	return old
}

// realOID reports a blob id that names content (not empty, not all zeros).
func realOID(oid string) bool {
	return strings.Trim(oid, "0") != ""
}
