package diff

import (
	"errors"
	"fmt"
	"iter"
	"strings"
)

// CombinedFile is one file of git's combined diff of a merge (`git diff-tree -c` or `--cc`):
// the merge's result against every parent at once.
type CombinedFile struct {
	Path   string // the header's path, unquoted
	Binary bool   // "Binary files differ": no hunks
	Hunks  []CombinedHunk
}

// CombinedHunk is one "@@@ -a,b -c,d +e,f @@@" hunk (one '@' more than there are parents on
// each side): the start and count of its lines in each parent and in the result. A start is
// the number of the hunk's first line, or of the line that would come next.
type CombinedHunk struct {
	OldStart, OldLines []int // one per parent
	NewStart, NewLines int
	parents            int
	body               string // the lines, each one marker per parent, its text and a newline
}

// CombinedLine is one line of a combined hunk.
type CombinedLine struct {
	// Marks holds one marker per parent: '+' the line is added against that parent, '-' it is
	// removed from that parent, ' ' that parent has it as the result does.
	Marks string
	New   int // the result's line number; 0 for a line removed from parents (in no result)
	Text  string
}

// Lines walks the hunk's lines in git's order: the lines removed from parents before the
// result line they precede.
func (h *CombinedHunk) Lines() iter.Seq[CombinedLine] {
	return func(yield func(CombinedLine) bool) {
		s, n := h.body, h.NewStart
		for s != "" {
			raw, rest, _ := strings.Cut(s, "\n")
			s = rest
			l := CombinedLine{Marks: raw[:h.parents], Text: raw[h.parents:]}
			if !strings.Contains(l.Marks, "-") {
				l.New = n
				n++
			}
			if !yield(l) {
				return
			}
		}
	}
}

// ParseCombined parses git's combined diff of one merge with the given number of parents
// (the patch of `git diff-tree -c -p` or `--cc -p`, without the commit line and the raw
// listing). Hunk bodies are read by the counts in their headers, which git writes exactly
// when there is at least one line of context (-U1 and up); at -U0 git leaves out the unchanged
// lines that only carry removed lines, and the counts and numbers after them are off (or
// negative): such output is refused where its counts do not add up.
func ParseCombined(data []byte, parents int) ([]CombinedFile, error) {
	if parents < 2 {
		return nil, fmt.Errorf("failed to parse combined diff: %d parents", parents)
	}
	p := &diffParser{s: string(data)}
	var out []CombinedFile
	for {
		line, ok := p.next()
		if !ok {
			return out, nil
		}
		path, ok := combinedHeader(line)
		if !ok {
			return nil, fmt.Errorf("failed to parse combined diff: unexpected line %q", truncate(line, 60))
		}
		f, err := p.combinedFile(path, parents)
		if err != nil {
			return nil, fmt.Errorf("failed to parse combined diff of %q: %w", path, err)
		}
		out = append(out, f)
	}
}

// combinedHeader returns the path of a "diff --cc <path>" or "diff --combined <path>" line.
func combinedHeader(line string) (string, bool) {
	for _, prefix := range []string{"diff --cc ", "diff --combined "} {
		if rest, ok := strings.CutPrefix(line, prefix); ok && rest != "" {
			return unquote(rest), true
		}
	}
	return "", false
}

// combinedFile reads one file's extended header lines and hunks, up to the next file.
func (p *diffParser) combinedFile(path string, parents int) (CombinedFile, error) {
	f := CombinedFile{Path: path}
	at := strings.Repeat("@", parents+1)
	for {
		line, ok := p.peek()
		if !ok {
			return f, nil
		}
		if _, next := combinedHeader(line); next {
			return f, nil
		}
		p.next()
		switch {
		case strings.HasPrefix(line, at+" "):
			h, err := p.combinedHunk(line, at, parents)
			if err != nil {
				return f, err
			}
			f.Hunks = append(f.Hunks, h)
		case len(f.Hunks) > 0 || strings.HasPrefix(line, "@"):
			return f, fmt.Errorf("unexpected line %q", truncate(line, 60))
		case line == "Binary files differ":
			f.Binary = true
		}
		// Other lines before the first hunk are extended headers (index, mode, new file,
		// deleted file, ---/+++): the names and modes come from the raw listing.
	}
}

// combinedHunk reads one hunk: its header and exactly the lines it counts.
func (p *diffParser) combinedHunk(header, at string, parents int) (CombinedHunk, error) {
	h, err := parseCombinedHeader(header, at, parents)
	if err != nil {
		return h, err
	}
	start := p.pos
	olds := make([]int, parents)
	news := 0
	for news < h.NewLines || !equalInts(olds, h.OldLines) {
		line, ok := p.next()
		if !ok {
			return h, fmt.Errorf("hunk %q ends early", truncate(header, 60))
		}
		removed, ok := combinedMarks(line, parents)
		if !ok {
			return h, fmt.Errorf("bad hunk line %q in hunk %q", truncate(line, 40), truncate(header, 60))
		}
		for i := range parents {
			if (removed && line[i] == '-') || (!removed && line[i] == ' ') {
				olds[i]++
			}
		}
		if !removed {
			news++
		}
		if news > h.NewLines || !within(olds, h.OldLines) {
			return h, fmt.Errorf("hunk %q holds more lines than it counts", truncate(header, 60))
		}
	}
	h.body = p.s[start:min(p.pos, len(p.s))]
	return h, nil
}

// combinedMarks checks a hunk line's markers: removed reports a line removed from parents
// (markers ' ' and '-'), otherwise it is a result line (markers ' ' and '+').
func combinedMarks(line string, parents int) (removed, ok bool) {
	if len(line) < parents {
		return false, false
	}
	marks := line[:parents]
	if strings.Trim(marks, " +-") != "" {
		return false, false
	}
	plus, minus := strings.Contains(marks, "+"), strings.Contains(marks, "-")
	return minus, !(plus && minus)
}

// parseCombinedHeader parses "@@@ -a,b -c,d +e,f @@@ section" for parents parents.
func parseCombinedHeader(line, at string, parents int) (CombinedHunk, error) {
	bad := func(why error) (CombinedHunk, error) {
		return CombinedHunk{}, fmt.Errorf("bad hunk header %q: %w", truncate(line, 60), why)
	}
	ranges, _, ok := strings.Cut(strings.TrimPrefix(line, at+" "), " "+at)
	if !ok {
		return bad(errors.New("no closing " + at))
	}
	fields := strings.Fields(ranges)
	if len(fields) != parents+1 {
		return bad(fmt.Errorf("%d ranges, want %d", len(fields), parents+1))
	}
	starts := make([]int, 2*parents) // one allocation for both: a merge's history has thousands
	h := CombinedHunk{OldStart: starts[:parents:parents], OldLines: starts[parents:], parents: parents}
	for i, f := range fields {
		sign := byte('-')
		if i == parents {
			sign = '+'
		}
		if f[0] != sign {
			return bad(fmt.Errorf("range %q does not start with %q", f, sign))
		}
		start, n, err := parseRange(f[1:])
		if err != nil {
			return bad(err)
		}
		if i == parents {
			h.NewStart, h.NewLines = start, n
		} else {
			h.OldStart[i], h.OldLines[i] = start, n
		}
	}
	return h, nil
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// within reports that no count of a is above b's.
func within(a, b []int) bool {
	for i := range a {
		if a[i] > b[i] {
			return false
		}
	}
	return true
}

// Against returns the diff of the result against parent n as git's unified diff without
// context (-U0) gives it: each hunk the lines removed from that parent, then the lines added
// against it. everyParent holds the new line numbers of the lines added against every parent
// (what a merge adds of its own). The hunks are whole only when the combined diff shows every
// line that differs from parent n (`-c`; `--cc` leaves out hunks where the result takes one
// parent's version).
func (f *CombinedFile) Against(n int) (hunks []Hunk, everyParent map[int]bool) {
	everyParent = map[int]bool{}
	all := ""
	for i := range f.Hunks {
		h := &f.Hunks[i]
		if all == "" {
			all = strings.Repeat("+", h.parents)
		}
		var cur unifiedHunk
		oldN, newN := h.OldStart[n], h.NewStart
		for l := range h.Lines() {
			switch {
			case l.New == 0 && l.Marks[n] == '-':
				cur.del(Line{Kind: Del, Old: oldN, Text: l.Text}, oldN)
				oldN++
			case l.New == 0:
				// removed from other parents only
			case l.Marks[n] == '+':
				cur.add(Line{Kind: Add, New: newN, Text: l.Text}, oldN)
				if l.Marks == all {
					everyParent[newN] = true
				}
				newN++
			default: // parent n has this line: it ends a change
				hunks = cur.close(hunks, newN)
				oldN++
				newN++
			}
		}
		hunks = cur.close(hunks, newN)
	}
	return hunks, everyParent
}

// unifiedHunk collects one change against one parent.
type unifiedHunk struct {
	open       bool
	oldStart   int
	dels, adds int
	firstNew   int
	lines      []Line
}

func (u *unifiedHunk) start(oldN int) {
	if !u.open {
		*u = unifiedHunk{open: true, oldStart: oldN}
	}
}

func (u *unifiedHunk) del(l Line, oldN int) {
	u.start(oldN)
	u.dels++
	u.lines = append(u.lines, l)
}

func (u *unifiedHunk) add(l Line, oldN int) {
	u.start(oldN)
	if u.adds == 0 {
		u.firstNew = l.New
	}
	u.adds++
	u.lines = append(u.lines, l)
}

// close appends the open change, if any, as git numbers a -U0 hunk: an empty side starts at
// the line before the change (newN is the result's next line).
func (u *unifiedHunk) close(hunks []Hunk, newN int) []Hunk {
	if !u.open {
		return hunks
	}
	oldStart, newStart := u.oldStart, u.firstNew
	if u.dels == 0 {
		oldStart--
	}
	if u.adds == 0 {
		newStart = newN - 1
	}
	hunks = append(hunks, NewHunk(oldStart, u.dels, newStart, u.adds, u.lines...))
	*u = unifiedHunk{}
	return hunks
}

// LastNew is the number of the last result line the combined diff shows (0: none). With
// context, a changed line that is not the result's last is followed by one the diff shows.
func (f *CombinedFile) LastNew() int {
	last := 0
	for i := range f.Hunks {
		for l := range f.Hunks[i].Lines() {
			if l.New > 0 {
				last = l.New
			}
		}
	}
	return last
}
