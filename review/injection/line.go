package injection

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/injection/hidden"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// line is one added line under inspection: the text as written, its prose spans, the text
// without invisible characters (clean), its lowercased form and the trigger families in it.
type line struct {
	text  string
	segs  []lang.Span
	clean string
	cmap  []int // clean offset -> text offset; nil when clean is text
	wide  bool  // holds Cyrillic, CJK, Hangul ... (the other-script override expressions)
	low   []byte
	mask  uint32
	sr    searcher
	bg    *bigrams // the pairs of low, once bgSet
	bgSet bool
}

// gates reports whether the line holds a word of each gate group (the byte pairs are worked
// out on the first call).
func (ln *line) gates(g [][]string) bool {
	if !ln.bgSet {
		ln.bg.reset(ln.low)
		ln.bgSet = true
	}
	return ln.bg.gatesMet(ln.low, g)
}

// orig maps an offset of clean to an offset of text.
func (ln *line) orig(i int) int {
	if ln.cmap == nil {
		return i
	}
	if i >= len(ln.cmap) {
		return len(ln.text)
	}
	return ln.cmap[i]
}

// scanLine inspects added line j of a hunk: the character signals, then each text signal.
func (fs *fileScan) scanLine(hv *hunkView, j int, next string) {
	ln := fs.prepare(hv.text(j), hv.seg(j))
	fs.chatTokens(ln)
	n := fs.hitsOnCur()
	fs.overrides(ln)
	if fs.hitsOnCur() == n {
		fs.wrapped(ln, hv, j, next)
	}
	fs.turns(ln, next)
	fs.verdict(ln, hv, j)
	fs.flood(ln)
	if ln.mask&tAddr != 0 && len(ln.segs) > 0 {
		hv.addrCand = j
	}
	switch {
	case fs.kind.Agent:
		fs.agentLine(ln.clean, ln.low, ln.orig, "agent instruction file")
	case fs.agentAddressed(ln, hv, j):
		fs.agentLine(ln.clean, ln.low, ln.orig, "text addressed to AI agents")
	}
}

// prepare runs the character checks (package hidden) and finds the trigger words of a line.
func (fs *fileScan) prepare(text string, segs []lang.Span) *line {
	h := hidden.Scan(text, fs.cur.line == 1)
	for _, x := range h.Hits {
		if fs.dropChar(x, text, segs) {
			continue
		}
		fs.report(hit{detail: x.Detail, conf: x.Conf, focus: x.At, kind: x.Kind,
			low: x.Kind == hidden.KindInvisible && fs.lowInvisible(x, text, segs)})
	}
	fs.lower = lang.AppendLower(fs.lower[:0], h.Clean)
	ln := &fs.ln // reused: one line at a time, no allocation per line
	*ln = line{text: text, segs: segs, clean: h.Clean, cmap: h.Map, wide: h.Wide, low: fs.lower}
	ln.sr = searcher{low: ln.low}
	ln.bg = fs.bg
	if len(ln.low) > longLine {
		for b := range fs.tp.at {
			fs.tp.at[b] = fs.tp.at[b][:0]
		}
		fs.tp.overflow = 0
		ln.mask = triggerScan(ln.low, &fs.tp)
		ln.sr.tp = &fs.tp
	} else {
		ln.mask = triggers(ln.low)
	}
	return ln
}

// tokenNamedRe: prose that names a token instead of using it ("[INST] and [/INST] are regular
// strings", "<|im_end|> tokens").
var tokenNamedRe = lazyre.New(`^\s*(?:and|or|,|/|are|is|tokens?|tags?|markers?|strings?)(?:\W|$)`)

// chatTokens reports the first chat-template token of a line (signal 3).
func (fs *fileScan) chatTokens(ln *line) {
	if ln.mask&tToken == 0 {
		return
	}
	for _, tok := range templateTokens {
		i := strings.Index(ln.clean, tok)
		if i < 0 {
			continue
		}
		// In code (a tokenizer's constant, a prompt template) or a Markdown code block (an API
		// example in LLM documentation) a token is data, not a turn boundary aimed at a model.
		if sp := inSpans(ln.segs, ln.orig(i)); sp == nil || sp.Code ||
			sp.Carrier == "" && (quotedAt(ln.clean, i) || tokenNamedRe.MatchString(ln.clean[i+len(tok):])) {
			return
		}
		fs.report(hit{detail: fmt.Sprintf("chat-template token %s (fakes a turn boundary for a model)", strconv.Quote(tok)), conf: 0.9, focus: ln.orig(i)})
		return
	}
}
