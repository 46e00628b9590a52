package hidden

import "fmt"

// iso2022 reports an ESC that switches character sets in ISO-2022 encoded text (ESC $ B,
// ESC ( B): an encoding, not a terminal control sequence.
func iso2022(text string, i int) bool {
	return i+1 < len(text) && (text[i+1] == '$' || text[i+1] == '(' || text[i+1] == ')')
}

// Escapes appends to hits a hit for a line holding a raw ESC. Only an ESC that starts a
// sequence (a printable character follows) is reported; ISO-2022 charset switches are encoded
// text.
func Escapes(text string, hits []Hit) []Hit {
	at, n := -1, 0
	for i := 0; i < len(text); i++ {
		if text[i] == 0x1b {
			n++
			if at < 0 && i+1 < len(text) && text[i+1] >= 0x20 && text[i+1] < 0x7f && !iso2022(text, i) {
				at = i
			}
		}
	}
	if at < 0 {
		return hits
	}
	return append(hits, escape(text, at, n))
}

// escape reports the first of n raw ESC characters, with the sequence it starts.
func escape(text string, i, n int) Hit {
	j := min(seqEnd(text, i), len(text))
	detail := "raw ANSI escape sequence " + Quote(text[i:j]) + " (can rewrite what a terminal shows)"
	if n > 1 {
		detail = fmt.Sprintf("%d raw ESC characters, the first starting the ANSI escape sequence %s (can rewrite what a terminal shows)", n, Quote(text[i:j]))
	}
	return Hit{Detail: detail, Conf: 0.85, At: i}
}

// seqEnd returns the end of the escape sequence whose ESC is at i: a CSI sequence (ESC [
// parameters final), an OSC string (ESC ] ... BEL or ST, bounded), or ESC and one character.
func seqEnd(text string, i int) int {
	j := i + 1
	if j >= len(text) {
		return j
	}
	switch text[j] {
	case '[':
		return csiEnd(text, j+1)
	case ']':
		return oscEnd(text, i, j)
	}
	return j + 1
}

func csiEnd(text string, j int) int {
	for j < len(text) && text[j] >= 0x20 && text[j] <= 0x3f {
		j++
	}
	if j < len(text) && text[j] >= 0x40 && text[j] <= 0x7e {
		j++
	}
	return j
}

func oscEnd(text string, i, j int) int {
	for j < len(text) && j-i < 200 && text[j] != 0x07 && !(text[j] == 0x1b && j+1 < len(text) && text[j+1] == '\\') {
		j++
	}
	if j < len(text) {
		j++
	}
	return j
}
