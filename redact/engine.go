package redact

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// engine runs gitleaks' rules the way gitleaks would, but only where they can match: each
// rule's regex sees the neighbourhood of the lines holding one of its keywords (found with one
// pass over the text, decoded text included), instead of the whole file whenever the keyword
// appears anywhere in it. A rule's gitleaks detector is built the first time it is needed.
// Multi-line rules (PEM private keys) get a window that reaches the END line.
type engine struct {
	set    ruleSet
	ids    []string // rule ids, in the set's order
	always []int    // rules without usable keywords: they see every line
	index  [1 << 16][]kwEntry
	window []span // per rule: lines before and after a keyword line
	dets   []lazyDetector
}

type kwEntry struct {
	kw    string
	rules []int
}

type span struct {
	before, after int
	untilEnd      bool // extend to the first "-----END" line
}

type lazyDetector struct {
	once sync.Once
	d    *detect.Detector
	re   *regexp.Regexp // the rule's own regex (gitleaks' Regexp is the standard library's)
	err  error
}

// maxPEMLines bounds how far a window looks for the END line of a PEM block.
const maxPEMLines = 400

func newEngine(set ruleSet) *engine {
	n := set.size()
	e := &engine{set: set, ids: make([]string, n), window: make([]span, n), dets: make([]lazyDetector, n)}
	byKW := map[string][]int{}
	for i := 0; i < n; i++ {
		id := set.id(i)
		e.ids[i] = id
		e.window[i] = span{before: 2, after: 3}
		src := set.regexSrc(i)
		switch {
		case src == "":
			continue // path-only rules run in ScanPath
		case strings.Contains(src, "-----BEGIN") || strings.Contains(strings.ToLower(id), "private-key"):
			e.window[i] = span{before: 1, untilEnd: true}
		case strings.Contains(src, `\n`) || strings.Contains(src, `[\s\S]`) || strings.Contains(src, "(?s"):
			e.window[i] = span{before: 10, after: 10}
		}
		kws := set.keywords(i)
		usable := len(kws) > 0
		for _, k := range kws {
			if len(k) < 2 {
				usable = false
			}
		}
		if !usable {
			e.always = append(e.always, i)
			continue
		}
		for _, k := range kws {
			byKW[k] = append(byKW[k], i)
		}
	}
	for k, rules := range byKW {
		slot := int(k[0])<<8 | int(k[1])
		e.index[slot] = append(e.index[slot], kwEntry{kw: k, rules: rules})
	}
	return e
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
		l.d = d
		l.re = r.Regex
	})
	return l.d, l.err
}

// match calls hit for every rule one of whose keywords occurs in lower.
func (e *engine) match(lower string, hit func(rule int)) {
	for i := 0; i+1 < len(lower); i++ {
		for _, ent := range e.index[int(lower[i])<<8|int(lower[i+1])] {
			if strings.HasPrefix(lower[i:], ent.kw) {
				for _, r := range ent.rules {
					hit(r)
				}
			}
		}
	}
}

// mayBeEncoded is a fast superset of what gitleaks' decoder looks for: a run of 16 or more
// base64 characters ([\w/+-]), a percent escape, or a U+XXXX / \uXXXX escape.
func mayBeEncoded(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '/', c == '+', c == '-':
			run++
			if run >= 16 {
				return true
			}
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			return true
		case (c == '+' || c == 'u') && i > 0 && (s[i-1] == 'U' || s[i-1] == '\\'):
			return true
		case c >= 0x80:
			// \w in gitleaks' pattern is ASCII-only; a non-ASCII byte ends the run
		}
		run = 0
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// decoded returns line with its encoded segments decoded, as gitleaks' decoding passes would
// (up to five levels), or "" when nothing decodes.
func decoded(line string) string {
	if !mayBeEncoded(line) {
		return ""
	}
	dec := codec.NewDecoder()
	cur := line
	var segs []*codec.EncodedSegment
	out := ""
	for depth := 0; depth < 5; depth++ {
		cur, segs = dec.Decode(cur, segs)
		if len(segs) == 0 {
			break
		}
		out += "\n" + cur
	}
	return out
}

// scan finds secrets in lines (numbered from startLine).
func (e *engine) scan(path string, lines []string, startLine int) ([]Secret, error) {
	hits := make(map[int][]int)
	last := make(map[int]int)
	// decodable[i]: gitleaks' decoder would decode something on line i. Its patterns never
	// span lines, so a window decodes exactly when one of its lines does.
	decodable := make([]bool, len(lines))
	for i, line := range lines {
		mark := func(r int) {
			if p, ok := last[r]; ok && p == i {
				return
			}
			last[r] = i
			hits[r] = append(hits[r], i)
		}
		e.match(strings.ToLower(line), mark)
		if d := decoded(line); d != "" {
			decodable[i] = true
			e.match(strings.ToLower(d), mark)
		}
	}
	for _, r := range e.always {
		hits[r] = []int{0}
		e.window[r] = span{before: 0, after: len(lines)}
	}
	rules := make([]int, 0, len(hits))
	for r := range hits {
		rules = append(rules, r)
	}
	sort.Ints(rules)
	var out []Secret
	for _, r := range rules {
		det, err := e.detector(r)
		if err != nil {
			return nil, err
		}
		re := e.dets[r].re
		for _, w := range e.windows(hits[r], lines, e.window[r]) {
			raw := strings.Join(lines[w[0]:w[1]+1], "\n") + "\n"
			// gitleaks finds nothing where the rule's regex does not match the text and its
			// decoder has nothing to decode: skip the detector there.
			if re != nil && !re.MatchString(raw) && !slices.Contains(decodable[w[0]:w[1]+1], true) {
				continue
			}
			out = append(out, detectText(det, path, raw, startLine+w[0])...)
		}
	}
	return dedupSecrets(out), nil
}

// scanPath runs the path-only rules on a file name.
func (e *engine) scanPath(path string) ([]Secret, error) {
	var out []Secret
	for i := range e.ids {
		if e.set.regexSrc(i) != "" || !e.set.hasPath(i) {
			continue
		}
		det, err := e.detector(i)
		if err != nil {
			return nil, err
		}
		for _, f := range det.Detect(detect.Fragment{Raw: "", FilePath: path}) {
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
	for _, f := range det.Detect(detect.Fragment{Raw: text, FilePath: path, StartLine: first}) {
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

// windows merges the keyword lines of one rule into [first, last] line ranges.
func (e *engine) windows(at []int, lines []string, sp span) [][2]int {
	var out [][2]int
	for _, i := range at {
		from, to := max(i-sp.before, 0), min(i+sp.after, len(lines)-1)
		if sp.untilEnd {
			to = i
			for j := i; j < len(lines) && j <= i+maxPEMLines; j++ {
				to = j
				if j > i && strings.Contains(strings.ToUpper(lines[j]), "-----END") {
					break
				}
			}
		}
		if n := len(out); n > 0 && from <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], to)
			continue
		}
		out = append(out, [2]int{from, to})
	}
	return out
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
	var out []Secret
	for _, s := range uniq {
		drop := false
		if strings.Contains(strings.ToLower(s.RuleID), "generic") {
			for _, o := range uniq {
				if o.Line == s.Line && o.RuleID != s.RuleID && strings.Contains(o.Value, s.Value) &&
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
