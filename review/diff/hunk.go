package diff

import (
	"iter"
	"strings"
)

// Line is one diff line. Old is 0 for added lines, New is 0 for deleted lines.
type Line struct {
	Kind LineKind
	Old  int
	New  int
	Text string // without the prefix and the newline
}

// Hunk is one hunk with numbered lines. Its lines are stored compactly: a parsed hunk keeps
// its body as one substring of the diff (each line its kind byte, text and newline), a new
// file's hunk (TextHunk) the file's text; only a hunk built line by line (NewHunk, Append)
// holds Line values. Lines numbers them while it walks.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// NoNewlineAtEnd reports that the new side's last line has no final newline.
	NoNewlineAtEnd bool

	body  string // diff form: "<kind><text>\n" per line; lines starting '\\' are markers
	plain bool   // body is new-file text: every line added, numbered from NewStart
	n     int    // number of lines
	lines []Line // lines of a hunk built line by line (body is then "")
}

// NewHunk returns a hunk with the given header counts and lines.
func NewHunk(oldStart, oldLines, newStart, newLines int, lines ...Line) Hunk {
	return Hunk{OldStart: oldStart, OldLines: oldLines, NewStart: newStart, NewLines: newLines,
		lines: lines, n: len(lines)}
}

// TextHunk returns the hunk of a new file holding text: every line added, from line 1. The
// hunk shares text, it does not copy it.
func TextHunk(text string) Hunk {
	n := strings.Count(text, "\n")
	noNL := text != "" && !strings.HasSuffix(text, "\n")
	if noNL {
		n++
	}
	h := Hunk{NewLines: n, body: text, plain: true, n: n, NoNewlineAtEnd: noNL}
	if n > 0 {
		h.NewStart = 1
	}
	return h
}

// Append adds a line at the end of the hunk (a compact hunk is first turned into lines). The
// header counts are left as they are.
func (h *Hunk) Append(l Line) {
	if h.lines == nil && h.body != "" {
		lines := make([]Line, 0, h.n+1)
		for _, x := range h.Lines() {
			lines = append(lines, x)
		}
		h.lines, h.body, h.plain = lines, "", false
	}
	h.lines = append(h.lines, l)
	h.n++
}

// AddedSizeBound is at least the size of the hunk's added lines, newlines included: for a
// parsed or new file's hunk the size of its body, known without walking its lines.
func (h *Hunk) AddedSizeBound() int {
	if h.lines == nil && h.body != "" {
		// a diff line is its kind byte, its text and a newline; a new file's last line may lack
		// its newline
		return len(h.body) + 1
	}
	n := 0
	for _, l := range h.lines {
		if l.Kind == Add {
			n += len(l.Text) + 1
		}
	}
	return n
}

// Len is the number of lines of the hunk.
func (h *Hunk) Len() int { return h.n }

// Text returns a new file's text when the hunk holds it as it is (TextHunk): every line added
// and numbered from NewStart, the lines joined by newlines (a final newline included).
func (h *Hunk) Text() (string, bool) { return h.body, h.plain }

// Lines walks the hunk's lines in order, with their index.
func (h *Hunk) Lines() iter.Seq2[int, Line] {
	return func(yield func(int, Line) bool) {
		switch {
		case h.lines != nil || h.body == "":
			for i, l := range h.lines {
				if !yield(i, l) {
					return
				}
			}
		case h.plain:
			h.plainLines(yield)
		default:
			h.diffLines(yield)
		}
	}
}

// plainLines walks a TextHunk's lines.
func (h *Hunk) plainLines(yield func(int, Line) bool) {
	s := h.body
	for i := 0; s != ""; i++ {
		text, rest, _ := strings.Cut(s, "\n")
		if !yield(i, Line{Kind: Add, New: h.NewStart + i, Text: text}) {
			return
		}
		s = rest
	}
}

// diffLines walks a parsed hunk's lines, numbering them from the header's starts.
func (h *Hunk) diffLines(yield func(int, Line) bool) {
	s := h.body
	oldN, newN := h.OldStart, h.NewStart
	for i := 0; s != ""; {
		raw, rest, _ := strings.Cut(s, "\n")
		s = rest
		if raw == "" {
			raw = " " // an empty context line whose leading space was lost
		}
		l := Line{Kind: LineKind(raw[0]), Text: raw[1:]}
		switch l.Kind {
		case Context:
			l.Old, l.New = oldN, newN
			oldN++
			newN++
		case Add:
			l.New = newN
			newN++
		case Del:
			l.Old = oldN
			oldN++
		default:
			continue // "\ No newline at end of file"
		}
		if !yield(i, l) {
			return
		}
		i++
	}
}
