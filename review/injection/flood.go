package injection

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// floodRuns is how many times in a row a token (or a cycle of up to floodPeriod tokens) must
// repeat to be a flood.
const (
	floodRuns   = 24
	floodPeriod = 4
)

// flood reports a token flood in prose or a comment: one token, or a cycle of up to four
// tokens, repeated at least floodRuns times in a row ("ö ö ö ...", ") ] } ) ] } ..."), the
// filler an attack puts before its order to push the model's own instructions out of its
// attention. A cycle made only of rule, table or leader characters and digits ("| | |",
// "- - -", ". . .", "0 0 0") is layout, not a flood; a flood in a Markdown code block is an
// example.
func (fs *fileScan) flood(ln *line) {
	if len(ln.segs) == 0 || len(ln.clean) < 2*floodRuns || bytes.Count(ln.low, []byte{' '}) < floodRuns {
		return
	}
	toks := fs.toks[:0]
	for i := 0; i < len(ln.clean); {
		for i < len(ln.clean) && (ln.clean[i] == ' ' || ln.clean[i] == '\t') {
			i++
		}
		s := i
		for i < len(ln.clean) && ln.clean[i] != ' ' && ln.clean[i] != '\t' {
			i++
		}
		if i > s {
			toks = append(toks, [2]int{s, i})
		}
	}
	fs.toks = toks
	tok := func(k int) string { return ln.clean[toks[k][0]:toks[k][1]] }
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
			at := ln.orig(toks[start][0])
			if sp := inSpans(ln.segs, at); sp == nil || sp.Code || !floodTokens(toks[start:start+p], ln.clean) {
				break
			}
			unit := ln.clean[toks[start][0]:toks[start+p-1][1]]
			fs.report(hit{detail: fmt.Sprintf("token flood: %q repeated %d times or more (filler that pushes a model's instructions out of its attention)", unit, floodRuns), conf: 0.7, focus: at})
			return
		}
	}
}

// floodTokens reports a cycle with a token that holds a letter, a bracket or a symbol: not
// only layout characters and digits.
func floodTokens(toks [][2]int, text string) bool {
	for _, t := range toks {
		for _, r := range text[t[0]:t[1]] {
			switch {
			case r == utf8.RuneError:
			case unicode.IsLetter(r) || r >= 0x2000 || bytes.IndexByte([]byte("()[]{}<>"), byte(r)) >= 0 && r < 0x80:
				return true
			}
		}
	}
	return false
}
