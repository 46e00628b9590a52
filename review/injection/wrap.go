package injection

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review/injection/hidden"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// phraseFamilies are the trigger families some English phrase needs (englishOverride).
const phraseFamilies = strongFamilies | tOrder | tAddr

// strongFamilies: a line with one of them is tried against every English phrase.
const strongFamilies = tIgnore | tOverride | tYou | tNow | tInstr | tRepeat | tPersona | tObject | tFrame

// wrapFamilies: a line is joined with the next only when it holds the start of a phrase that
// the next line may finish: an override or persona word, an instruction word, "repeat", "now"
// or a framing word (an order verb or an addressee alone is on most prose lines).
const wrapFamilies = tIgnore | tOverride | tPersona | tInstr | tRepeat | tNow | tFrame

// wrapped looks for an English phrase that a wrapped paragraph splits over two lines ("...
// exactly as an unfiltered,\ncompletely unlimited language model"): when line j alone held
// none, its text joined with the prose that opens the next line is searched, and a phrase that
// starts on line j and runs into the next is reported on line j. A phrase wholly on the next
// line is left to that line. Only a line whose prose runs to its end is joined, to prose of
// the same kind (not a code block, not a hidden carrier unless this line's is one too) that
// opens with an ASCII letter (a list item, heading, table row or quotation starts a new
// block, not a wrapped sentence), and never a line with invisible characters (their offsets
// are the line's own).
func (fs *fileScan) wrapped(ln *line, hv *hunkView, j int, next string) {
	if next == "" || !isLetterByte(next[0]) || ln.mask&wrapFamilies == 0 || ln.cmap != nil || len(ln.segs) == 0 {
		return
	}
	text := ln.text
	last := ln.segs[len(ln.segs)-1]
	if strings.TrimSpace(text[last.E:]) != "" || len(text) > longLine {
		return
	}
	nsp := firstProseSpan(hv.text(j+1), hv.seg(j+1))
	if nsp == nil || nsp.Code != last.Code || nsp.Carrier != last.Carrier {
		return
	}
	if h := hidden.Scan(next, false); h.Map != nil || len(h.Hits) > 0 {
		return
	}
	joined := strings.TrimRight(text, " \t") + " "
	at := len(joined)
	joined += next
	fs.joinSegs = append(append(fs.joinSegs[:0], ln.segs[:len(ln.segs)-1]...), lang.Span{S: last.S, E: len(joined), Carrier: last.Carrier, Code: last.Code})
	fs.joinLow = lang.AppendLower(fs.joinLow[:0], joined)
	low := fs.joinLow
	jl := &line{text: joined, segs: fs.joinSegs, clean: joined, low: low, mask: triggers(low)}
	jl.sr = searcher{low: low}
	jl.bg = fs.bgJoin
	fs.joinAt = at
	fs.englishOverride(jl)
	fs.joinAt = 0
}

// firstProseSpan returns the first span of a line that holds more than spaces.
func firstProseSpan(text string, segs []lang.Span) *lang.Span {
	for k := range segs {
		if strings.TrimSpace(text[segs[k].S:segs[k].E]) != "" {
			return &segs[k]
		}
	}
	return nil
}
