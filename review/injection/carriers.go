package injection

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review/lang"
)

// Hidden carriers (HTML and Markdown comments, JSON comment fields, hidden elements: see
// lang.Span) raise the confidence of a text signal and are named in its message.

// textHit reports a phrase, noting (and trusting more) a hidden carrier around it.
func (fs *fileScan) textHit(segs []lang.Span, s int, what, phrase string, conf float64) {
	detail := what + " " + quoteVisible(strings.TrimSpace(phrase))
	if sp := inSpans(segs, s); sp != nil && sp.Carrier != "" {
		detail += " inside " + sp.Carrier + " (hidden when rendered)"
		conf += 0.08
	}
	fs.report(hit{detail: detail, conf: conf, focus: s})
}

// inSpans returns the innermost span holding offset i: a carrier before an ordinary one.
func inSpans(segs []lang.Span, i int) *lang.Span {
	var found *lang.Span
	for k := range segs {
		sp := &segs[k]
		if i >= sp.S && i < sp.E {
			if sp.Carrier != "" {
				return sp
			}
			if found == nil {
				found = sp
			}
		}
	}
	return found
}

// toClean maps an offset of the line to an offset of its clean text.
func toClean(cmap []int, i int) int {
	if cmap == nil {
		return i
	}
	// cmap is sorted: the first clean offset whose original offset is >= i.
	lo, hi := 0, len(cmap)
	for lo < hi {
		m := (lo + hi) / 2
		if cmap[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// firstProse returns the first non-blank prose of a line.
func firstProse(text string, segs []lang.Span) string {
	if sp := firstProseSpan(text, segs); sp != nil {
		return strings.TrimSpace(text[sp.S:sp.E])
	}
	return ""
}
