package review

import (
	"bytes"
	"context"
	"github.com/tollgate-dev/tollgate/review/diff"
	"strings"
)

// Inline suppression, for every scanner's findings:
//
//	x := risky() // tollgate:allow                     every rule on this line
//	x := risky() // tollgate:allow=tollgate/some-rule  one rule (also: =some-rule)
//	// tollgate:allow-next-line[=rule]                 the line below
//
// A finding with origins (a query run on one line, built on another) is allowed by a marker on
// any of its lines.
//
// Every suppression is counted in the report. Prompt-injection findings are never suppressed
// inline (see Suppressed).

const allowMarker = "tollgate:allow"

// markerAllows reports whether text carries marker (optionally "=<rule>" naming one of ids).
// For the plain marker, "tollgate:allow-next-line" does not count.
func markerAllows(text, marker string, ids ...string) bool {
	for rest := text; ; {
		i := strings.Index(rest, marker)
		if i < 0 {
			return false
		}
		rest = rest[i+len(marker):]
		if marker == allowMarker && strings.HasPrefix(rest, "-next-line") {
			continue
		}
		if !strings.HasPrefix(rest, "=") {
			if rest == "" || !isIDChar(rest[0]) {
				return true
			}
			continue
		}
		want := rest[1:]
		if j := strings.IndexFunc(want, func(r rune) bool { return r > 127 || !isIDChar(byte(r)) }); j >= 0 {
			want = want[:j]
		}
		for _, id := range ids {
			if want == id {
				return true
			}
		}
	}
}

func isIDChar(c byte) bool {
	return c == '/' || c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Suppressor judges inline markers for one unit, as Run does (the model step's outgoing filter
// asks it too). It looks up new-file lines of the unit's files: added lines from the diff, other
// lines from the blob (read once per file, only when a finding needs its previous line).
type Suppressor struct {
	ctx   context.Context
	blobs diff.BlobReader
	files map[string]*diff.FileDiff
	// marked holds, per path, the added lines that carry a marker; other added lines are not
	// kept (a marker is all a line is looked up for).
	marked map[string]map[int]string
	whole  map[string][]string
}

// NewSuppressor returns the suppressor of u, reading blobs through blobs.
func NewSuppressor(ctx context.Context, blobs diff.BlobReader, u *diff.Unit) *Suppressor {
	s := &Suppressor{ctx: ctx, blobs: blobs, files: map[string]*diff.FileDiff{}, marked: map[string]map[int]string{}, whole: map[string][]string{}}
	for i := range u.Files {
		f := &u.Files[i]
		p := f.Path()
		s.files[p] = f
		m := map[int]string{}
		for l := range f.Added() {
			if strings.Contains(l.Text, allowMarker) {
				m[l.New] = l.Text
			}
		}
		s.marked[p] = m
	}
	return s
}

// line returns the text of new-file line n of path as far as markers go (an added line without
// a marker is ""), and whether it is known.
func (s *Suppressor) line(path string, n int) (string, bool) {
	if t, ok := s.marked[path][n]; ok {
		return t, true
	}
	if s.isAdded(path, n) {
		return "", true
	}
	lines, ok := s.whole[path]
	if !ok {
		f := s.files[path]
		if f != nil && s.blobs != nil && f.NewOID != "" && !f.Binary {
			if data, err := s.blobs.ReadBlob(s.ctx, f.NewOID); err == nil && !bytes.ContainsRune(data, 0) {
				lines = strings.Split(string(data), "\n")
			}
		}
		s.whole[path] = lines
	}
	if n >= 1 && n <= len(lines) {
		return lines[n-1], true
	}
	return "", false
}

// isAdded reports whether new-file line n of path is an added line of the diff. A hunk that
// holds as many lines as its header counts and no context line (git's -U0) adds every line of
// its new side; other hunks are walked.
func (s *Suppressor) isAdded(path string, n int) bool {
	f := s.files[path]
	if f == nil {
		return false
	}
	for i := range f.Hunks {
		h := &f.Hunks[i]
		if n < h.NewStart || n >= h.NewStart+h.NewLines {
			continue
		}
		if h.Len() == h.OldLines+h.NewLines {
			return true // a context line counts on both sides: the hunk has none
		}
		for _, l := range h.Lines() {
			if l.Kind == diff.Add && l.New == n {
				return true
			}
		}
	}
	return false
}

// Suppressed reports whether an inline marker allows f. A prompt-injection finding is never
// allowed inline: a marker in the text under review is exactly what injected text would carry
// to hide itself (even one naming the rule). Only the user's config (review.exclude) or a
// baseline drops one.
func (s *Suppressor) Suppressed(f *Finding) bool {
	if f.RuleID == InjectionRuleID {
		return false
	}
	ids := []string{f.RuleID}
	if i := strings.IndexByte(f.RuleID, '/'); i >= 0 {
		ids = append(ids, f.RuleID[i+1:])
	}
	for _, n := range append([]int{f.Line}, f.Origins...) {
		if s.allowsLine(f.Path, n, ids) {
			return true
		}
	}
	return false
}

// allowsLine reports whether line n of path carries a marker for one of ids, or the line above
// it one for the next line.
func (s *Suppressor) allowsLine(path string, n int, ids []string) bool {
	if t, ok := s.line(path, n); ok && markerAllows(t, allowMarker, ids...) {
		return true
	}
	if n > 1 {
		if t, ok := s.line(path, n-1); ok && markerAllows(t, allowMarker+"-next-line", ids...) {
			return true
		}
	}
	return false
}
