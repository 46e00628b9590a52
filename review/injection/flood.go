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
	if len(ln.segs) == 0 || len(ln.text) < floodToken-1 ||
		bytes.Count(ln.low, []byte{' '}) < floodRuns && !longToken(ln.low) {
		return
	}
	toks := fs.toks[:0]
	for i := 0; i < len(ln.text); {
		for i < len(ln.text) && (ln.text[i] == ' ' || ln.text[i] == '\t') {
			i++
		}
		s := i
		for i < len(ln.text) && ln.text[i] != ' ' && ln.text[i] != '\t' {
			i++
		}
		if i > s {
			toks = append(toks, [2]int{s, i})
		}
	}
	fs.toks = toks
	tok := func(k int) string { return ln.text[toks[k][0]:toks[k][1]] }
	for k := range toks {
		if t := tok(k); len(t) >= floodToken {
			if u := periodicUnit(t); u != "" {
				at := toks[k][0]
				if sp := inSpans(ln.segs, at); sp != nil && !sp.Code && floodTokens([][2]int{{0, len(u)}}, u) {
					fs.report(hit{detail: fmt.Sprintf("token flood: %q repeated %d times or more (filler that pushes a model's instructions out of its attention)", u, floodToken/len(u)), conf: 0.7, focus: at})
					return
				}
			}
		}
	}
	for p := 1; p <= floodPeriod; p++ {
		run := 0
		for k := p; k < len(toks); k++ {
			if tok(k) != tok(k-p) {
				run = 0
				continue
			}
			if run++; run+p < floodRuns*p {
				continue
			}
			start := k - run - p + 1
			at := toks[start][0]
			if sp := inSpans(ln.segs, at); sp == nil || sp.Code || !floodTokens(toks[start:start+p], ln.text) {
				break
			}
			unit := ln.text[toks[start][0]:toks[start+p-1][1]]
			fs.report(hit{detail: fmt.Sprintf("token flood: %q repeated %d times or more (filler that pushes a model's instructions out of its attention)", unit, floodRuns), conf: 0.7, focus: at})
			return
		}
	}
}

// longToken reports a run of floodToken bytes or more without a space or tab.
func longToken(low []byte) bool {
	n := 0
	for _, c := range low {
		if c == ' ' || c == '\t' {
			n = 0
		} else if n++; n >= floodToken {
			return true
		}
	}
	return false
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

// layoutChars draw rules, tables, leaders and lists: a run of them is layout, not a flood.
const layoutChars = "-=*_.|#~+:/\\,;!?'\"\t "

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
