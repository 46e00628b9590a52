package hidden

import (
	"fmt"
	"strings"
)

// iso2022 reports an ESC that switches character sets in ISO-2022 encoded text (ESC $ B,
// ESC ( B): an encoding, not a terminal control sequence.
func iso2022(text string, i int) bool {
	return i+1 < len(text) && (text[i+1] == '$' || text[i+1] == '(' || text[i+1] == ')')
}

// Escapes appends to hits a hit for a line holding a raw ESC. Only an ESC that starts a
// sequence (a printable character follows) is reported; ISO-2022 charset switches are encoded
// text, and a line whose every sequence only colours or styles text (SGR: ESC [ 0;32 m) is
// captured terminal output (a CLI's expected output in a test, a coloured log): colour moves
// no cursor, erases nothing and hides nothing. Concealed text (SGR 8) and a foreground set to
// the background's colour do hide, and are reported.
func Escapes(text string, hits []Hit) []Hit {
	at, n, style := -1, 0, true
	for i := 0; i < len(text); i++ {
		if text[i] != 0x1b {
			continue
		}
		n++
		if i+1 < len(text) && text[i+1] >= 0x20 && text[i+1] < 0x7f && !iso2022(text, i) {
			if at < 0 {
				at = i
			}
			style = style && colourOnly(text, i)
		}
	}
	if at < 0 || style && !hidesText(text) {
		return hits
	}
	return append(hits, escape(text, at, n))
}

// colourOnly reports an SGR sequence at i (ESC [ digits and semicolons m).
func colourOnly(text string, i int) bool {
	if i+2 >= len(text) || text[i+1] != '[' {
		return false
	}
	for j := i + 2; j < len(text); j++ {
		switch c := text[j]; {
		case c == 'm':
			return true
		case c != ';' && (c < '0' || c > '9'):
			return false
		}
	}
	return false
}

// hidesText reports SGR parameters that hide text: conceal (8), or a foreground and a
// background of the same basic colour (ESC[30;40m) anywhere on the line.
func hidesText(text string) bool {
	var fg, bg [8]bool
	for i := 0; i < len(text); i++ {
		if text[i] == 0x1b && colourOnly(text, i) && sgrHides(text[i+2:], &fg, &bg) {
			return true
		}
	}
	for c := range fg {
		if fg[c] && bg[c] {
			return true
		}
	}
	return false
}

// sgrHides reads the parameters of one SGR sequence (text starts after ESC [), noting the
// basic foreground and background colours it sets; it reports conceal (8).
func sgrHides(text string, fg, bg *[8]bool) bool {
	for _, p := range strings.Split(text[:strings.IndexByte(text, 'm')], ";") {
		switch {
		case p == "8":
			return true
		case len(p) == 2 && (p[0] == '3' || p[0] == '9') && p[1] <= '7':
			fg[p[1]-'0'] = true
		case len(p) == 2 && p[0] == '4' && p[1] <= '7', len(p) == 3 && p[:2] == "10" && p[2] <= '7':
			bg[p[len(p)-1]-'0'] = true
		}
	}
	return false
}

// escape reports the first of n raw ESC characters, with the sequence it starts.
func escape(text string, i, n int) Hit {
	j := min(seqEnd(text, i), len(text))
	detail := "raw ANSI escape sequence " + Quote(text[i:j]) + " (can rewrite what a terminal shows)"
	if n > 1 {
		detail = fmt.Sprintf("%d raw ESC characters, the first starting the ANSI escape sequence %s (can rewrite what a terminal shows)", n, Quote(text[i:j]))
	}
	return Hit{Detail: detail, Conf: 0.85, At: i, Kind: KindEscape}
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
