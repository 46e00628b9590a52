package redact

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// engine runs gitleaks' rules the way gitleaks would, but only where they can match. A rule
// whose every match holds one of its keywords and spans a bounded number of lines (read from
// its regex, see reach.go) sees windows around the lines holding a keyword (found with one pass
// over the text, decoded text included); any other rule sees the whole text whenever gitleaks
// would run it. gitleaks' decoder (base64, hex, percent and unicode escapes) is the costly
// part of a detector: each line is decoded once, a rule's decoding detector sees only the lines
// within its reach of a line that decodes, and only when its regex matches the decoded text;
// elsewhere the rule's detector without a decoder finds the same. A rule's regex is compiled the
// first time a scan holds one of its keywords, its gitleaks detector the first time that regex
// matches (most texts with a keyword hold no match).
//
// The engine is shared by concurrent scans: everything a scan computes lives in that call.
type engine struct {
	set    ruleSet
	ids    []string // rule ids, in the set's order
	always []int    // rules without usable keywords: they see the whole text of every scan
	// slots has a bit set for every two-byte prefix of a keyword, and index the keywords of
	// each such prefix: 8 KB tested at every byte of a scan, where a table of all 65,536
	// prefixes cost every fresh process 1.5 MB of memory to fault in and zero
	slots [1 << 16 / 64]uint64
	index map[uint16][]kwEntry
	reach []lazyReach // per rule: newlines a match can span (windows, pieces), or unbounded (whole text)
	paths []lazyPath  // per rule: its path regex, for path-only rules
	dets  []lazyDetector
}

// lazyReach is a rule's reach, read from its regex the first time a scan needs it: reading
// every rule's regex up front cost a fresh process (the agent guard, a hook) ~20 ms.
type lazyReach struct {
	once  sync.Once
	n     int
	ready bool // n is known (rules without usable keywords: computed up front)
}

type kwEntry struct {
	kw    string
	rules []int
}

// lazyDetector is one rule's matching, built in two steps: its regex and gates the first time a
// scan sees one of its keywords, its gitleaks detector (the rule translated with its
// allowlists, the global allowlist, the keyword tries) only the first time its regex matches:
// most texts with a keyword hold no match, and the detector costs a fresh process most of the
// rule's start.
type lazyDetector struct {
	once  sync.Once
	d     *detect.Detector
	plain *detect.Detector // the same rule without decoding, for text with nothing to decode
	one   config.Config    // the rule alone, for plain
	pOnce sync.Once
	err   error // the detector's
	gOnce sync.Once
	gErr  error          // the regex's
	re    *regexp.Regexp // the rule's own regex (gitleaks' Regexp is the standard library's)
	// gate matches exactly the texts re matches, cheaper (semiGenericGate); re if none
	gate *regexp.Regexp
	// at is the gate anchored at the start of its text, for a semi-generic rule (nil otherwise):
	// it is tried only where one of keys starts (keysMatch)
	at *regexp.Regexp
	// keys: the identifiers of a semi-generic regex (generic.go), tried first; nil otherwise
	keys []string
	// shape, if set, is a fast superset of the regex written for it (shapes.go), tried first
	shape func(text string) bool
	// win matches a long text around the keywords only (window.go)
	win windows
}

// matches reports whether the rule's regex matches text (the fast superset first); low keeps
// the scan's last text lowercased (nil: none kept).
func (l *lazyDetector) matches(text string, low *lowered) bool {
	if l.at != nil && foldsInASCII(text) {
		return keysMatch(text, low.of(text), l.keys, l.at)
	}
	if l.win.use(text) {
		return l.win.match(text, low.of(text), l.matchText)
	}
	return l.matchText(text)
}

// lowered is one scan's text with its ASCII letters lowercased (lowerASCIIBytes), made the
// first time a rule needs it: a long line is lowercased once, not once a rule. from is the
// offset in the text of the span asked for next (-1: a text that is not a span of it, such as
// a decoded one).
type lowered struct {
	text, low string
	done      bool
	from      int
}

// of returns s lowercased: the matching span of the scan's lowered text when s is the span at
// m.from, else s lowered on its own.
func (m *lowered) of(s string) string {
	if m == nil || m.from < 0 || m.from+len(s) > len(m.text) || m.text[m.from:m.from+len(s)] != s {
		return lowerASCIIBytes(s)
	}
	if !m.done {
		m.low, m.done = lowerASCIIBytes(m.text), true
	}
	return m.low[m.from : m.from+len(s)]
}

// matchText is matches on the whole of text.
func (l *lazyDetector) matchText(text string) bool {
	return (l.keys == nil || keysMayMatch(text, l.keys)) && (l.shape == nil || l.shape(text)) && l.gate.MatchString(text)
}

// lazyPath is a path-only rule's path regex, compiled on first use.
type lazyPath struct {
	once sync.Once
	re   *regexp.Regexp
}

func newEngine(set ruleSet) *engine {
	n := set.size()
	e := &engine{set: set, ids: make([]string, n), reach: make([]lazyReach, n), dets: make([]lazyDetector, n), paths: make([]lazyPath, n), index: map[uint16][]kwEntry{}}
	byKW := map[string][]int{}
	for i := 0; i < n; i++ {
		id := set.id(i)
		e.ids[i] = id
		src := set.regexSrc(i)
		if src == "" {
			continue // path-only rules run in ScanPath
		}
		e.dets[i].keys = semiGenericKeys(src)
		e.dets[i].shape = shapeOf(src)
		kws := set.keywords(i)
		usable := len(kws) > 0
		for _, k := range kws {
			if len(k) < 2 {
				usable = false
			}
		}
		if !usable {
			// The whole text, always; cut in pieces where a match cannot cross.
			e.always = append(e.always, i)
			reach, _ := analyse(src, kws)
			e.reach[i] = lazyReach{n: reach, ready: true}
			continue
		}
		for _, k := range kws {
			byKW[k] = append(byKW[k], i)
		}
	}
	for k, rules := range byKW {
		slot := uint16(k[0])<<8 | uint16(k[1])
		e.slots[slot/64] |= 1 << (slot % 64)
		e.index[slot] = append(e.index[slot], kwEntry{kw: k, rules: rules})
	}
	return e
}

// reachOf returns rule i's reach: for a rule with keywords, what analyse reads from its regex,
// or unbounded if a match need not hold a keyword.
func (e *engine) reachOf(i int) int {
	l := &e.reach[i]
	if l.ready {
		return l.n
	}
	l.once.Do(func() {
		reach, anchored := analyse(e.set.regexSrc(i), e.set.keywords(i))
		if !anchored {
			reach = unbounded
		}
		l.n = reach
	})
	return l.n
}

// detector returns the gitleaks detector for one rule, compiling the rule on first use.
func (e *engine) detector(i int) (*detect.Detector, error) {
	l := &e.dets[i]
	l.once.Do(func() {
		r, err := e.set.rule(i)
		if err != nil {
			l.err = err
			return
		}
		globals, err := e.set.globals()
		if err != nil {
			l.err = err
			return
		}
		id := e.ids[i]
		one := config.Config{
			Rules:        map[string]config.Rule{id: r},
			Keywords:     map[string]struct{}{},
			Allowlists:   globals,
			OrderedRules: []string{id},
		}
		for _, k := range r.Keywords {
			one.Keywords[strings.ToLower(k)] = struct{}{}
		}
		if len(r.RequiredRules) > 0 {
			l.err = fmt.Errorf("gitleaks rule %s requires other rules, which tollgate does not support", id)
			return
		}
		d := detect.NewDetector(one)
		d.MaxDecodeDepth = 5 // as gitleaks' CLI does
		d.IgnoreGitleaksAllow = true
		l.d, l.one = d, one
	})
	return l.d, l.err
}

// gates compiles rule i's regex and the gates in front of it (matches), on first use.
func (e *engine) gates(i int) error {
	l := &e.dets[i]
	l.gOnce.Do(func() {
		re, err := e.set.regex(i)
		if err != nil {
			l.gErr = err
			return
		}
		l.re, l.gate = re, re
		if re != nil {
			l.win = newWindows(re.String(), e.set.keywords(i))
		}
		if l.keys != nil {
			l.gate, l.at = semiGenericGate(re)
		}
	})
	return l.gErr
}

// plain returns rule i's detector without decoding, built on first use (after detector(i)
// succeeded): each gitleaks detector builds its own keyword trie.
func (e *engine) plain(i int) *detect.Detector {
	l := &e.dets[i]
	l.pOnce.Do(func() {
		l.plain = detect.NewDetector(l.one)
		l.plain.IgnoreGitleaksAllow = true
	})
	return l.plain
}

// match calls hit for every rule one of whose keywords occurs in lower.
func (e *engine) match(lower string, hit func(rule int)) {
	for i := 0; i+1 < len(lower); i++ {
		slot := uint16(lower[i])<<8 | uint16(lower[i+1])
		if e.slots[slot/64]&(1<<(slot%64)) == 0 {
			continue
		}
		for _, ent := range e.index[slot] {
			if strings.HasPrefix(lower[i:], ent.kw) {
				for _, r := range ent.rules {
					hit(r)
				}
			}
		}
	}
}

// scanState is what one scan computes: nothing of it is shared with other scans. Its memory
// is a small fraction of the text's: no per-line arrays.
type scanState struct {
	lines     lineIndex
	low       string              // the text with its ASCII letters lowercased (lowerASCIIBytes)
	hits      map[int][]int       // rule -> lines holding one of its keywords, ascending
	decodable []int               // lines gitleaks' decoder would decode something on, ascending
	units     [][2]int            // decoding units of several lines (joined by U+ runs), ascending
	depths    map[int]decodedUnit // by first line: the decoding units that decode
	// decodedMemo: decoded texts of the line ranges the decoding detector was about to see
	decodedMemo map[[2]int][]string
}

// prepare finds, in one pass, the keyword lines of every rule and the lines that decode.
// Lines are grouped in decoding units: a line alone, or lines a U+ run crosses. It stops early
// (with ctx's error) once ctx ends. Every line of text ends in a newline.
func (e *engine) prepare(ctx context.Context, text string) (*scanState, error) {
	// depths: made at the first unit that decodes (few do); the text lowercased once, not a
	// line at a time
	st := &scanState{lines: newLineIndex(text), low: lowerASCIIBytes(text), hits: map[int][]int{}}
	n := st.lines.n
	for i, off, next := 0, 0, 0; i < n; {
		if i >= next {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			next = i + 4096
		}
		j, end := i, off+strings.IndexByte(text[off:], '\n')
		for j+1 < n && joinsNext(text[off:end]) {
			j++
			end += 1 + strings.IndexByte(text[end+1:], '\n')
		}
		unit := text[off:end] // lines i..j joined by newlines
		if j > i {
			st.units = append(st.units, [2]int{i, j})
		}
		mark := func(r int) {
			h := st.hits[r]
			if len(h) > 0 && h[len(h)-1] >= i {
				return
			}
			for k := i; k <= j; k++ {
				h = append(h, k)
			}
			st.hits[r] = h
		}
		lower := st.low[off:end] // what strings.ToLower makes of an ASCII unit
		if !isASCII(unit) {
			lower = strings.ToLower(unit)
		}
		e.match(lower, mark)
		if ds := decodeDepths(unit); len(ds) > 0 {
			for k := i; k <= j; k++ {
				st.decodable = append(st.decodable, k)
			}
			if st.depths == nil {
				st.depths = map[int]decodedUnit{}
			}
			st.depths[i] = decodedUnit{last: j, depths: ds}
			for _, d := range ds {
				e.match(strings.ToLower(d), mark)
			}
		}
		i, off = j+1, end+1
	}
	return st, nil
}

// unit returns the first and last line of line i's decoding unit.
func (st *scanState) unit(i int) (int, int) {
	k := sort.Search(len(st.units), func(k int) bool { return st.units[k][1] >= i })
	if k < len(st.units) && st.units[k][0] <= i {
		return st.units[k][0], st.units[k][1]
	}
	return i, i
}

// decodeWindows are the parts of window w that the decoding detector of a rule with the given
// reach must see: the lines within reach+1 of a line that decodes (whole decoding units), or
// all of w for a rule without a bounded reach; none when nothing in w decodes.
func (st *scanState) decodeWindows(w [2]int, reach int) [][2]int {
	lo := sort.SearchInts(st.decodable, w[0])
	hi := sort.SearchInts(st.decodable, w[1]+1)
	if lo >= hi {
		return nil
	}
	if reach == unbounded {
		return [][2]int{w}
	}
	var out [][2]int
	for _, d := range st.windows(st.decodable[lo:hi], reach) {
		if d = [2]int{max(d[0], w[0]), min(d[1], w[1])}; d[0] <= d[1] {
			out = append(out, d)
		}
	}
	return out
}

// decodedUnit is one decoding unit that decodes: its last line and its text after each pass.
type decodedUnit struct {
	last   int
	depths []string
}

// decodedTexts are lines d as each of gitleaks' decoding passes over them leaves them,
// computed once per scan from the units prepare decoded (the decoder finds no segment across a
// unit's end, so a range decodes unit by unit). A regex that matches none of them finds
// nothing the decoding detector would.
func (st *scanState) decodedTexts(d [2]int) []string {
	if t, ok := st.decodedMemo[d]; ok {
		return t
	}
	if st.decodedMemo == nil {
		st.decodedMemo = map[[2]int][]string{}
	}
	first, _ := st.unit(d[0])
	if _, last := st.unit(d[1]); first < d[0] || last > d[1] {
		// d cuts a unit of several lines: decode its text as gitleaks would see it
		out := decodeDepths(st.text(d))
		st.decodedMemo[d] = out
		return out
	}
	var out []string
	for depth := 0; ; depth++ {
		var b strings.Builder
		more := false
		for i := d[0]; i <= d[1]; {
			u, ok := st.depths[i]
			if !ok {
				b.WriteString(st.lines.span(i, i))
				i++
				continue
			}
			b.WriteString(u.depths[min(depth, len(u.depths)-1)])
			b.WriteByte('\n')
			more = more || depth+1 < len(u.depths)
			i = u.last + 1
		}
		out = append(out, b.String())
		if !more {
			break
		}
	}
	st.decodedMemo[d] = out
	return out
}

// decodableIn reports whether a line in [from, to] decodes.
func (st *scanState) decodableIn(from, to int) bool {
	k := sort.SearchInts(st.decodable, from)
	return k < len(st.decodable) && st.decodable[k] <= to
}

// scan finds secrets in lines (numbered from startLine), checking ctx between rules and
// windows.
func (e *engine) scan(ctx context.Context, path string, text string, startLine int) ([]Secret, error) {
	st, err := e.prepare(ctx, text)
	if err != nil {
		return nil, err
	}
	rules := make([]int, 0, len(st.hits)+len(e.always))
	for r := range st.hits {
		rules = append(rules, r)
	}
	rules = append(rules, e.always...)
	sort.Ints(rules)
	var out []Secret
	low := lowered{text: st.lines.text, low: st.low, done: true}
	for _, r := range rules {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e.set.hasPath(r) && !e.pathMayMatch(r, path) {
			continue // gitleaks runs a rule with a path and a regex only on the paths it matches
		}
		if err := e.gates(r); err != nil {
			return nil, err
		}
		l := &e.dets[r]
		pieces := e.pieces(st, r, st.lines.n)
		for _, w := range pieces {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			raw := st.text(w)
			low.from = st.lines.start(w[0])
			// gitleaks finds nothing plain where the rule's regex does not match the text: the
			// detector without a decoder runs only where it does.
			if l.re == nil || l.matches(raw, &low) {
				if _, err := e.detector(r); err != nil {
					return nil, err
				}
				out = append(out, detectText(e.plain(r), path, raw, startLine+w[0])...)
			}
			// The decoder runs only around the lines that decode: a decoded match holds its
			// rule's keyword in the decoded text, so it lies within reach of its line. Its
			// plain findings there repeat the pass above and are dropped as repeats.
			for _, d := range st.decodeWindows(w, e.reachOf(r)) {
				low.from = -1 // decoded texts
				if l.re != nil && !slices.ContainsFunc(st.decodedTexts(d), func(t string) bool { return l.matches(t, &low) }) {
					continue // nothing the rule finds after decoding
				}
				det, err := e.detector(r)
				if err != nil {
					return nil, err
				}
				out = append(out, detectText(det, path, st.text(d), startLine+d[0])...)
			}
		}
	}
	return dedupSecrets(out), nil
}

// pieces are the parts of the text (first and last line) that rule r must see: the whole text
// for a rule without a bounded reach; else the whole text (a rule without usable keywords) or
// the windows around its keyword lines, cut where no match can cross.
func (e *engine) pieces(st *scanState, r, lines int) [][2]int {
	whole := [][2]int{{0, lines - 1}}
	reach := e.reachOf(r)
	if reach == unbounded {
		return whole
	}
	wins := whole
	if !slices.Contains(e.always, r) {
		wins = st.windows(st.hits[r], reach)
	}
	var pieces [][2]int
	for _, w := range wins {
		pieces = append(pieces, st.pieces(e.dets[r].re, w, reach)...)
	}
	return pieces
}

// pathMayMatch reports whether rule i's path regex matches path (true when its source is not
// known): gitleaks' path-only rule finds nothing elsewhere, and its detector is not built.
func (e *engine) pathMayMatch(i int, path string) bool {
	l := &e.paths[i]
	l.once.Do(func() {
		if src := e.set.pathSrc(i); src != "" {
			l.re, _ = regexp.Compile(src) // a source that does not compile leaves it to gitleaks
		}
	})
	return l.re == nil || l.re.MatchString(path)
}

// scanPath runs the path-only rules on a file name.
func (e *engine) scanPath(path string) ([]Secret, error) {
	var out []Secret
	for i := range e.ids {
		if e.set.regexSrc(i) != "" || !e.set.hasPath(i) || !e.pathMayMatch(i, path) {
			continue
		}
		det, err := e.detector(i)
		if err != nil {
			return nil, err
		}
		for _, f := range det.Detect(fragment("", path, 0)) {
			if strings.HasPrefix(f.Match, "file detected: ") {
				s := fromFinding(f)
				s.PathOnly = true
				s.Value, s.Match, s.LineText = "", "", ""
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// detectText runs a gitleaks detector on text whose first line is numbered first, keeping
// content findings only.
func detectText(det *detect.Detector, path, text string, first int) []Secret {
	var out []Secret
	for _, f := range det.Detect(fragment(text, path, first)) {
		if strings.HasPrefix(f.Match, "file detected: ") {
			continue
		}
		s := fromFinding(f)
		// gitleaks counts a column from the newline before the line, not from the line's
		// first byte: past the fragment's first line both are one too large.
		if s.Line > first {
			s.StartColumn--
		}
		if s.EndLine > first {
			s.EndColumn--
		}
		out = append(out, s)
	}
	return out
}

// windows merges the keyword lines of one rule into [first, last] line ranges. A match holds
// a keyword and at most reach newlines, so it lies within reach lines of a keyword line; one
// more line on each side keeps the window's edges (start and end of text, \b) away from it.
// A window never cuts a decoding unit.
func (st *scanState) windows(at []int, reach int) [][2]int {
	var out [][2]int
	last := st.lines.n - 1
	for _, i := range at {
		from, to := max(i-reach-1, 0), min(i+reach+1, last)
		from, _ = st.unit(from)
		_, to = st.unit(to)
		if n := len(out); n > 0 && from <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], to)
			continue
		}
		out = append(out, [2]int{from, to})
	}
	return out
}

// chunkLines is the size a long window is cut to: gitleaks' detector is quadratic in the
// findings of one call (its generic-rule filter, its line lookup), so a window of thousands of
// matching lines costs minutes whole and well under a second in pieces.
var chunkLines = 512

// text is lines [w[0], w[1]] as the detector sees them: joined, each ending in a newline.
func (st *scanState) text(w [2]int) string { return st.lines.span(w[0], w[1]) }

// pieces cuts a long window of a rule with a bounded reach into pieces the detector finds the
// same in. A cut falls between two lines where no match of the rule's regex in the whole
// window crosses, with no decodable line within reach+1 lines; and it stands only if each
// piece's regex matches are exactly the window's (the detector's findings are a function of
// the match positions and the lines they lie on). Otherwise the window stays whole.
func (st *scanState) pieces(re *regexp.Regexp, w [2]int, reach int) [][2]int {
	if re == nil || w[1]-w[0] < 2*chunkLines {
		return [][2]int{w}
	}
	raw := st.text(w)
	base := st.lines.start(w[0])
	all := re.FindAllStringIndex(raw, -1)
	// crossed[k]: a match runs over the start of line w[0]+k (its previous line's newline and
	// at least one byte of the line).
	crossed := map[int]bool{}
	// One walk over the window's lines: line k starts before next, the start of line k+1 (the
	// matches are in order and do not overlap).
	k, next := 0, strings.IndexByte(raw, '\n')+1
	for _, m := range all {
		for next <= m[0] && next < len(raw) {
			k, next = k+1, next+strings.IndexByte(raw[next:], '\n')+1
		}
		for next < m[1] && next < len(raw) {
			k, next = k+1, next+strings.IndexByte(raw[next:], '\n')+1
			crossed[k] = true
		}
	}
	decodableNear := func(c int) bool {
		return st.decodableIn(max(c-reach-1, 0), min(c+reach+1, st.lines.n)-1)
	}
	var out [][2]int
	from, mi := w[0], 0
	for from+2*chunkLines <= w[1] {
		cut := -1 // the first line of the next piece
		for c := from + chunkLines; c < min(from+2*chunkLines, w[1]); c++ {
			if !crossed[c-w[0]] && !decodableNear(c) {
				cut = c
				break
			}
		}
		if cut < 0 || !st.sameMatches(re, [2]int{from, cut - 1}, all, &mi, base) {
			return [][2]int{w}
		}
		out = append(out, [2]int{from, cut - 1})
		from = cut
	}
	if !st.sameMatches(re, [2]int{from, w[1]}, all, &mi, base) {
		return [][2]int{w}
	}
	return append(out, [2]int{from, w[1]})
}

// sameMatches reports whether the regex finds in piece p exactly the window's matches that lie
// in it (all[*mi:] onwards, offsets from the window's start at byte w0 of the text), and moves
// *mi past them.
func (st *scanState) sameMatches(re *regexp.Regexp, p [2]int, all [][]int, mi *int, w0 int) bool {
	base, end := st.lines.start(p[0])-w0, st.lines.start(p[1]+1)-w0
	got := re.FindAllStringIndex(st.text(p), -1)
	for _, m := range got {
		if *mi >= len(all) || all[*mi][0] != m[0]+base || all[*mi][1] != m[1]+base {
			return false
		}
		*mi++
	}
	return *mi >= len(all) || all[*mi][0] >= end
}

// dedupSecrets drops repeats (overlapping windows) and, as gitleaks does, a generic rule's
// finding where a specific rule found the same secret on the same line.
func dedupSecrets(in []Secret) []Secret {
	type key struct {
		rule  string
		line  int
		col   int
		value string
	}
	seen := map[key]bool{}
	var uniq []Secret
	for _, s := range in {
		k := key{s.RuleID, s.Line, s.StartColumn, s.Value}
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, s)
		}
	}
	byLine := map[int][]int{}
	for i, s := range uniq {
		byLine[s.Line] = append(byLine[s.Line], i)
	}
	var out []Secret
	for _, s := range uniq {
		drop := false
		if strings.Contains(strings.ToLower(s.RuleID), "generic") {
			for _, j := range byLine[s.Line] {
				o := uniq[j]
				if o.RuleID != s.RuleID && strings.Contains(o.Value, s.Value) &&
					!strings.Contains(strings.ToLower(o.RuleID), "generic") {
					drop = true
					break
				}
			}
		}
		if !drop {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		if out[i].StartColumn != out[j].StartColumn {
			return out[i].StartColumn < out[j].StartColumn
		}
		return out[i].RuleID < out[j].RuleID
	})
	return out
}
