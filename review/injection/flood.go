package injection

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// floodRuns is how many times in a row a token (or a cycle of up to floodPeriod tokens) must
// repeat to be a flood.
const (
	floodRuns   = 24
	floodPeriod = 4
	// a single token of at least floodToken bytes that is one unit of 2 to floodUnit bytes
	// repeated ("artisanlibartisanlib...", "})})})...") is a flood too.
	floodToken = 48
	floodUnit  = 12
)

// flood reports a token flood in prose or a comment: one token, or a cycle of up to four
// tokens, repeated at least floodRuns times in a row, or one long token that repeats a short
// unit ("ö ö ö ...", ") ] } ) ] } ..."), the
// filler an attack puts before its order to push the model's own instructions out of its
// attention. A cycle made only of rule, table or leader characters and digits ("| | |",
// "- - -", ". . .", "0 0 0") is layout, not a flood; a flood in a Markdown code block is an
// example.
func (fs *fileScan) flood(ln *line) {
	if len(ln.segs) == 0 || len(ln.text) < floodToken-1 || !floodCandidate(ln.low) {
		return
	}
	fs.toks = splitTokens(ln.text, fs.toks[:0])
	at, unit, n, ok := longFlood(ln.text, fs.toks)
	if !ok {
		at, unit, n, ok = cycleFlood(ln.text, fs.toks)
	}
	if !ok {
		return
	}
	if sp := inSpans(ln.segs, at); sp == nil || sp.Code {
		return
	}
	fs.report(hit{detail: fmt.Sprintf("token flood: %q repeated %d times or more (filler that pushes a model's instructions out of its attention)", unit, n), conf: 0.7, focus: at})
}

// splitTokens appends to dst the [start, end) offsets of text's tokens separated by spaces and
// tabs.
func splitTokens(text string, dst [][2]int) [][2]int {
	for i := 0; i < len(text); {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		s := i
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			i++
		}
		if i > s {
			dst = append(dst, [2]int{s, i})
		}
	}
	return dst
}

// longFlood finds a token of floodToken bytes or more that repeats a short unit: where it
// starts, the unit and how many times it repeats at least.
func longFlood(text string, toks [][2]int) (int, string, int, bool) {
	for _, t := range toks {
		if t[1]-t[0] < floodToken {
			continue
		}
		if u := periodicUnit(text[t[0]:t[1]]); u != "" && floodTokens([][2]int{{0, len(u)}}, u) {
			return t[0], u, floodToken / len(u), true
		}
	}
	return 0, "", 0, false
}

// cycleFlood finds a token, or a cycle of up to floodPeriod tokens, repeated floodRuns times
// in a row: where it starts, the cycle and floodRuns.
func cycleFlood(text string, toks [][2]int) (int, string, int, bool) {
	tok := func(k int) string { return text[toks[k][0]:toks[k][1]] }
	for p := 1; p <= floodPeriod; p++ {
		run := 0
		for k := p; k < len(toks); k++ {
			if tok(k) != tok(k-p) {
				run = 0
				continue
			}
			// run tokens equal the one p before them: run+p tokens, (run+p)/p cycles.
			if run++; run+p < floodRuns*p {
				continue
			}
			start := k - run - p + 1
			if !floodTokens(toks[start:start+p], text) {
				break
			}
			return toks[start][0], text[toks[start][0]:toks[start+p-1][1]], floodRuns, true
		}
	}
	return 0, "", 0, false
}

// floodCandidate reports a line with floodRuns spaces or more, or a run of floodToken bytes
// without a space: one pass that jumps from space to space.
func floodCandidate(low []byte) bool {
	spaces := 0
	for i := 0; ; spaces++ {
		j := bytes.IndexByte(low[i:], ' ')
		if j < 0 {
			return len(low)-i >= floodToken
		}
		if j >= floodToken || spaces+1 >= floodRuns {
			return true
		}
		i += j + 1
	}
}

// periodicUnit returns the unit of 2 to floodUnit bytes, of at least two different bytes, that
// t (of floodToken bytes or more) repeats from its start for at least floodToken bytes, or "".
func periodicUnit(t string) string {
	for p := 2; p <= floodUnit; p++ {
		n := 0
		for n+p < len(t) && t[n] == t[n+p] {
			n++
		}
		// A unit of letters or digits shorter than five ("ATAT", "ACGT") is a sequence in a
		// document about it.
		if n+p < floodToken {
			continue
		}
		if strings.Count(t[:p], t[:1]) < p && (p >= 5 || strings.IndexFunc(t[:p], notAlnum) >= 0) {
			return t[:p]
		}
		return "" // the shortest unit decides
	}
	return ""
}

// layoutChars draw rules, tables, leaders and lists: a run of them is layout, not a flood (a
// token never holds a space or a tab).
const layoutChars = "-=*_.|#~+:/\\,;!?'\""

// floodTokens reports a cycle with a token that holds a letter, a bracket or another symbol,
// and no digit or drawing character: not a table, a rule or a leader.
func floodTokens(toks [][2]int, text string) bool {
	found := false
	for _, t := range toks {
		for _, r := range text[t[0]:t[1]] {
			switch {
			case r == utf8.RuneError:
			case unicode.IsDigit(r) || drawing(r):
				return false // a table's numbers, box drawing, check marks, mojibake of them
			case r >= 0xC0 || unicode.IsLetter(r) || r < 0x80 && !strings.ContainsRune(layoutChars, r):
				found = true
			}
		}
	}
	return found
}

// drawing reports a rune that draws a table or a rule: box drawing, blocks and geometric
// shapes, dashes, bullets, check marks, arrows, and the C1 bytes and Latin-1 signs that mojibake
// of them is made of.
func drawing(r rune) bool {
	return 0x80 <= r && r < 0xC0 || 0x2010 <= r && r <= 0x2027 || 0x2190 <= r && r <= 0x21FF ||
		0x2500 <= r && r <= 0x25FF || 0x2713 <= r && r <= 0x2718
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
