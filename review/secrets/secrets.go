package secrets

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// maxScanBytes bounds the added text of one file that the secrets scanner reads. A larger file
// is not scanned, and the review says so (incomplete), never clean.
const maxScanBytes = 16 << 20

// Scanner runs gitleaks' rules (through redact) over added lines.
type Scanner struct {
	Detector *redact.Detector
}

// Name implements Scanner.
func (s *Scanner) Name() string { return "secrets" }

// Scan implements Scanner.
func (s *Scanner) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	s.scanNames(ctx, u, r) // metadata and file paths (meta.go)
	return review.ForEachFile(ctx, u, r, func(f *diff.FileDiff, r *review.Result) {
		s.scanFile(ctx, u, f, r)
		switch {
		case f.Status == diff.Deleted:
		case f.Binary:
			s.scanBinary(ctx, u, f, r)
		default:
			s.scanCompressedText(ctx, u, f, r)
		}
	})
}

// scanFile scans one file's added lines. Once ctx ends it stops; the caller (review.ForEachFile)
// reports the file as not finished.
func (s *Scanner) scanFile(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *review.Result) {
	if f.Status == diff.Deleted {
		return
	}
	path := f.Path()
	if f.Status == diff.Added || f.Status == diff.Renamed || f.Status == diff.Copied {
		secs, err := s.Detector.ScanPath(path)
		if err != nil {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: err.Error()})
			return
		}
		for _, sec := range secs {
			s.report(u, f, sec, r)
		}
	}
	if f.Binary {
		return // scanBinary reads its content
	}
	if size, over := oversize(f); over {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets",
			Reason: fmt.Sprintf("%s: %d added bytes exceed the %d-byte limit; not scanned", path, size, maxScanBytes)})
		return
	}
	spent := 0 // bytes the file's base64 blobs of compressed data inflated to (embedded.go)
	for hi := range f.Hunks {
		for _, block := range addedBlocks(&f.Hunks[hi]) {
			secs, err := s.Detector.ScanContext(ctx, path, block.text, block.start)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: path + ": " + err.Error()})
				return
			}
			for _, sec := range secs {
				s.report(u, f, sec, r)
			}
			s.countAllowlisted(ctx, path, block.text, block.start, secs, r)
			s.scanSplit(ctx, u, f, block, secs, r)
			s.scanBlobs(u, path, block, &spent, r)
		}
	}
}

// scanSplit reports the secrets of a block that show only once its invisible characters are
// removed: a token split by a zero-width space or a word joiner breaks every rule's pattern but
// is still the token to whoever copies it. Line numbers are kept (no line break is invisible);
// the evidence is the line without its invisible characters, the secret masked.
func (s *Scanner) scanSplit(ctx context.Context, u *diff.Unit, f *diff.FileDiff, b block, found []redact.Secret, r *review.Result) {
	stripped := redact.StripInvisible(b.text)
	if stripped == b.text {
		return
	}
	secs, err := s.Detector.ScanContext(ctx, f.Path(), stripped, b.start)
	if err != nil {
		if ctx.Err() == nil {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: f.Path() + ": " + err.Error()})
		}
		return
	}
	for _, sec := range secs {
		if strings.Contains(b.text, sec.Value) || slices.ContainsFunc(found, func(o redact.Secret) bool { return o.Value == sec.Value }) {
			continue // found as it is written
		}
		s.report(u, f, sec, r)
	}
}

// countAllowlisted counts the secrets of text that the repository's .gitleaks.toml allowlists
// dropped (found is what the scan kept): every suppression is counted.
func (s *Scanner) countAllowlisted(ctx context.Context, path, text string, start int, found []redact.Secret, r *review.Result) {
	dropped, err := s.Detector.Allowlisted(ctx, path, text, start, found)
	if err != nil {
		return // counting only: the findings above stand
	}
	for _, sec := range dropped {
		r.Suppress(&review.Finding{RuleID: RulePrefix + sec.RuleID, Path: path, Line: sec.Line}, ".gitleaks.toml allowlist")
	}
}

// oversize reports whether the file's added lines, newlines included, exceed maxScanBytes, and
// then their size. Their size is walked line by line only when the hunks' bound exceeds it.
func oversize(f *diff.FileDiff) (int, bool) {
	bound := 0
	for hi := range f.Hunks {
		bound += f.Hunks[hi].AddedSizeBound()
	}
	if bound <= maxScanBytes {
		return 0, false
	}
	size := addedSize(f)
	return size, size > maxScanBytes
}

// addedSize is the size of the file's added lines, newlines included.
func addedSize(f *diff.FileDiff) int {
	size := 0
	for l := range f.Added() {
		size += len(l.Text) + 1
	}
	return size
}

func (s *Scanner) report(u *diff.Unit, f *diff.FileDiff, sec redact.Secret, r *review.Result) {
	s.reportAt(u, f.Path(), "", sec, r)
}

// reportAt reports sec at path; a non-empty where ("in binary file, ...") is added to the
// message, and a secret found in a binary's printable runs has no line (0).
func (s *Scanner) reportAt(u *diff.Unit, path, where string, sec redact.Secret, r *review.Result) {
	s.reportAtColumn(u, path, where, 0, sec, r)
}

// reportAtColumn is reportAt with the finding's column set to col (1-based) when it is not 0:
// a secret in text decoded from a blob is reported where the blob is.
func (s *Scanner) reportAtColumn(u *diff.Unit, path, where string, col int, sec redact.Secret, r *review.Result) {
	ruleID := RulePrefix + sec.RuleID
	// gitleaks' own inline marker; tollgate's markers are honoured for every scanner in review.Run.
	if !sec.PathOnly && strings.Contains(sec.LineText, "gitleaks:allow") {
		r.Suppress(&review.Finding{RuleID: ruleID, Path: path, Line: sec.Line}, "gitleaks:allow")
		return
	}
	if s.Detector.Ignored(u.Commit, path, sec.RuleID, sec.Line) {
		r.Suppress(&review.Finding{RuleID: ruleID, Path: path, Line: sec.Line}, ".gitleaksignore")
		return
	}
	sev := severity(sec.RuleID)
	line, end := sec.Line, sec.EndLine
	msg := sec.Description
	if why := calmReason(path, sec); why != "" && sev > policy.Low {
		sev, msg = policy.Low, msg+" ("+why+": lowered to low)"
	}
	if sec.PathOnly {
		line, end = 1, 1
	}
	if where != "" {
		msg += " (" + where + ")"
	}
	if end < line {
		end = line
	}
	msg += review.InCommit(u)
	fd := review.Finding{
		RuleID: ruleID, Severity: sev, Confidence: 1.0, CWE: cwe,
		Path: path, Line: line, EndLine: end, Message: msg, Evidence: "file name: " + path, Source: "secrets",
	}
	if !sec.PathOnly {
		fd = fd.LineEvidence(sec.LineText, max(sec.StartColumn-1, 0), sec.Value, sec.Match)
	}
	if col > 0 {
		fd.Column = col
	}
	r.Add(fd)
}

// block is a run of added lines numbered one after another from start, each ending in a newline
// (the detector's form: it would copy a text to add the last one), but a new file's text as it
// is.
type block struct {
	start int
	text  string
}

// addedBlocks splits a hunk's added lines into runs of consecutive new-file lines. A new file's
// text is one block, not copied; otherwise each block's text is built at its exact size.
func addedBlocks(h *diff.Hunk) []block {
	if t, ok := h.Text(); ok {
		if t == "" {
			return nil
		}
		return []block{{start: h.NewStart, text: t}}
	}
	var sizes []int
	var b strings.Builder
	var out []block
	for pass := range 2 {
		k, next := -1, -1 // the block open and the line number that continues it (-1: none)
		for _, l := range h.Lines() {
			if l.Kind != diff.Add {
				if l.Kind == diff.Context {
					next = -1
				}
				continue
			}
			if next < 0 || l.New != next {
				k++
				if pass == 0 {
					sizes = append(sizes, 0)
				} else {
					if k > 0 {
						out[k-1].text = b.String()
					}
					b = strings.Builder{}
					b.Grow(sizes[k])
					out = append(out, block{start: l.New})
				}
			}
			if pass == 0 {
				sizes[k] += len(l.Text) + 1
				next = l.New + 1
				continue
			}
			b.WriteString(l.Text)
			b.WriteByte('\n')
			next = l.New + 1
		}
	}
	if len(out) > 0 {
		out[len(out)-1].text = b.String()
	}
	return out
}
