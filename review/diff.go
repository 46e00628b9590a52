package review

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	godiff "github.com/sourcegraph/go-diff/diff"
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

// Line is one diff line. Old is 0 for added lines, New is 0 for deleted lines.
type Line struct {
	Kind LineKind
	Old  int
	New  int
	Text string // without the prefix and the newline
}

// Hunk is one hunk with numbered lines.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
	// NoNewlineAtEnd reports that the new side's last line has no final newline.
	NoNewlineAtEnd bool
}

// FileDiff is one file's change.
type FileDiff struct {
	OldPath, NewPath string // "" for the missing side of an added or deleted file
	Status           Status
	OldMode, NewMode string
	OldOID, NewOID   string // blob ids, when the diff came from git (all zeros: none)
	Binary           bool
	Hunks            []Hunk
}

// Path is the path findings are reported at: the new path, or the old one for a deletion.
func (f *FileDiff) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// AddedLines returns the added lines in new-file order.
func (f *FileDiff) AddedLines() []Line {
	var out []Line
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == Add {
				out = append(out, l)
			}
		}
	}
	return out
}

// ParseDiff parses a git unified diff (as produced with --no-prefix off, i.e. a/ and b/
// prefixes, and no colour) into FileDiffs. Paths from the headers are best effort; callers
// that know the exact names (from -z output) overwrite them.
func ParseDiff(data []byte) ([]FileDiff, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	// git's colour codes open a line; an escape byte inside a line's text is content (a file may
	// hold terminal codes) and must be reviewed, not refused.
	if bytes.HasPrefix(data, []byte("\x1b[")) || bytes.Contains(data, []byte("\n\x1b[")) {
		return nil, errors.New("failed to parse diff: it contains terminal colour codes")
	}
	fds, err := godiff.ParseMultiFileDiff(data)
	if err != nil {
		return nil, fmt.Errorf("failed to parse diff: %w", err)
	}
	if len(fds) == 0 {
		return nil, errors.New("failed to parse diff: no file header found in non-empty input")
	}
	out := make([]FileDiff, 0, len(fds))
	for _, fd := range fds {
		f, err := convert(fd)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func stripPrefix(name, prefix string) string {
	if name == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(name, prefix)
}

func convert(fd *godiff.FileDiff) (FileDiff, error) {
	f := FileDiff{
		OldPath: stripPrefix(fd.OrigName, "a/"),
		NewPath: stripPrefix(fd.NewName, "b/"),
		Status:  Modified,
	}
	var gitOld, gitNew string
	for _, x := range fd.Extended {
		switch {
		case strings.HasPrefix(x, "diff --git "):
			gitOld, gitNew = splitGitHeader(strings.TrimPrefix(x, "diff --git "))
		case strings.HasPrefix(x, "new file mode "):
			f.Status = Added
			f.NewMode = strings.TrimPrefix(x, "new file mode ")
		case strings.HasPrefix(x, "deleted file mode "):
			f.Status = Deleted
			f.OldMode = strings.TrimPrefix(x, "deleted file mode ")
		case strings.HasPrefix(x, "old mode "):
			f.OldMode = strings.TrimPrefix(x, "old mode ")
		case strings.HasPrefix(x, "new mode "):
			f.NewMode = strings.TrimPrefix(x, "new mode ")
		case strings.HasPrefix(x, "rename from "):
			f.Status = Renamed
			f.OldPath = unquote(strings.TrimPrefix(x, "rename from "))
		case strings.HasPrefix(x, "rename to "):
			f.Status = Renamed
			f.NewPath = unquote(strings.TrimPrefix(x, "rename to "))
		case strings.HasPrefix(x, "copy from "):
			f.Status = Copied
			f.OldPath = unquote(strings.TrimPrefix(x, "copy from "))
		case strings.HasPrefix(x, "copy to "):
			f.Status = Copied
			f.NewPath = unquote(strings.TrimPrefix(x, "copy to "))
		case strings.HasPrefix(x, "Binary files ") || x == "GIT binary patch":
			f.Binary = true
		}
	}
	switch f.Status {
	case Added:
		f.OldPath = ""
		if f.NewPath == "" {
			f.NewPath = gitNew
		}
	case Deleted:
		f.NewPath = ""
		if f.OldPath == "" {
			f.OldPath = gitOld
		}
	default:
		if f.OldPath == "" {
			f.OldPath = gitOld
		}
		if f.NewPath == "" {
			f.NewPath = gitNew
		}
	}
	if f.Status == Modified && len(fd.Hunks) == 0 && !f.Binary && f.OldMode != f.NewMode && f.NewMode != "" {
		f.Status = ModeOnly
	}
	for _, h := range fd.Hunks {
		hk, err := convertHunk(h)
		if err != nil {
			return FileDiff{}, fmt.Errorf("failed to parse diff of %q: %w", f.Path(), err)
		}
		f.Hunks = append(f.Hunks, hk)
	}
	return f, nil
}

func convertHunk(h *godiff.Hunk) (Hunk, error) {
	hk := Hunk{
		OldStart: int(h.OrigStartLine), OldLines: int(h.OrigLines),
		NewStart: int(h.NewStartLine), NewLines: int(h.NewLines),
	}
	if hk.OldStart < 0 || hk.OldLines < 0 || hk.NewStart < 0 || hk.NewLines < 0 ||
		(hk.OldLines > 0 && hk.OldStart < 1) || (hk.NewLines > 0 && hk.NewStart < 1) {
		return Hunk{}, fmt.Errorf("bad hunk header @@ -%d,%d +%d,%d @@", hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines)
	}
	oldN, newN := hk.OldStart, hk.NewStart
	body := h.Body
	// go-diff drops the "\ No newline at end of file" marker: after an old-side line it records
	// OrigNoNewlineAt, otherwise it removes the newline of the line before, so a body without a
	// final newline means the new side's last line has none.
	hk.NoNewlineAtEnd = len(body) > 0 && body[len(body)-1] != '\n'
	lines := bytes.Split(body, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	var last LineKind
	for _, raw := range lines {
		if len(raw) == 0 {
			// An empty context line whose leading space was lost.
			raw = []byte(" ")
		}
		kind, text := LineKind(raw[0]), string(raw[1:])
		switch kind {
		case Context:
			hk.Lines = append(hk.Lines, Line{Kind: Context, Old: oldN, New: newN, Text: text})
			oldN++
			newN++
		case Add:
			hk.Lines = append(hk.Lines, Line{Kind: Add, New: newN, Text: text})
			newN++
		case Del:
			hk.Lines = append(hk.Lines, Line{Kind: Del, Old: oldN, Text: text})
			oldN++
		case '\\':
			if last == Add || last == Context {
				hk.NoNewlineAtEnd = true
			}
			continue
		default:
			return Hunk{}, fmt.Errorf("bad hunk line %q", truncate(string(raw), 40))
		}
		last = kind
	}
	if added, removed := newN-hk.NewStart, oldN-hk.OldStart; added != hk.NewLines || removed != hk.OldLines {
		return Hunk{}, fmt.Errorf("hunk @@ -%d,%d +%d,%d @@ has %d old and %d new lines",
			hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines, removed, added)
	}
	return hk, nil
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
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", s, false
			}
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3':
				if i+2 >= len(s) {
					return "", s, false
				}
				v := 0
				for k := 0; k < 3; k++ {
					d := s[i+k]
					if d < '0' || d > '7' {
						return "", s, false
					}
					v = v*8 + int(d-'0')
				}
				b.WriteByte(byte(v))
				i += 2
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}
