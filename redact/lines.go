package redact

import "strings"

// lineIndex finds the lines of a text whose every line ends in a newline. It keeps the offset
// of every markEvery-th line only, so its memory is a small fraction of the text's, and finds
// any other line from the mark before it, or from the line it found last when that is nearer
// (a scan asks for lines in ascending order, rule by rule). It is one scan's: not safe for
// concurrent use.
type lineIndex struct {
	text  string
	n     int   // lines
	marks []int // offset of line k*markEvery
	// the line found last and its offset
	lastLine, lastOff int
}

// markEvery is how many lines apart lineIndex keeps an offset.
const markEvery = 256

func newLineIndex(text string) lineIndex {
	x := lineIndex{text: text}
	for off := 0; off < len(text); x.n++ {
		if x.n%markEvery == 0 {
			x.marks = append(x.marks, off)
		}
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			i = len(text) - off - 1 // callers end every line in a newline; stay in bounds
		}
		off += i + 1
	}
	return x
}

// start is the offset of line i (the text's length for i == n).
func (x *lineIndex) start(i int) int {
	if i >= x.n {
		return len(x.text)
	}
	k := i / markEvery * markEvery
	off := x.marks[i/markEvery]
	if x.lastLine > k && x.lastLine <= i {
		k, off = x.lastLine, x.lastOff
	}
	for ; k < i; k++ {
		off += strings.IndexByte(x.text[off:], '\n') + 1
	}
	x.lastLine, x.lastOff = i, off
	return off
}

// span is lines [from, to], each ending in a newline.
func (x *lineIndex) span(from, to int) string { return x.text[x.start(from):x.start(to+1)] }
