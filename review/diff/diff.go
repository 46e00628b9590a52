package diff

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Status is what a diff does to a file.
type Status string

// File statuses.
const (
	Added    Status = "added"
	Deleted  Status = "deleted"
	Modified Status = "modified"
	Renamed  Status = "renamed"
	Copied   Status = "copied"
	ModeOnly Status = "mode-only"
)

// LineKind tells context, added and deleted lines apart.
type LineKind byte

// Line kinds, as in unified diffs.
const (
	Context LineKind = ' '
	Add     LineKind = '+'
	Del     LineKind = '-'
)

// FileDiff is one file's change.
type FileDiff struct {
	OldPath, NewPath string // "" for the missing side of an added or deleted file
	Status           Status
	OldMode, NewMode string
	OldOID, NewOID   string // blob ids, when the diff came from git (all zeros: none)
	Binary           bool
	Hunks            []Hunk
	// Meta is the kind of git metadata (MetaMessage, ...) a Unit.Meta entry holds; "" for a file.
	Meta string
}

// Path is the path findings are reported at: the new path, or the old one for a deletion.
func (f *FileDiff) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Added walks the added lines in new-file order.
func (f *FileDiff) Added() iter.Seq[Line] {
	return func(yield func(Line) bool) {
		for hi := range f.Hunks {
			for _, l := range f.Hunks[hi].Lines() {
				if l.Kind == Add && !yield(l) {
					return
				}
			}
		}
	}
}

// AddedCount is the number of added lines.
func (f *FileDiff) AddedCount() int {
	n := 0
	for range f.Added() {
		n++
	}
	return n
}

// ParseDiff parses a git unified diff (as produced with --no-prefix off, i.e. a/ and b/
// prefixes, and no colour) into FileDiffs. Paths from the headers are best effort; callers
// that know the exact names (from -z output) overwrite them.
//
// Hunk bodies are read by the counts in their headers, as git writes them, so a removed line
// "-- a" followed by an added "++ b" ("--- a" / "+++ b" in the patch) is body, never a file
// header. Each hunk keeps its body as one substring of the input and no per-line values:
// line texts share that one copy, and parsing allocates little beyond the FileDiffs.
func ParseDiff(data []byte) ([]FileDiff, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	// git's colour codes open a line; an escape byte inside a line's text is content (a file may
	// hold terminal codes) and must be reviewed, not refused.
	if bytes.HasPrefix(data, []byte("\x1b[")) || bytes.Contains(data, []byte("\n\x1b[")) {
		return nil, errors.New("failed to parse diff: it contains terminal colour codes")
	}
	p := &diffParser{s: string(data)}
	out, err := p.files()
	if err != nil {
		return nil, fmt.Errorf("failed to parse diff: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("failed to parse diff: no file header found in non-empty input")
	}
	return out, nil
}

// diffParser reads a diff line by line; lines are substrings of s, without the newline.
type diffParser struct {
	s   string
	pos int
}

// peek returns the next line without consuming it.
func (p *diffParser) peek() (string, bool) {
	if p.pos >= len(p.s) {
		return "", false
	}
	rest := p.s[p.pos:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		return rest[:i], true
	}
	return rest, true
}

// peek2 returns the line after the next one.
func (p *diffParser) peek2() (string, bool) {
	rest := p.s[p.pos:]
	i := strings.IndexByte(rest, '\n')
	if i < 0 {
		return "", false
	}
	save := p.pos
	p.pos += i + 1
	l, ok := p.peek()
	p.pos = save
	return l, ok
}

func (p *diffParser) next() (string, bool) {
	l, ok := p.peek()
	if ok {
		p.pos += len(l) + 1
	}
	return l, ok
}

// fileHeaderPair reports that the next two lines are a "--- " / "+++ " pair.
func (p *diffParser) fileHeaderPair() bool {
	l, _ := p.peek()
	if !strings.HasPrefix(l, "--- ") {
		return false
	}
	l2, ok := p.peek2()
	return ok && strings.HasPrefix(l2, "+++ ")
}

func (p *diffParser) files() ([]FileDiff, error) {
	var out []FileDiff
	for {
		line, ok := p.peek()
		if !ok {
			return out, nil
		}
		var ext []string
		switch {
		case strings.HasPrefix(line, "diff --git "):
			p.next()
			ext = append(ext, line)
		case p.fileHeaderPair():
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "* Unmerged path "):
			// git notes a conflicted path that has no patch between the files.
			p.next()
			continue
		default:
			return nil, fmt.Errorf("unexpected line %q outside a file", truncate(line, 40))
		}
		f, err := p.file(ext)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
}

// file reads one file's extended header, its ---/+++ names and its hunks.
func (p *diffParser) file(ext []string) (FileDiff, error) {
	var oldName, newName string
	for {
		line, ok := p.peek()
		if !ok || strings.HasPrefix(line, "diff --git ") {
			return convert(ext, oldName, newName, nil)
		}
		if p.fileHeaderPair() {
			l1, _ := p.next()
			l2, _ := p.next()
			oldName, newName = headerName(l1[4:]), headerName(l2[4:])
			break
		}
		if strings.HasPrefix(line, "@@ ") {
			break
		}
		p.next()
		ext = append(ext, line)
		if line == "GIT binary patch" {
			// The encoded patch runs to the next file.
			for l, ok := p.peek(); ok && !strings.HasPrefix(l, "diff --git "); l, ok = p.peek() {
				p.next()
			}
			return convert(ext, oldName, newName, nil)
		}
	}
	var hunks []Hunk
	for {
		line, ok := p.peek()
		if !ok || !strings.HasPrefix(line, "@@") {
			break
		}
		p.next()
		h, err := p.hunk(line)
		if err != nil {
			path := strings.TrimPrefix(newName, "b/")
			if path == "" || newName == "/dev/null" {
				path = strings.TrimPrefix(oldName, "a/")
			}
			return FileDiff{}, fmt.Errorf("diff of %q: %w", path, err)
		}
		hunks = append(hunks, h)
	}
	return convert(ext, oldName, newName, hunks)
}

// headerName is the name on a ---/+++ line: unquoted, without a trailing tab and timestamp.
func headerName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if v, _, ok := readQuoted(s); ok {
			return v
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return s
}

// maxHunkCount bounds a hunk header's counts and starts (git's own limit is below it).
const maxHunkCount = 1 << 31

// parseRange parses "a" or "a,b" of a hunk header.
func parseRange(s string) (start, n int, err error) {
	a, b, hasN := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 || start >= maxHunkCount {
		return 0, 0, fmt.Errorf("bad number %q", a)
	}
	n = 1
	if hasN {
		if n, err = strconv.Atoi(b); err != nil || n < 0 || n >= maxHunkCount {
			return 0, 0, fmt.Errorf("bad number %q", b)
		}
	}
	return start, n, nil
}

// parseHunkHeader parses "@@ -a,b +c,d @@ section".
func parseHunkHeader(line string) (Hunk, error) {
	bad := func(why error) (Hunk, error) {
		return Hunk{}, fmt.Errorf("bad hunk header %q: %w", truncate(line, 60), why)
	}
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return bad(errors.New("does not start with \"@@ -\""))
	}
	ranges, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return bad(errors.New("no closing @@"))
	}
	oldR, newR, ok := strings.Cut(ranges, " +")
	if !ok {
		return bad(errors.New("no new range"))
	}
	var hk Hunk
	var err error
	if hk.OldStart, hk.OldLines, err = parseRange(oldR); err != nil {
		return bad(err)
	}
	if hk.NewStart, hk.NewLines, err = parseRange(newR); err != nil {
		return bad(err)
	}
	if (hk.OldLines > 0 && hk.OldStart < 1) || (hk.NewLines > 0 && hk.NewStart < 1) {
		return bad(errors.New("lines counted from line 0"))
	}
	return hk, nil
}

// hunk reads one hunk body: exactly the lines its header counts, then a possible
// "\ No newline at end of file" marker. The hunk keeps its body as a substring of the input.
func (p *diffParser) hunk(header string) (Hunk, error) {
	hk, err := parseHunkHeader(header)
	if err != nil {
		return Hunk{}, err
	}
	start := p.pos
	c := hunkCounter{oldN: hk.OldStart, newN: hk.NewStart}
	for {
		raw, ok := p.peek()
		if !ok {
			break
		}
		if len(raw) > 0 && raw[0] == '\\' {
			p.next()
			c.marker(&hk)
			continue
		}
		if c.complete(&hk) && (len(raw) == 0 || !strings.ContainsRune(" +-", rune(raw[0])) || p.fileHeaderPair()) {
			// A complete hunk is followed by another hunk, another file or the end; further
			// body lines mean the header undercounts (a plain diff's next ---/+++ aside).
			break
		}
		more, err := c.line(raw)
		if err != nil {
			return Hunk{}, err
		}
		if !more {
			break // a short hunk: the count check below says by how much
		}
		p.next()
	}
	if added, removed := c.newN-hk.NewStart, c.oldN-hk.OldStart; added != hk.NewLines || removed != hk.OldLines {
		return Hunk{}, fmt.Errorf("hunk @@ -%d,%d +%d,%d @@ has %d old and %d new lines",
			hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines, removed, added)
	}
	hk.body, hk.n = p.s[start:min(p.pos, len(p.s))], c.lines
	return hk, nil
}

// hunkCounter counts a hunk's lines while the parser reads them.
type hunkCounter struct {
	oldN, newN, lines int
	last              LineKind
}

// complete reports that the hunk holds as many lines as its header counts.
func (c *hunkCounter) complete(hk *Hunk) bool {
	return c.oldN-hk.OldStart >= hk.OldLines && c.newN-hk.NewStart >= hk.NewLines
}

// marker notes a "\ No newline at end of file" line after the last line read.
func (c *hunkCounter) marker(hk *Hunk) {
	if c.last == Add || c.last == Context {
		hk.NoNewlineAtEnd = true
	}
}

// line counts one body line; more is false at a line that ends a short hunk.
func (c *hunkCounter) line(raw string) (more bool, err error) {
	if len(raw) == 0 {
		raw = " " // an empty context line whose leading space was lost
	}
	kind := LineKind(raw[0])
	switch kind {
	case Context:
		c.oldN++
		c.newN++
	case Add:
		c.newN++
	case Del:
		c.oldN++
	default:
		if !strings.HasPrefix(raw, "@@") && !strings.HasPrefix(raw, "diff --git ") {
			return false, fmt.Errorf("bad hunk line %q", truncate(raw, 40))
		}
		return false, nil
	}
	c.lines++
	c.last = kind
	return true, nil
}

func stripPrefix(name, prefix string) string {
	if name == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(name, prefix)
}

// convert builds a FileDiff from a file's extended header lines (the "diff --git" line
// included), its ---/+++ names and its hunks.
func convert(ext []string, oldName, newName string, hunks []Hunk) (FileDiff, error) {
	f := FileDiff{
		OldPath: stripPrefix(oldName, "a/"),
		NewPath: stripPrefix(newName, "b/"),
		Status:  Modified,
		Hunks:   hunks,
	}
	var gitOld, gitNew string
	for _, x := range ext {
		if rest, ok := strings.CutPrefix(x, "diff --git "); ok {
			gitOld, gitNew = splitGitHeader(rest)
			continue
		}
		f.extLine(x)
	}
	f.fillPaths(gitOld, gitNew)
	if !f.Binary && f.Status != Deleted && binaryByContent(hunks) {
		f.Binary, f.Hunks = true, nil // binary by content (binary.go): git's NUL test passed
	}
	if f.Status == Modified && len(hunks) == 0 && !f.Binary && f.OldMode != f.NewMode && f.NewMode != "" {
		f.Status = ModeOnly
	}
	return f, nil
}

// extLine applies one extended header line (other than "diff --git") to f.
func (f *FileDiff) extLine(x string) {
	if v, ok := strings.CutPrefix(x, "new file mode "); ok {
		f.Status, f.NewMode = Added, v
	} else if v, ok := strings.CutPrefix(x, "deleted file mode "); ok {
		f.Status, f.OldMode = Deleted, v
	} else if v, ok := strings.CutPrefix(x, "old mode "); ok {
		f.OldMode = v
	} else if v, ok := strings.CutPrefix(x, "new mode "); ok {
		f.NewMode = v
	} else if strings.HasPrefix(x, "Binary files ") || x == "GIT binary patch" {
		f.Binary = true
	} else {
		f.movedPath(x)
	}
}

// movedPath applies a rename or copy header line to f.
func (f *FileDiff) movedPath(x string) {
	for _, m := range []struct {
		prefix string
		status Status
		old    bool
	}{
		{"rename from ", Renamed, true}, {"rename to ", Renamed, false},
		{"copy from ", Copied, true}, {"copy to ", Copied, false},
	} {
		if v, ok := strings.CutPrefix(x, m.prefix); ok {
			f.Status = m.status
			if m.old {
				f.OldPath = unquote(v)
			} else {
				f.NewPath = unquote(v)
			}
			return
		}
	}
}

// fillPaths completes the paths from the "diff --git" line's names where the headers gave none,
// and clears the missing side of an added or deleted file.
func (f *FileDiff) fillPaths(gitOld, gitNew string) {
	switch f.Status {
	case Added:
		f.OldPath = ""
	case Deleted:
		f.NewPath = ""
	}
	if f.OldPath == "" && f.Status != Added {
		f.OldPath = gitOld
	}
	if f.NewPath == "" && f.Status != Deleted {
		f.NewPath = gitNew
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// splitGitHeader splits the arguments of a "diff --git" line ("a/x b/x", possibly quoted).
func splitGitHeader(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		old, rest, ok := readQuoted(s)
		if !ok {
			return "", ""
		}
		rest = strings.TrimPrefix(rest, " ")
		nw := rest
		if strings.HasPrefix(rest, `"`) {
			nw, _, _ = readQuoted(rest)
		}
		return strings.TrimPrefix(old, "a/"), strings.TrimPrefix(nw, "b/")
	}
	// Unquoted: both halves are equal for a non-rename, so split in the middle at " b/".
	if n := len(s); n%2 == 1 {
		if mid := n / 2; s[mid] == ' ' && strings.TrimPrefix(s[:mid], "a/") == strings.TrimPrefix(s[mid+1:], "b/") {
			return strings.TrimPrefix(s[:mid], "a/"), strings.TrimPrefix(s[mid+1:], "b/")
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return strings.TrimPrefix(s[:i], "a/"), s[i+3:]
	}
	return "", ""
}

// unquote undoes git's C-style quoting of a path, if it is quoted.
func unquote(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	v, _, ok := readQuoted(s)
	if !ok {
		return s
	}
	return v
}

// readQuoted reads one C-quoted string at the start of s, returning it and the rest.
func readQuoted(s string) (string, string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			n, ok := unescape(s, i+1, &b)
			if !ok {
				return "", s, false
			}
			i = n
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

// cEscapes are the one-letter C escapes git writes in a quoted path.
var cEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f', 'v': '\v'}

// unescape writes the escape whose letter is at s[i] (after a backslash) to b and returns the
// index of its last byte.
func unescape(s string, i int, b *strings.Builder) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	e := s[i]
	if c, ok := cEscapes[e]; ok {
		b.WriteByte(c)
		return i, true
	}
	if e < '0' || e > '3' {
		b.WriteByte(e)
		return i, true
	}
	if i+2 >= len(s) {
		return 0, false
	}
	v := 0
	for k := 0; k < 3; k++ {
		d := s[i+k]
		if d < '0' || d > '7' {
			return 0, false
		}
		v = v*8 + int(d-'0')
	}
	b.WriteByte(byte(v))
	return i + 2, true
}
