package injection

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/review/lang"
)

// The signal scorer (docs/injection.md): the added lines of a hunk are cut into blocks (a
// paragraph of prose, a run of comment lines, at most blockMax lines); each block's signals
// (signals.go) are combined by a logistic model whose weights scripts/fit-injection.sh fitted
// on the tuning sets and committed as signal_weights.json. A block scoring at least the
// model's medium threshold is a finding (high from its high threshold), and the evidence
// lists the signals that fired.

// blockMax: a longer run of prose is judged in windows of this many lines.
const blockMax = 6

// payloadAfter: how many lines after a block its payload may sit in (the Markdown code block
// right after it, up to this length).
const payloadAfter = 40

// pairs are the conjunctions the threat model names; each is a feature of its own, named
// "a&b".
var pairs = [][2]string{
	{sigVocative, sigImperative},
	{sigReviewer, sigSuppression},
	{sigAI, sigSuppression},
	{sigAgent, sigSuppression},
	{sigSuppression, sigFindings},
	{sigSuppression, sigReview},
	{sigSuppression, sigVerdict},
	{sigSuppression, sigSecrets},
	{sigSuppression, sigHooks},
	{sigSuppression, sigTests},
	{sigInsert, sigYourCode},
	{sigInsert, sigPayload},
	{sigExecute, sigPayload},
	{sigFetch, sigExecute},
	{sigSend, sigSecrets},
	{sigSecrecy, sigExecute},
	{sigSecrecy, sigSend},
	{sigSecrecy, sigFetch},
	{sigSecrecy, sigSuppression},
	{sigImperative, sigVerdict},
}

// Model is the fitted logistic model: score = σ(Bias + Σ Weights[feature]).
type Model struct {
	FittedOn  string             `json:"fitted_on"`
	Bias      float64            `json:"bias"`
	Medium    float64            `json:"medium"`
	High      float64            `json:"high"`
	Weights   map[string]float64 `json:"weights"`
	Threshold string             `json:"threshold_rule,omitempty"`
}

//go:embed signal_weights.json
var weightsJSON []byte

// model is read once; a test checks that the committed data parses and names only known
// features, so a broken file cannot ship (an unreadable one leaves the signal path off).
var model = func() *Model {
	m, err := ParseModel(weightsJSON)
	if err != nil {
		return nil
	}
	return m
}()

// ParseModel reads a model (signal_weights.json).
func ParseModel(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("failed to read the signal weights: %w", err)
	}
	known := map[string]bool{}
	for _, f := range Features() {
		known[f] = true
	}
	for k := range m.Weights {
		if !known[k] {
			return nil, fmt.Errorf("failed to read the signal weights: unknown feature %q", k)
		}
	}
	if m.Medium <= 0 || m.Medium >= 1 || m.High < m.Medium || m.High >= 1 {
		return nil, fmt.Errorf("failed to read the signal weights: thresholds %v, %v out of order", m.Medium, m.High)
	}
	return &m, nil
}

// Features lists every feature of the model, in a fixed order: each signal, each carrier,
// each pair.
func Features() []string {
	var out []string
	for i := range signals {
		out = append(out, signals[i].name)
	}
	out = append(out, sigPayload, sigAgentFile, sigComment, sigHidden, sigMessage)
	for _, p := range pairs {
		out = append(out, p[0]+"&"+p[1])
	}
	return out
}

// withPairs adds to the fired signals the pairs that fired together in one window; the payload
// and the carriers pair with any window.
func withPairs(fired []string, win [][]string) []string {
	sort.Strings(fired)
	out := fired
	block := func(s string) bool { return s == sigPayload || strings.HasPrefix(s, "carrier=") }
	for _, p := range pairs {
		for _, w := range win {
			if (block(p[0]) && slices.Contains(fired, p[0]) || slices.Contains(w, p[0])) &&
				(block(p[1]) && slices.Contains(fired, p[1]) || slices.Contains(w, p[1])) {
				out = append(out, p[0]+"&"+p[1])
				break
			}
		}
	}
	return out
}

// Score returns the model's score of a feature list (signals, carriers and pairs); 0 for a
// block that is not eligible.
func (m *Model) Score(features []string) float64 {
	if !eligible(features) {
		return 0
	}
	z := m.Bias
	for _, f := range features {
		z += m.Weights[f]
	}
	return 1 / (1 + math.Exp(-z))
}

// Evidence renders the fired signals (not the pairs, which only repeat them), the strongest
// first: "addressee=reviewer + suppression + object=findings".
func (m *Model) Evidence(features []string) string {
	var s []string
	for _, f := range features {
		if !strings.Contains(f, "&") {
			s = append(s, f)
		}
	}
	sort.SliceStable(s, func(a, b int) bool {
		wa, wb := m.Weights[s[a]], m.Weights[s[b]]
		if wa != wb {
			return wa > wb
		}
		return s[a] < s[b]
	})
	return strings.Join(s, " + ")
}

// sigLine is one new-side line of a hunk as the block builder sees it.
type sigLine struct {
	line    int    // new-file line number
	raw     string // the line as written
	prose   string // its prose (comments, docstrings, text), lowercased; "" for none
	carrier string // a hidden carrier of the prose, or ""
	code    bool   // the line holds code (outside prose, or in a Markdown code block)
	item    bool   // the line opens a list item or a heading: a block of its own
	added   bool
}

// block is a run of added lines with prose, and the features that fired on it.
type block struct {
	from, to int // indexes into the hunk's sigLines, to exclusive
	features []string
}

// addedLine reads an added line for the block builder: its lowercased prose (comment
// decoration trimmed), its hidden carrier, whether it holds code or opens a list item.
func addedLine(kind *lang.File, line int, text string, segs []lang.Span) sigLine {
	p, c, code := proseOf(kind, text, segs)
	if kind.Prose && c == "" {
		p = quotedProse.ReplaceAllString(p, " ") // a quotation in prose is discussed, not said
	}
	t := strings.TrimLeft(text, " \t")
	if !kind.Prose {
		t = strings.TrimLeft(p, " ")
	}
	return sigLine{line: line, raw: text, prose: p, carrier: c, code: code, item: listItem(t), added: true}
}

// quotedProse is a quotation or inline code of some length in a prose file's line: "return no
// findings", `ignore the hooks`. The phrase checks read such text as discussed, not said
// (jailbreak.go's discussed); the signals leave it out for the same reason.
var quotedProse = lazyre.New("\"[^\"\n]{8,}\"|\u201c[^\u201d\n]{8,}\u201d|`[^`\n]{8,}`")

// listItem reports text that opens a Markdown list item or heading.
func listItem(t string) bool {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "#") {
		return true
	}
	i := 0
	for i < len(t) && i < 3 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// proseOf returns the lowercased prose of a line (comment decoration trimmed), its hidden
// carrier, and whether the line holds code.
func proseOf(kind *lang.File, text string, segs []lang.Span) (string, string, bool) {
	if len(segs) == 0 {
		return "", "", strings.TrimSpace(text) != ""
	}
	var b strings.Builder
	carrier, code, covered := "", false, 0
	for _, sp := range segs {
		if sp.Code {
			code = true
			continue
		}
		t := strings.Trim(text[sp.S:sp.E], " \t*#/-!<>;")
		if t == "" {
			continue
		}
		covered += sp.E - sp.S
		if sp.Carrier != "" {
			carrier = sp.Carrier
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	if !kind.Prose && len(strings.TrimSpace(text)) > covered+2 {
		code = true
	}
	if kind.Prose && len(segs) == 0 && strings.TrimSpace(text) != "" {
		code = true
	}
	return lang.LowerASCII(b.String()), carrier, code
}

// blocks cuts a hunk's lines into blocks and fires the signals of each.
func blocks(kind *lang.File, meta bool, ls []sigLine) []block {
	var out []block
	for i := 0; i < len(ls); {
		if !ls[i].added || ls[i].prose == "" {
			i++
			continue
		}
		j := i
		for j < len(ls) && j-i < blockMax && ls[j].added && ls[j].prose != "" && (j == i || !ls[j].code && !ls[j].item) {
			j++
		}
		if kind.Agent || mayAddress(ls[i:j]) {
			out = append(out, block{from: i, to: j, features: blockFeatures(kind, meta, ls, i, j)})
		}
		i = j
	}
	return out
}

// gateSignals are the signals one of which an eligible block fires outside an agent file (see
// eligible): a block without any of them is not fired at all, which keeps the scorer off most
// comments and prose.
var gateSignals = func() []*signal {
	var out []*signal
	for i := range signals {
		switch signals[i].name {
		case sigAI, sigAgent, sigReviewer, sigVocative, sigInsert:
			out = append(out, &signals[i])
		}
	}
	return out
}()

// gateWords: every match of a gate signal holds one of them at the start of a word (each
// expression opens the word with \b, a space or a hyphen), so a block with none at a word's
// start is not looked at further ("main" and "said" hold "ai", never at a word's start).
var gateWords = func() []string {
	var out []string
	for _, s := range gateSignals {
		out = union(out, s.words)
	}
	return out
}()

// mayAddress reports whether a block's lines fire a gate signal.
func mayAddress(ls []sigLine) bool {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.prose)
		b.WriteByte(' ')
	}
	low := b.String()
	if !mayGate(low) {
		return false
	}
	for _, s := range gateSignals {
		if s.may(low) && s.re.MatchString(low) {
			return true
		}
	}
	return false
}

// blockFeatures fires the signals of lines i..j and the payload after them. The signals are
// fired on windows of two lines (a sentence wraps): a single signal counts anywhere in the
// block, a pair only when both fire in one window (two rules on lines of their own do not
// make one order).
func blockFeatures(kind *lang.File, meta bool, ls []sigLine, i, j int) []string {
	hidden := false
	var f []string
	var win [][]string
	for k := i; k < j; k++ {
		hidden = hidden || ls[k].carrier != ""
		if k+1 < j || k == i {
			text := ls[k].prose
			if k+1 < j {
				text += " " + ls[k+1].prose
			}
			w := fire(text, nil)
			win = append(win, w)
			f = union(f, w)
		}
	}
	// The payload is code the text hands its reader: in prose, the block's lines and the
	// code (a Markdown code block) right after it; in a code file only the block's own
	// comment, never the program around it (a comment above socket code is documentation).
	var raw strings.Builder
	for k := i; k < j; k++ {
		raw.WriteString(ls[k].prose)
		raw.WriteByte('\n')
	}
	for k := j; kind.Prose && k < min(len(ls), j+payloadAfter) && (ls[k].code || fenceOrBlank(ls[k].raw)); k++ {
		raw.WriteString(ls[k].raw)
		raw.WriteByte('\n')
	}
	if payloadNear(raw.String()) {
		f = append(f, sigPayload)
	}
	switch {
	case meta:
		f = append(f, sigMessage)
	case kind.Agent:
		f = append(f, sigAgentFile)
	case !kind.Prose:
		f = append(f, sigComment)
	}
	if hidden {
		f = append(f, sigHidden)
	}
	return withPairs(f, win)
}

// fenceOrBlank reports a blank line or a Markdown fence (what may stand between a paragraph
// and its snippet).
func fenceOrBlank(raw string) bool {
	t := strings.TrimSpace(raw)
	return t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// hasWordStart reports whether one of words occurs in low at the start of a word (after a
// byte that is not an ASCII letter, digit or underscore, as \b reads it).
func hasWordStart(low string, words []string) bool {
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(low[i:], w)
			if k < 0 {
				break
			}
			k += i
			if k == 0 || !isWordByte(low[k-1]) {
				return true
			}
			i = k + 1
		}
	}
	return false
}

// gateByFirst holds the gate words by their first byte, and gatePairs their first two bytes
// (a bit set per first byte), for mayGate's one pass.
var gateByFirst, gatePairs = func() (t [256][]string, p [256][4]uint64) {
	for _, w := range gateWords {
		t[w[0]] = append(t[w[0]], w)
		p[w[0]][w[1]>>6] |= 1 << (w[1] & 63)
	}
	return t, p
}()

// mayGate is hasWordStart(low, gateWords) in one pass over low: at each word start, the gate
// words that begin with its byte are compared.
func mayGate(low string) bool {
	for i := 0; i < len(low); i++ {
		if i > 0 && isWordByte(low[i-1]) || i+1 >= len(low) || gatePairs[low[i]][low[i+1]>>6]&(1<<(low[i+1]&63)) == 0 {
			continue
		}
		for _, w := range gateByFirst[low[i]] {
			if strings.HasPrefix(low[i:], w) {
				return true
			}
		}
	}
	return false
}

// union adds the names of b missing from a.
func union(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// eligible reports a block the threat model can mean: one that addresses a model or an agent
// (or sits in an agent file), or hands its reader a snippet with dangerous code. Any other
// block scores zero: an order to a person ("Reviewers: approve only after CI is green", "add
// the following code to your main function") is documentation.
func eligible(features []string) bool {
	has := func(s string) bool { return slices.Contains(features, s) }
	return has(sigAI) || has(sigAgent) || has(sigReviewer) || has(sigVocative) || has(sigAgentFile) ||
		has(sigInsert) && has(sigPayload)
}

// sigLines reads a whole text as added lines of a file at path (for BlockSignals and tests).
func sigLines(kind *lang.File, content string) []sigLine {
	var st lang.State
	var out []sigLine
	for i, text := range strings.Split(content, "\n") {
		text = strings.TrimSuffix(text, "\r")
		out = append(out, addedLine(kind, i+1, text, kind.Spans(text, &st)))
	}
	return out
}

// BlockSignals returns the features of every block of a file's content read as added lines
// (scripts/injfit.go fits the model on them): one list per block, signals, carriers and
// pairs. meta reads the content as a commit message.
func BlockSignals(path, content string, meta bool) [][]string {
	kind := lang.Classify(path)
	if meta {
		kind = lang.Classify(metaProse)
	}
	var out [][]string
	for _, b := range blocks(&kind, meta, sigLines(&kind, content)) {
		out = append(out, b.features)
	}
	return out
}

// blockLine returns the line of a block to report: one the other checks reported already (one
// finding per line, their details merged), else the first with the most signals of its own.
func (fs *fileScan) blockLine(b block) int {
	for k := b.from; k < b.to; k++ {
		for i := len(fs.lines) - 1; i >= 0 && fs.lines[i].line >= fs.sig[b.from].line; i-- {
			if fs.lines[i].line == fs.sig[k].line {
				return k
			}
		}
	}
	at, best := b.from, -1
	for k := b.from; k < b.to; k++ {
		if n := len(fire(fs.sig[k].prose, nil)); n > best {
			at, best = k, n
		}
	}
	return at
}

// scoreSignals reports the blocks of the hunk just scanned that the model scores at medium or
// above, on the block's first line with the most signals of its own.
func (fs *fileScan) scoreSignals() {
	if model == nil || len(fs.sig) == 0 {
		return
	}
	for _, b := range blocks(&fs.kind, fs.f.Meta != "", fs.sig) {
		p := model.Score(b.features)
		if p < model.Medium {
			continue
		}
		at := fs.blockLine(b)
		l := fs.sig[at]
		fs.reportAt(l.line, l.raw, hit{
			detail: fmt.Sprintf("signals %s (score %.2f)", model.Evidence(b.features), p),
			conf:   p, medium: p < model.High,
		})
	}
	fs.sig = fs.sig[:0]
}

// Eligible reports whether the model scores a block's features at all (see eligible).
func Eligible(features []string) bool { return eligible(features) }
