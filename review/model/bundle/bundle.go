package bundle

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// The material a model sees: the change with new-file line numbers (a few lines of the file
// around each hunk), then context files found by deterministic expansion, then deletion-only
// hunks last. It is rendered as text, redacted, and parsed back, so anchoring looks at exactly
// what was sent.

// contextRadius is how many new-file lines around a hunk the material shows.
const contextRadius = 3

// Line is one new-file line of the material.
type Line struct {
	N     int    // new-file line number
	Added bool   // an added line of the change
	Text  string // the line as it is sent
}

// File is one file of the material.
type File struct {
	Path    string
	Role    string // change | context
	Lines   []Line
	Deleted []diff.Line // deletion-only hunks (old-file numbers)
	// Whole is the changed file at the reviewed version when Lines are windows cut from it
	// ("" when it could not be read): the outgoing filter decides on the whole text, so a
	// multi-line secret whose first line lies outside a window is still known and replaced.
	Whole string
}

// Material is what a model is sent about one unit, before redaction.
type Material struct {
	Files []File
	size  int
	Cut   bool // the change itself was cut (context.max_total_bytes): the model sees part of it
}

var (
	headerRE = lazyre.New(`^=== FILE (".*") role=(change|context) ===$`)
	lineRE   = lazyre.New(`^(\d+) ([+ ]) (.*)$`)
)

// Render writes the material; deletion-only hunks come last.
func (m Material) Render() string {
	var b strings.Builder
	for _, f := range m.Files {
		if len(f.Lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "=== FILE %s role=%s ===\n", strconv.Quote(f.Path), f.Role)
		for _, l := range f.Lines {
			mark := ' '
			if l.Added {
				mark = '+'
			}
			fmt.Fprintf(&b, "%d %c %s\n", l.N, mark, l.Text)
		}
	}
	for _, f := range m.Files {
		if len(f.Deleted) == 0 {
			continue
		}
		fmt.Fprintf(&b, "=== DELETED %s (old-file line numbers; these lines are removed) ===\n", strconv.Quote(f.Path))
		for _, l := range f.Deleted {
			fmt.Fprintf(&b, "%d - %s\n", l.Old, l.Text)
		}
	}
	return b.String()
}

// Parse reads rendered (and redacted) material back into new-file lines per path.
func Parse(text string) map[string][]Line {
	out := map[string][]Line{}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if m := headerRE.FindStringSubmatch(line); m != nil {
			p, err := strconv.Unquote(m[1])
			if err != nil {
				cur = ""
				continue
			}
			cur = p
			if _, ok := out[cur]; !ok {
				out[cur] = nil
			}
			continue
		}
		if strings.HasPrefix(line, "=== ") {
			cur = ""
			continue
		}
		if cur == "" {
			continue
		}
		if m := lineRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			out[cur] = append(out[cur], Line{N: n, Added: m[2] == "+", Text: m[3]})
		}
	}
	return out
}

// buildMaterial assembles the change and its context under the limits in cfg.Context; the
// strings are the limits that were reached.
func Build(ctx context.Context, u *diff.Unit, cfg policy.Config) (Material, []string) {
	var m Material
	var limits []string
	lim := cfg.Context
	for i := range u.Files {
		f := &u.Files[i]
		if f.Binary || f.Status == diff.ModeOnly {
			continue
		}
		mf := File{Path: f.Path(), Role: "change"}
		if f.Status == diff.Deleted {
			for _, h := range f.Hunks {
				mf.Deleted = append(mf.Deleted, deletedLines(h)...)
			}
		} else {
			var whole []string
			mf.Lines, mf.Deleted, whole = changeLines(ctx, u, f)
			if whole != nil {
				mf.Whole = strings.Join(whole, "\n") + "\n"
			}
		}
		m.Files = append(m.Files, mf)
		m.size += mf.bytes()
	}
	if lim.MaxTotalBytes > 0 && m.size > lim.MaxTotalBytes {
		limits = append(limits, fmt.Sprintf("context.max_total_bytes reached (%d): the change alone is %d bytes; the material was cut", lim.MaxTotalBytes, m.size))
		m.truncate(lim.MaxTotalBytes)
		m.Cut = true
		return m, limits
	}
	limits = append(limits, expand(ctx, u, cfg, &m)...)
	return m, limits
}

func deletedLines(h diff.Hunk) []diff.Line {
	var out []diff.Line
	for _, l := range h.Lines() {
		if l.Kind == diff.Del {
			out = append(out, l)
		}
	}
	return out
}

// changeLines returns the new-file lines around each hunk (added ones marked), the lines of
// deletion-only hunks, and the whole new file (nil when it cannot be read).
func changeLines(ctx context.Context, u *diff.Unit, f *diff.FileDiff) ([]Line, []diff.Line, []string) {
	whole := newFileLines(ctx, u, f)
	added := map[int]string{}
	var deleted []diff.Line
	show := map[int]bool{}
	for _, h := range f.Hunks {
		if hunkLines(h, added, show) == 0 {
			deleted = append(deleted, deletedLines(h)...)
		}
		if whole == nil {
			continue
		}
		from, to := h.NewStart-contextRadius, h.NewStart+h.NewLines+contextRadius-1
		if h.NewLines == 0 {
			from, to = h.NewStart-contextRadius+1, h.NewStart+contextRadius
		}
		for n := max(from, 1); n <= to && n <= len(whole); n++ {
			show[n] = true
		}
	}
	return shownLines(show, added, whole), deleted, whole
}

// newFileLines is the file at the reviewed version, line by line (nil when it cannot be read or
// is binary).
func newFileLines(ctx context.Context, u *diff.Unit, f *diff.FileDiff) []string {
	if u.Blobs == nil || f.NewOID == "" {
		return nil
	}
	data, err := u.Blobs.ReadBlob(ctx, f.NewOID)
	if err != nil || bytes.ContainsRune(data, 0) {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// hunkLines marks the hunk's added and context lines to show (added ones in added) and returns
// how many lines it adds.
func hunkLines(h diff.Hunk, added map[int]string, show map[int]bool) int {
	adds := 0
	for _, l := range h.Lines() {
		switch l.Kind {
		case diff.Add:
			added[l.New] = l.Text
			show[l.New] = true
			adds++
		case diff.Context:
			show[l.New] = true
		}
	}
	return adds
}

// shownLines renders the lines to show in order: added ones from the diff, the others from the
// whole file. When the whole file is known, nothing past its end is shown.
func shownLines(show map[int]bool, added map[int]string, whole []string) []Line {
	var out []Line
	last := maxKey(show)
	if whole != nil {
		last = len(whole)
	}
	for n := 1; n <= last; n++ {
		if !show[n] {
			continue
		}
		if t, ok := added[n]; ok {
			out = append(out, Line{N: n, Added: true, Text: t})
		} else if whole != nil && n <= len(whole) {
			out = append(out, Line{N: n, Text: whole[n-1]})
		}
	}
	return out
}

func maxKey(m map[int]bool) int {
	x := 0
	for k := range m {
		x = max(x, k)
	}
	return x
}

func (f File) bytes() int {
	n := len(f.Path) + 40
	for _, l := range f.Lines {
		n += len(l.Text) + 8
	}
	for _, l := range f.Deleted {
		n += len(l.Text) + 8
	}
	return n
}

// truncate drops lines from the end until the material fits. Deletion-only hunks render last,
// so they are the first to go, and they count against the limit like any other line.
func (m *Material) truncate(limit int) {
	size := 0
	cut := false
	for i := range m.Files {
		f := &m.Files[i]
		keep := 0
		s := size + len(f.Path) + 40 // the header counts once a line is kept
		for _, l := range f.Lines {
			if s+len(l.Text)+8 > limit {
				break
			}
			s += len(l.Text) + 8
			keep++
		}
		if keep > 0 {
			size = s
		}
		cut = cut || keep < len(f.Lines)
		f.Lines = f.Lines[:keep]
	}
	for i := range m.Files {
		f := &m.Files[i]
		keep := 0
		s := size
		if len(f.Lines) == 0 {
			s += len(f.Path) + 40
		}
		for _, l := range f.Deleted {
			if cut || s+len(l.Text)+8 > limit {
				cut = true
				break
			}
			s += len(l.Text) + 8
			keep++
		}
		if keep > 0 {
			size = s
		}
		f.Deleted = f.Deleted[:keep]
	}
	m.size = size
}
