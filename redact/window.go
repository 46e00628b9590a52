package redact

import (
	"iter"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A rule's regex on a long line. When every match of the rule holds one of its keywords and a
// match is at most width bytes long, a match lies within width bytes of a keyword: the gate
// runs only on those windows of the text, not over the whole of it. The regexp engine costs
// ~100 ns a byte on a line it cannot skip through (a case-insensitive regex has no literal
// prefix to search for), and the long lines of an SVG's embedded images hold the 4-letter
// keywords of some rules by chance ("sumo", "snyk" in base64): there the windows are a few
// hundred bytes of lines of hundreds of kilobytes. The answer is the same as the gate's on the
// whole text: a window keeps one byte (rune) more on each side than any match can reach, so an
// assertion at a match's edge (\b, ^) sees what it sees in the whole text; at worst a window's
// own edge makes $ or \b true where the whole text's would not, and the detector then runs and
// finds what gitleaks finds. Texts where a character other than an ASCII letter folds to one
// (the long s, the Kelvin sign) are matched whole: a match there may spell its keyword with it.

// windowedMin: shorter texts are matched whole (a window saves nothing there).
const windowedMin = 4096

// maxWidthCap: a match that may be longer than this is matched on the whole text.
const maxWidthCap = 1 << 14

// windows holds what windowed matching needs of a rule, read from its regex.
type windows struct {
	width int      // the most bytes one match can hold, or -1 (unbounded or too wide)
	kws   []string // the rule's keywords, lower case, when every match holds one; nil otherwise
	// starts: every match starts with one of kws (after \b or ^ only), so with no bound on its
	// width it is tried anchored at each keyword's place, from the byte before (at1) or at
	// the text's start (at0)
	starts   bool
	at0, at1 *regexp.Regexp
}

// newWindows reads src and the rule's keywords kws; a zero windows (kws nil) turns it off.
func newWindows(src string, kws []string) windows {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil || len(kws) == 0 {
		return windows{width: -1}
	}
	lower := make([]string, len(kws))
	for i, k := range kws {
		lower[i] = strings.ToLower(k)
		if lower[i] == "" || !isASCII(lower[i]) {
			return windows{width: -1}
		}
	}
	if !holdsKeyword(re, lower) {
		return windows{width: -1}
	}
	if w := maxWidth(re); w >= 0 {
		return windows{width: w, kws: lower}
	}
	lead, ok := leadLiteral(re)
	if !ok || !slices.ContainsFunc(lower, func(k string) bool { return strings.HasPrefix(lead, k) }) {
		return windows{width: -1}
	}
	at0, err0 := regexp.Compile(`^(?:` + src + `)`)
	at1, err1 := regexp.Compile(`^(?s:.)(?:` + src + `)`)
	if err0 != nil || err1 != nil {
		return windows{width: -1}
	}
	return windows{width: -1, kws: lower, starts: true, at0: at0, at1: at1}
}

// leadLiteral is the literal every match of re starts with (lower case under FoldCase), after
// empty-width assertions only; ok false if there is none.
func leadLiteral(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if re.Flags&syntax.FoldCase != 0 {
			if !isASCII(s) {
				return "", false
			}
			s = strings.ToLower(s)
		}
		return s, true
	case syntax.OpCapture:
		return leadLiteral(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
				continue
			}
			return leadLiteral(sub)
		}
	}
	return "", false
}

// use reports whether text is matched by windows.
func (w *windows) use(text string) bool {
	return w.kws != nil && len(text) >= windowedMin && foldsInASCII(text)
}

// match reports whether match (the gate) matches text (lower: text lowercased,
// lowerASCIIBytes), trying only the windows around the keywords' places.
func (w *windows) match(text, lower string, match func(string) bool) bool {
	if w.starts {
		return w.anchored(text, lower)
	}
	var spans [][2]int
	for j, k := range w.places(lower) {
		spans = append(spans, [2]int{runeBefore(text, j-w.width-1), runeAfter(text, j+len(k)+w.width+1)})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a][0] < spans[b][0] })
	for n := 0; n < len(spans); {
		lo, hi := spans[n][0], spans[n][1]
		for n++; n < len(spans) && spans[n][0] <= hi; n++ {
			hi = max(hi, spans[n][1])
		}
		if match(text[lo:hi]) {
			return true
		}
	}
	return false
}

// anchored reports a match of the rule's regex starting at one of its keywords' places in
// text (lower: text with its ASCII letters lowercased). From the byte before the place, the
// regex's leading \b or (?m)^ sees the byte it sees in the whole text.
func (w *windows) anchored(text, lower string) bool {
	for j := range w.places(lower) {
		if j == 0 && w.at0.MatchString(text) || j > 0 && w.at1.MatchString(text[runeBefore(text, j-1):]) {
			return true
		}
	}
	return false
}

// places yields the offset of every place in lower where one of the keywords starts, and the
// keyword.
func (w *windows) places(lower string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for _, k := range w.kws {
			for i := 0; ; {
				j := strings.Index(lower[i:], k)
				if j < 0 {
					break
				}
				if !yield(i+j, k) {
					return
				}
				i += j + 1
			}
		}
	}
}

// runeBefore moves offset i back to the start of a rune (0 at most).
func runeBefore(s string, i int) int {
	if i <= 0 {
		return 0
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// runeAfter moves offset i on to the start of a rune (len(s) at most).
func runeAfter(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// maxWidth is the most bytes one match of re can hold, -1 if there is no bound (or it passes
// maxWidthCap). A case-folded letter may match a wider rune (k: the Kelvin sign), so a rune of
// a literal counts as utf8.UTFMax bytes under FoldCase.
func maxWidth(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return utf8.UTFMax * len(re.Rune)
		}
		n := 0
		for _, r := range re.Rune {
			n += utf8.RuneLen(r)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return max(1, utf8.RuneLen(re.Rune[len(re.Rune)-1]))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxWidth(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		acc := 0
		for _, s := range re.Sub {
			n := maxWidth(s)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				acc += n
			} else {
				acc = max(acc, n)
			}
			if acc > maxWidthCap {
				return -1
			}
		}
		return acc
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpRepeat:
		n := maxWidth(re.Sub[0])
		if n < 0 || re.Max < 0 || n*re.Max > maxWidthCap {
			return -1
		}
		return n * re.Max
	}
	return 0 // empty-width assertions, empty match, no match
}
