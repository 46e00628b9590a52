package review

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// The material a model sees: the change with new-file line numbers (a few lines of the file
// around each hunk), then context files found by deterministic expansion, then deletion-only
// hunks last. It is rendered as text, redacted, and parsed back, so anchoring looks at exactly
// what was sent.

// contextRadius is how many new-file lines around a hunk the material shows.
const contextRadius = 3

type matLine struct {
	n     int
	added bool
	text  string
}

type matFile struct {
	path    string
	role    string // change | context
	lines   []matLine
	deleted []diff.Line // deletion-only hunks (old-file numbers)
}

type material struct {
	files []matFile
	size  int
	cut   bool // the change itself was cut (context.max_total_bytes): the model sees part of it
}

var (
	headerRE = lazyRegexp(`^=== FILE (".*") role=(change|context) ===$`)
	lineRE   = lazyRegexp(`^(\d+) ([+ ]) (.*)$`)
)

// render writes the material; deletion-only hunks come last.
func (m material) render() string {
	var b strings.Builder
	for _, f := range m.files {
		if len(f.lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "=== FILE %s role=%s ===\n", strconv.Quote(f.path), f.role)
		for _, l := range f.lines {
			mark := ' '
			if l.added {
				mark = '+'
			}
			fmt.Fprintf(&b, "%d %c %s\n", l.n, mark, l.text)
		}
	}
	for _, f := range m.files {
		if len(f.deleted) == 0 {
			continue
		}
		fmt.Fprintf(&b, "=== DELETED %s (old-file line numbers; these lines are removed) ===\n", strconv.Quote(f.path))
		for _, l := range f.deleted {
			fmt.Fprintf(&b, "%d - %s\n", l.Old, l.Text)
		}
	}
	return b.String()
}

// parseMaterial reads rendered (and redacted) material back into new-file lines per path.
func parseMaterial(text string) map[string][]matLine {
	out := map[string][]matLine{}
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
			out[cur] = append(out[cur], matLine{n: n, added: m[2] == "+", text: m[3]})
		}
	}
	return out
}

// buildMaterial assembles the change and its context under the limits in cfg.Context; the
// strings are the limits that were reached.
func buildMaterial(ctx context.Context, u *diff.Unit, cfg policy.Config) (material, []string) {
	var m material
	var limits []string
	lim := cfg.Context
	for i := range u.Files {
		f := &u.Files[i]
		if f.Binary || f.Status == diff.ModeOnly {
			continue
		}
		mf := matFile{path: f.Path(), role: "change"}
		if f.Status == diff.Deleted {
			for _, h := range f.Hunks {
				mf.deleted = append(mf.deleted, deletedLines(h)...)
			}
		} else {
			mf.lines, mf.deleted = changeLines(ctx, u, f)
		}
		m.files = append(m.files, mf)
		m.size += mf.bytes()
	}
	if lim.MaxTotalBytes > 0 && m.size > lim.MaxTotalBytes {
		limits = append(limits, fmt.Sprintf("context.max_total_bytes reached (%d): the change alone is %d bytes; the material was cut", lim.MaxTotalBytes, m.size))
		m.truncate(lim.MaxTotalBytes)
		m.cut = true
		return m, limits
	}
	limits = append(limits, expand(ctx, u, cfg, &m)...)
	return m, limits
}

func deletedLines(h diff.Hunk) []diff.Line {
	var out []diff.Line
	for _, l := range h.Lines {
		if l.Kind == diff.Del {
			out = append(out, l)
		}
	}
	return out
}

// changeLines returns the new-file lines around each hunk (added ones marked) and the lines of
// deletion-only hunks.
func changeLines(ctx context.Context, u *diff.Unit, f *diff.FileDiff) ([]matLine, []diff.Line) {
	var whole []string
	if u.Blobs != nil && f.NewOID != "" {
		if data, err := u.Blobs.ReadBlob(ctx, f.NewOID); err == nil && !bytes.ContainsRune(data, 0) {
			whole = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		}
	}
	added := map[int]string{}
	var deleted []diff.Line
	show := map[int]bool{}
	for _, h := range f.Hunks {
		adds := 0
		for _, l := range h.Lines {
			switch l.Kind {
			case diff.Add:
				added[l.New] = l.Text
				show[l.New] = true
				adds++
			case diff.Context:
				show[l.New] = true
			}
		}
		if adds == 0 {
			deleted = append(deleted, deletedLines(h)...)
		}
		from, to := h.NewStart-contextRadius, h.NewStart+h.NewLines+contextRadius-1
		if h.NewLines == 0 {
			from, to = h.NewStart-contextRadius+1, h.NewStart+contextRadius
		}
		for n := max(from, 1); n <= to && whole != nil && n <= len(whole); n++ {
			show[n] = true
		}
	}
	var out []matLine
	last := 0
	for n := 1; ; n++ {
		if whole != nil && n > len(whole) && n > last {
			break
		}
		if whole == nil && n > maxKey(show) {
			break
		}
		if !show[n] {
			continue
		}
		last = n
		if t, ok := added[n]; ok {
			out = append(out, matLine{n: n, added: true, text: t})
		} else if whole != nil && n <= len(whole) {
			out = append(out, matLine{n: n, text: whole[n-1]})
		}
	}
	return out, deleted
}

func maxKey(m map[int]bool) int {
	x := 0
	for k := range m {
		x = max(x, k)
	}
	return x
}

func (f matFile) bytes() int {
	n := len(f.path) + 40
	for _, l := range f.lines {
		n += len(l.text) + 8
	}
	for _, l := range f.deleted {
		n += len(l.Text) + 8
	}
	return n
}

// truncate drops lines from the end until the material fits. Deletion-only hunks render last,
// so they are the first to go, and they count against the limit like any other line.
func (m *material) truncate(limit int) {
	size := 0
	cut := false
	for i := range m.files {
		f := &m.files[i]
		keep := 0
		s := size + len(f.path) + 40 // the header counts once a line is kept
		for _, l := range f.lines {
			if s+len(l.text)+8 > limit {
				break
			}
			s += len(l.text) + 8
			keep++
		}
		if keep > 0 {
			size = s
		}
		cut = cut || keep < len(f.lines)
		f.lines = f.lines[:keep]
	}
	for i := range m.files {
		f := &m.files[i]
		keep := 0
		s := size
		if len(f.lines) == 0 {
			s += len(f.path) + 40
		}
		for _, l := range f.deleted {
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
		f.deleted = f.deleted[:keep]
	}
	m.size = size
}
