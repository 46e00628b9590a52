package injection

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// The scorer of the threat model's classes 1-3: every block of added text (a paragraph of
// prose, a run of comment lines, a docstring, a JSON comment field, a configuration file's
// text value), at most maxBlockLines lines and ended by a line that ends a sentence or one that
// starts a list item or a heading, is scored by the logistic combination of the
// signals that fire in it (signals.go) with the fitted weights (weights_gen.go); a block at
// or above the fitted threshold is reported on its line where the first order starts, with
// the signals that fired as the evidence ("addressee=reviewer + suppression +
// object=findings"). A block is scored only when an order, a suppression, an override, an
// action or secrecy is in it, and (outside an agent file and a hidden carrier) an addressee,
// code to insert, secrecy or a URL; a context line ends a block.
//
// Besides the signals of the text: the carrier (carrier=agent: an agent instruction or
// configuration file; carrier=hidden: a hidden carrier; carrier=comment: a comment,
// docstring or text value in a code or configuration file; carrier=message: a commit or tag
// message; carrier=prose: documentation), "you" in an agent file (addressee=you), a dangerous
// code payload in the lines of code (a fenced block, code in a code file) among the block's
// and the payloadLines lines after it (payload). What a block quotes in double quotes is
// blanked before the signals read it: a quoted phrase is discussed, not said. Every pair of
// features that fire is a feature too: the fit weighs what two signals mean together.

// maxBlockLines and maxBlockBytes cap a block: signals far apart are not one instruction.
const (
	maxBlockLines = 8
	maxBlockBytes = 1200
	payloadLines  = 15
)

// featureNames: the text signals, then the others, in feature order.
var featureNames = append(append([]string{}, textNames...), "payload", "addressee=you", "carrier=agent", "carrier=hidden", "carrier=comment", "carrier=message", "carrier=prose")

// textNames: the text signals' names, each once, in table order; textIndex: each row's.
var textNames, textIndex = func() ([]string, []int) {
	var names []string
	var index []int
	at := map[string]int{}
	for _, sg := range signals {
		k, ok := at[sg.name]
		if !ok {
			k = len(names)
			at[sg.name] = k
			names = append(names, sg.name)
		}
		index = append(index, k)
	}
	return names, index
}()

// sigIndex returns the feature index of a signal's name.
func sigIndex(name string) int {
	for i, n := range featureNames {
		if n == name {
			return i
		}
	}
	panic("injection: no signal " + name)
}

var (
	fImperative, fSuppression, fSecrecy         = sigIndex("imperative"), sigIndex("suppression"), sigIndex("secrecy")
	fAddrU                                      = sigIndex("addressee=you")
	fExec, fFetch, fSend, fInsert, fPayload     = sigIndex("action=execute"), sigIndex("action=fetch"), sigIndex("action=send"), sigIndex("action=insert"), sigIndex("payload")
	fOverride                                   = sigIndex("override")
	fAgent, fHidden, fComment, fMessage, fProse = sigIndex("carrier=agent"), sigIndex("carrier=hidden"), sigIndex("carrier=comment"), sigIndex("carrier=message"), sigIndex("carrier=prose")
)

// active names the features that fire in x, and every pair of those that are read in the
// text ("imperative&suppression"): a pair's weight says what two signals mean together beyond
// what each means alone. The carriers, protective guidance and discussion count alone.
func active(x []float64) []string {
	var on []string
	for i, v := range x {
		if v > 0 {
			on = append(on, featureNames[i])
		}
	}
	n := len(on)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if pairable(on[i]) && pairable(on[j]) {
				on = append(on, on[i]+"&"+on[j])
			}
		}
	}
	return on
}

func pairable(f string) bool {
	return !strings.HasPrefix(f, "carrier=") && f != "discussion" && f != "protective"
}

// gatePass says when a text signal is read: 0 with the strong signals, 1 with the gate's, 2
// after both.
func gatePass(k int) int {
	for _, g := range strongSignals {
		if g == k {
			return 0
		}
	}
	for _, g := range gateSignals {
		if g == k {
			return 1
		}
	}
	return 2
}

func (sb *scoredBlock) hasAny(fs []int) bool {
	for _, f := range fs {
		if sb.x[f] == 1 {
			return true
		}
	}
	return false
}

func hiddenIn(lines []bline, b block) bool {
	for i := b.s; i < b.e; i++ {
		if lines[i].hidden {
			return true
		}
	}
	return false
}

// strongSignals: outside an agent file and a hidden carrier, a block is scored only when one
// of these fires (an addressee, code to insert, secrecy, a URL or an e-mail address): the
// others are everyday words of comments and documentation.
var strongSignals = []int{sigIndex("addressee=ai"), sigIndex("addressee=reviewer"), sigIndex("addressee=direct"), fInsert, fSecrecy, sigIndex("target=url")}

// gateSignals: a block is scored only when one of these fires.
var gateSignals = []int{fImperative, fSuppression, fOverride, fExec, fFetch, fSend, fInsert, fSecrecy}

// youRe: "you" in an agent file.
var youSignal = signal{name: "addressee=you", words: []string{"you"}}

// bline is one line of a hunk's new side as the scorer reads it.
type bline struct {
	num    int    // new-file line number
	raw    string // the line
	prose  string // its prose (comments, docstrings, text; not Markdown code), trimmed
	added  bool
	hidden bool // a hidden carrier holds text on it
}

// carrierKind says where a file's text is read.
type carrierKind struct {
	agent, message, code bool
}

// block is a run of lines [s, e) of a hunk's blines.
type block struct{ s, e int }

// scoredBlock is a block with its features.
type scoredBlock struct {
	x     []float64
	first []int // per text signal, the offset of its first match in text, or -1
	text  string
	b     block
	lines []int // the offset in text where each line of the block starts
}

// hunkLines reads hunk h's new side (added and context lines) for the scorer.
func hunkLines(h *diff.Hunk, kind *lang.File, dst []bline) []bline {
	var st lang.State
	var segs []lang.Span
	for _, l := range h.Lines() {
		if l.Kind != diff.Add && l.Kind != diff.Context {
			continue
		}
		text := strings.TrimSuffix(l.Text, "\r")
		segs = kind.AppendSpans(segs[:0], text, &st)
		dst = append(dst, readLine(l.New, text, l.Kind == diff.Add, kind, segs))
	}
	return dst
}

// readLine takes the prose of one line from its spans (and a configuration file's text value).
func readLine(num int, text string, added bool, kind *lang.File, segs []lang.Span) bline {
	bl := bline{num: num, raw: text, added: added}
	var b strings.Builder
	for _, sp := range segs {
		if sp.Code || sp.E <= sp.S || sp.E > len(text) {
			continue
		}
		if sp.Carrier != "" {
			bl.hidden = true
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text[sp.S:sp.E])
	}
	if b.Len() == 0 && kind.Kind.IsConfig() {
		b.WriteString(configValue(text))
	}
	bl.prose = strings.TrimSpace(strings.Trim(strings.TrimSpace(b.String()), `/#*;!"'`+"`"))
	return bl
}

// configValue returns the text value of a configuration line (key: "a sentence of words"),
// or "": a value of fewer than four words is a setting, not text.
func configValue(line string) string {
	_, v, ok := strings.Cut(line, ":")
	if !ok {
		_, v, ok = strings.Cut(line, "=")
	}
	if !ok {
		return ""
	}
	v = strings.Trim(strings.TrimSpace(v), `"',`)
	if strings.Count(v, " ") < 3 {
		return ""
	}
	return v
}

// blocks splits lines into blocks of added prose.
func blocks(lines []bline, dst []block) []block {
	start := -1
	size := 0
	for i, l := range lines {
		if start >= 0 && (!l.added || l.prose == "" || i-start >= maxBlockLines || size+len(l.prose) > maxBlockBytes || itemStart(l.prose)) {
			dst = append(dst, block{start, i})
			start = -1
		}
		if l.added && l.prose != "" && start < 0 {
			start, size = i, 0
		}
		size += len(l.prose) + 1
		if start >= 0 && sentenceEnd(l.prose) {
			dst = append(dst, block{start, i + 1})
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, block{start, len(lines)})
	}
	return dst
}

// sentenceEnd reports a line that ends a sentence: the next line is read apart (each line of
// an agent file's rules is its own; a wrapped sentence goes on).
func sentenceEnd(s string) bool {
	s = strings.TrimRight(s, " )*_`\"'")
	return s != "" && strings.ContainsRune(".!?", rune(s[len(s)-1]))
}

// unquote blanks what s quotes in double quotes (straight or curly, up to maxQuote bytes, a
// wrapped line included): a phrase quoted is discussed, not said ("return no findings" in a page that
// explains the attack). Inline code stays: a command to run is in backticks.
func unquote(s string) string {
	if !strings.ContainsAny(s, "\"\u201c") {
		return s
	}
	s = strings.NewReplacer("\u201c", "\"", "\u201d", "\"").Replace(s)
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 || j > maxQuote {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(`"…"`)
		s = s[i+j+2:]
	}
	b.WriteString(s)
	return b.String()
}

// maxQuote: a longer quotation is a passage, read as it is.
const maxQuote = 160

// itemStart reports a line that starts a list item or a heading: its own instruction.
func itemStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '-', '*', '+', '#', '>':
		return len(s) > 1 && (s[1] == ' ' || s[0] == '#')
	}
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')')
}

// score reads block b of lines: its features, or nil when no gate signal fires.
func scoreBlock(lines []bline, b block, ck carrierKind) *scoredBlock {
	var text strings.Builder
	sb := &scoredBlock{b: b}
	for i := b.s; i < b.e; i++ {
		if i > b.s {
			text.WriteByte('\n')
		}
		sb.lines = append(sb.lines, text.Len())
		text.WriteString(lang.LowerASCII(lines[i].prose))
	}
	sb.text = unquote(text.String())
	sb.x = make([]float64, len(featureNames))
	sb.first = make([]int, len(textNames))
	for i := range sb.first {
		sb.first[i] = -1
	}
	// the gates' signals first: most blocks stop there
	for pass := 0; pass < 3; pass++ {
		for i := range signals {
			k := textIndex[i]
			if gatePass(k) != pass {
				continue
			}
			if at := signals[i].find(sb.text); at >= 0 && (sb.first[k] < 0 || at < sb.first[k]) {
				sb.first[k], sb.x[k] = at, 1
			}
		}
		if pass == 0 && !ck.agent && !sb.hasAny(strongSignals) && !hiddenIn(lines, b) {
			return nil
		}
		if pass == 1 && !sb.hasAny(gateSignals) {
			return nil
		}
	}
	for i := b.s; i < min(len(lines), b.e+payloadLines); i++ {
		if lines[i].added && lines[i].prose == "" { // code: a fenced block, or code in a code file
			if payloadSignal.find(lang.LowerASCII(lines[i].raw)) >= 0 {
				sb.x[fPayload] = 1
				break
			}
		}
	}
	if ck.agent && youSignal.mayMatch(sb.text) && wordIn(sb.text, "you") {
		sb.x[fAddrU] = 1
	}
	for i := b.s; i < b.e; i++ {
		if lines[i].hidden {
			sb.x[fHidden] = 1
		}
	}
	switch {
	case ck.agent:
		sb.x[fAgent] = 1
	case ck.message:
		sb.x[fMessage] = 1
	case ck.code:
		sb.x[fComment] = 1
	default:
		sb.x[fProse] = 1
	}
	return sb
}

// wordIn reports w as a whole word of s.
func wordIn(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !isWordByte(s[j-1])) && (j+len(w) == len(s) || !isWordByte(s[j+len(w)])) {
			return true
		}
		i = j + 1
	}
}

// probability is the fitted model's probability that a block is an attack.
func probability(x []float64) float64 {
	z := fittedBias
	for _, f := range active(x) {
		z += fittedWeights[f]
	}
	return 1 / (1 + math.Exp(-z))
}

// evidence names the signals that fired and count for the block (a positive weight alone).
func evidence(x []float64) string {
	var parts []string
	for i, v := range x {
		if v > 0 && fittedWeights[featureNames[i]] > 0 {
			parts = append(parts, featureNames[i])
		}
	}
	return strings.Join(parts, " + ")
}

// anchor returns the line of the block where its first order (or suppression, override,
// action, secrecy) starts, and the byte offset in that line's prose.
func (sb *scoredBlock) anchor() int {
	at := -1
	for _, g := range gateSignals {
		if g < len(sb.first) && sb.first[g] >= 0 && (at < 0 || sb.first[g] < at) {
			at = sb.first[g]
		}
	}
	k := 0
	for i, off := range sb.lines {
		if off <= at {
			k = i
		}
	}
	return sb.b.s + k
}

// scoreFile scores the added blocks of the file under scan and reports those at or above the
// fitted threshold.
func (fs *fileScan) scoreFile() {
	ck := carrierKind{agent: fs.kind.Agent || fs.kind.AgentConfig != "", message: fs.f.Meta != "" || path.Base(fs.f.Path()) == metaProse, code: fs.codeFile()}
	var lines []bline
	var bs []block
	for hi := range fs.f.Hunks {
		lines = hunkLines(&fs.f.Hunks[hi], &fs.kind, lines[:0])
		bs = blocks(lines, bs[:0])
		for _, b := range bs {
			sb := scoreBlock(lines, b, ck)
			if sb == nil {
				continue
			}
			p := probability(sb.x)
			if p < fittedThreshold || fs.hitIn(lines[b.s].num, lines[b.e-1].num) {
				continue // a phrase check already reports the block
			}
			l := lines[sb.anchor()]
			fs.reportAt(l.num, l.raw, hit{
				detail: fmt.Sprintf("text aimed at a reviewer or an agent (signals: %s; score %.2f)", evidence(sb.x), p),
				conf:   min(0.95, 0.5+p/2), focus: max(0, strings.Index(l.raw, firstWord(l.prose))),
			})
		}
	}
	sort.SliceStable(fs.lines, func(a, b int) bool { return fs.lines[a].line < fs.lines[b].line })
}

// hitIn reports a line in [first, last] with a hit already.
func (fs *fileScan) hitIn(first, last int) bool {
	for i := len(fs.lines) - 1; i >= 0; i-- {
		if l := fs.lines[i].line; l >= first && l <= last && len(fs.lines[i].hits) > 0 {
			return true
		}
	}
	return false
}

// firstWord returns the first word of s ("" for none).
func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// Features returns, for every block of text that a gate signal opens, read as a file at path p
// whose every line is added, the features that fire in it and their pairs (active), for
// scripts/injfit's fit. It is the scanner's own reading, not a copy of it.
func Features(p, text string) [][]string {
	kind := lang.Classify(p)
	var st lang.State
	var lines []bline
	var segs []lang.Span
	for i, t := range strings.Split(text, "\n") {
		t = strings.TrimSuffix(t, "\r")
		segs = kind.AppendSpans(segs[:0], t, &st)
		lines = append(lines, readLine(i+1, t, true, &kind, segs))
	}
	ck := carrierKind{agent: kind.Agent || kind.AgentConfig != "", message: path.Base(p) == metaProse, code: !kind.Prose && !kind.Translation}
	var out [][]string
	for _, b := range blocks(lines, nil) {
		if sb := scoreBlock(lines, b, ck); sb != nil {
			out = append(out, active(sb.x))
		}
	}
	return out
}
