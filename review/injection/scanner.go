package injection

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/injection/hidden"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// ctxLines is how often (in lines) the per-line loop checks that the review's time is not up.
const ctxLines = 4096

// Scanner finds text in the change that tries to address a reviewer or an agent.
type Scanner struct{}

// Name implements review.Scanner.
func (Scanner) Name() string { return "injection" }

// scans keeps file scans with their scratch buffers (the byte-pair sets are 16 KB) for the next
// unit: a history's tens of thousands of files would otherwise each allocate their own.
var scans = sync.Pool{New: func() any { return &fileScan{bg: new(bigrams), bgJoin: new(bigrams)} }}

// Scan implements review.Scanner: the per-file loop. A commit's or annotated tag's message
// (the unit's Meta) is prose people and agents read (in logs, reviews, changelogs): it is
// inspected like any added text. Names and refs are not prose.
func (Scanner) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	fs := scans.Get().(*fileScan)
	defer scans.Put(fs)
	var texts []*diff.FileDiff
	for i := range u.Files {
		if f := &u.Files[i]; f.Status != diff.Deleted && !f.Binary {
			texts = append(texts, f)
		}
	}
	for i := range u.Meta {
		if f := &u.Meta[i]; f.Meta == diff.MetaMessage || f.Meta == diff.MetaTagMessage {
			texts = append(texts, f)
		}
	}
	for _, f := range texts {
		if err := ctx.Err(); err != nil {
			return err
		}
		fs.start(ctx, f)
		fs.scan()
		if err := ctx.Err(); err != nil {
			return err
		}
		fs.emit(u, r)
	}
	return nil
}

type hit struct {
	detail string
	conf   float64
	focus  int            // byte offset in the line the evidence should show
	kind   hidden.HitKind // the character signal's kind (weight.go); "" for text signals
	low    bool           // often innocent alone: the line is low unless another hit is not
	medium bool           // a signal score below the model's high threshold (score.go)
}

type lineReport struct {
	line int
	text string
	hits []hit
}

type pendingTurn struct {
	line  int
	text  string
	label string
	at    int
}

type fileScan struct {
	ctx       context.Context // checked every ctxLines lines
	f         *diff.FileDiff
	kind      lang.File
	data      string        // why the file is data (weight.go), or ""
	test      bool          // test code or test data (lang.IsTestPath)
	lines     []lineReport  // lines with hits
	cur       lineReport    // the line being scanned
	validTurn bool          // a system or assistant turn was found in the file's added lines
	userTurns []pendingTurn // user/human turns, reported only next to a validated turn
	lower     []byte        // scratch buffer
	tp        trigPos       // trigger positions of a long line (reused)
	ln        line          // the added line being inspected (reused)
	words     []word        // the words of a line, for intent.go (reused)
	toks      [][2]int      // the space-separated tokens of a line, for flood.go (reused)
	joinAt    int           // > 0 while wrapped searches a joined line: where the next line starts
	bg        *bigrams      // the byte pairs of the line being inspected
	bgJoin    *bigrams      // those of a joined line (wrapped)
	joinLow   []byte        // a joined line lowercased (wrapped; reused)
	joinSegs  []lang.Span   // its prose spans (reused)
	sig       []sigLine     // the hunk's new-side lines for the signal scorer (score.go; reused)
}

// hunkView is a window on one hunk's new side (context and added lines): the texts and prose
// spans of the lines a scanned line looks at (the three before it and the next one), and where
// a reviewer may last have been addressed. Lines are indexed in the hunk's new side.
type hunkView struct {
	texts     [viewLines]string
	segs      [viewLines][]lang.Span
	addrCand  int // index of the last line holding an addressee word
	agentCand int // index of the last line speaking to AI agents (agent.go)
}

// viewLines is the window of a hunkView: lines j-3 to j+1.
const viewLines = 5

// put computes line j's spans into its slot, reusing the slot's array: a line's spans are
// read only while it is in the window.
func (hv *hunkView) put(j int, text string, kind *lang.File, st *lang.State) {
	k := j % viewLines
	hv.texts[k], hv.segs[k] = text, kind.AppendSpans(hv.segs[k][:0], text, st)
}

func (hv *hunkView) text(j int) string     { return hv.texts[j%viewLines] }
func (hv *hunkView) seg(j int) []lang.Span { return hv.segs[j%viewLines] }

// metaProse is the name git metadata is classified by: a plain text file.
const metaProse = "COMMIT_EDITMSG.txt"

// start readies fs for file f: everything of the file before is dropped, the scratch buffers
// are kept (a byte-pair set clears itself line by line).
func (fs *fileScan) start(ctx context.Context, f *diff.FileDiff) {
	kind := f.Path()
	if f.Meta != "" {
		kind = metaProse // git metadata is plain prose, whatever its name looks like
	}
	*fs = fileScan{ctx: ctx, f: f, kind: lang.Classify(kind), data: dataPath(f.Path()), test: lang.IsTestPath(f.Path()), lower: fs.lower[:0], tp: fs.tp,
		words: fs.words[:0], toks: fs.toks[:0], sig: fs.sig[:0], bg: fs.bg, bgJoin: fs.bgJoin, joinLow: fs.joinLow[:0], joinSegs: fs.joinSegs[:0]}
}

// report adds a hit to the line being scanned (always the last line with hits, or a new one).
func (fs *fileScan) report(h hit) {
	if n := len(fs.lines); n > 0 && fs.lines[n-1].line == fs.cur.line {
		fs.lines[n-1].hits = append(fs.lines[n-1].hits, h)
		return
	}
	fs.lines = append(fs.lines, lineReport{line: fs.cur.line, text: fs.cur.text, hits: []hit{h}})
}

// hitsOnCur returns how many hits the line being scanned has so far.
func (fs *fileScan) hitsOnCur() int {
	if n := len(fs.lines); n > 0 && fs.lines[n-1].line == fs.cur.line {
		return len(fs.lines[n-1].hits)
	}
	return 0
}

func (fs *fileScan) reportAt(line int, text string, h hit) {
	for i := len(fs.lines) - 1; i >= 0; i-- {
		if fs.lines[i].line == line {
			fs.lines[i].hits = append(fs.lines[i].hits, h)
			return
		}
	}
	fs.lines = append(fs.lines, lineReport{line: line, text: text, hits: []hit{h}})
}

// scan walks every hunk: context lines carry comment state and addressees, added lines are
// inspected. Deleted lines are not part of the new file and are skipped entirely.
func (fs *fileScan) scan() {
	for hi := range fs.f.Hunks {
		if !fs.scanHunk(&fs.f.Hunks[hi]) {
			return
		}
	}
	fs.reportUserTurns()
	sort.SliceStable(fs.lines, func(a, b int) bool { return fs.lines[a].line < fs.lines[b].line })
}

// scanHunk walks the new side of a hunk, one line behind the spans it computes (a line looks
// at the next one's prose); it returns false once the review's time is up.
func (fs *fileScan) scanHunk(h *diff.Hunk) bool {
	var st lang.State
	hv := hunkView{addrCand: -100, agentCand: -100}
	var prev diff.Line
	j := -1
	for _, l := range h.Lines() {
		if l.Kind != diff.Add && l.Kind != diff.Context {
			continue
		}
		j++
		text := strings.TrimSuffix(l.Text, "\r")
		hv.put(j, text, &fs.kind, &st)
		if j > 0 && !fs.step(&hv, j-1, prev, true) {
			return false
		}
		prev = l
	}
	if j >= 0 && !fs.step(&hv, j, prev, false) {
		return false
	}
	fs.scoreSignals()
	return true
}

// step inspects line j of the hunk view (hasNext: line j+1 is in the view too).
func (fs *fileScan) step(hv *hunkView, j int, l diff.Line, hasNext bool) bool {
	if j%ctxLines == 0 && fs.ctx != nil && fs.ctx.Err() != nil {
		return false
	}
	if l.Kind != diff.Add {
		fs.sig = append(fs.sig, sigLine{line: l.New, raw: hv.text(j)})
		fs.contextLine(hv, j)
		return true
	}
	fs.sig = append(fs.sig, addedLine(&fs.kind, l.New, hv.text(j), hv.seg(j)))
	next := ""
	if hasNext {
		next = firstProse(hv.text(j+1), hv.seg(j+1))
	}
	fs.cur = lineReport{line: l.New, text: hv.text(j)}
	fs.scanLine(hv, j, next)
	return true
}

// contextLine notes an addressee, and text speaking to AI agents, in the prose of a context
// line.
func (fs *fileScan) contextLine(hv *hunkView, j int) {
	if len(hv.seg(j)) == 0 {
		return
	}
	fs.lower = lang.AppendLower(fs.lower[:0], hv.text(j))
	m := triggers(fs.lower)
	if m&tAddr != 0 {
		hv.addrCand = j
	}
	if !fs.kind.Agent && agentSpoken(m, fs.lower, &searcher{low: fs.lower}) {
		hv.agentCand = j
	}
}

// reportUserTurns reports the user/human turns once a system or assistant turn proved the
// file fakes a conversation.
func (fs *fileScan) reportUserTurns() {
	if !fs.validTurn {
		return
	}
	for _, p := range fs.userTurns {
		fs.reportAt(p.line, p.text, hit{
			detail: fmt.Sprintf("fake conversation turn %q next to a fake system/assistant turn", p.label+":"),
			conf:   0.75, focus: p.at,
		})
	}
	sort.SliceStable(fs.lines, func(a, b int) bool { return fs.lines[a].line < fs.lines[b].line })
}

// emit turns the per-line hits into findings, one per line, in new-file order.
func (fs *fileScan) emit(u *diff.Unit, r *review.Result) {
	p := fs.f.Path()
	for _, lr := range fs.lines {
		if len(lr.hits) == 0 {
			continue
		}
		conf, details := merge(lr.hits)
		sev, why := fs.severity(lr)
		if why != "" {
			why = " (reported low: " + why + ")"
		}
		r.Add(review.Finding{
			RuleID: review.InjectionRuleID, Severity: sev, Confidence: conf, CWE: []string{"CWE-1427"},
			Path: p, Line: lr.line, EndLine: lr.line,
			Message: "prompt injection: " + strings.Join(details, "; ") + why + review.InCommit(u),
			Source:  "injection",
		}.LineEvidence(lr.text, lr.hits[0].focus))
	}
}

// merge returns the confidence of a line's hits (the highest, a little more when several
// signals agree) and their distinct details, in order.
func merge(hits []hit) (float64, []string) {
	conf := 0.0
	var details []string
	seen := map[string]bool{}
	for _, h := range hits {
		conf = max(conf, h.conf)
		if !seen[h.detail] {
			seen[h.detail] = true
			details = append(details, h.detail)
		}
	}
	if len(details) > 1 {
		conf += 0.05
	}
	conf = min(conf, 1)
	if conf <= 0 {
		conf = 0.5
	}
	return conf, details
}
