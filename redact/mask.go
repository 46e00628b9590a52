package redact

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/redact/lite"
)

// focusBefore is how many runes of a long line the evidence shows before the match.
const focusBefore = 40

// maskSpan is a byte range of a line to hide, and what is shown instead.
type maskSpan struct {
	from, to int
	with     string
}

// Evidence renders a finding's line for a report. Every secret on the whole line is masked
// first — the known ones, and, when d is not nil, every secret d finds on it (with the file's
// path and without, so neither a path-scoped rule nor a path allowlist decides), a secret found
// by decoding masked in its encoded form — and only then is the line cut: to its first line,
// and to about lite.MaxEvidence runes starting shortly before byte offset focus (the match), so no
// part of a secret survives at the edge of the window. Control, bidi, zero-width and other
// invisible characters are shown as <U+XXXX>, invalid UTF-8 as <0xNN>. A final check replaces
// any 6-byte run of a secret's hidden part that still shows.
//
// It also returns every secret it hid, for masking text quoted from the same line elsewhere
// (Scrub). If the detector cannot run, the evidence is withheld.
func Evidence(d *Detector, path, line string, focus int, known ...string) (string, []string) {
	return NewMasker(d).Evidence(path, line, focus, known...)
}

// Masker renders evidence like Evidence, running the detector once per distinct line (several
// findings on one long line share the work), and masks whole texts (Text) once per distinct
// text. It is safe for concurrent use. Its detectors are the review's and, when the review's
// was built from a repository's .gitleaks.toml, gitleaks' defaults too: an allowlist decides
// what is reported, never what a report may show in clear.
type Masker struct {
	dets  []*Detector
	err   error      // the defaults could not be built: every text is withheld
	mu    sync.Mutex // guards memo and texts
	memo  map[string]lineFound
	texts map[string]string
}

type lineFound struct {
	values  []string
	encoded [][2]int
	err     error
}

// NewMasker returns a Masker that uses d (nil: only the known secrets are masked).
func NewMasker(d *Detector) *Masker {
	m := &Masker{memo: map[string]lineFound{}, texts: map[string]string{}}
	if d == nil {
		return m
	}
	m.dets = []*Detector{d}
	if d.cfg != nil {
		base, err := New(Options{})
		m.err = err
		m.dets = append(m.dets, base)
	}
	return m
}

// Text masks every secret the detectors find in text, each line kept; a text they could not
// check is withheld. Without a detector it returns text as it is. Many findings share a
// message: each distinct text is checked once.
func (m *Masker) Text(text string) string {
	if len(m.dets) == 0 {
		return text
	}
	m.mu.Lock()
	out, ok := m.texts[text]
	m.mu.Unlock()
	if ok {
		return out
	}
	out = withheld
	if values, err := m.find(text); err == nil && len(values) == 0 {
		out = text // MaskAll bounds what it masks: a clean text stays whole
	} else if err == nil {
		out = MaskAll(text, values...)
	}
	m.mu.Lock()
	m.texts[text] = out
	m.mu.Unlock()
	return out
}

// find returns every secret value the masker's detectors find in text.
func (m *Masker) find(text string) ([]string, error) {
	if m.err != nil {
		return nil, m.err
	}
	var values []string
	for _, d := range m.dets {
		found, err := d.Find(text)
		if err != nil {
			return nil, err
		}
		for _, x := range found {
			values = append(values, x.Value)
		}
	}
	return values, nil
}

// lineFound is what the masker's detectors find on one line: values, encoded runs, spans of
// tag characters spelling a secret and those secrets decoded (remembered per line).
func (m *Masker) lineFound(path, text string) (lf lineFound, tagSpans []maskSpan, tagged []string) {
	if m.err != nil {
		return lineFound{err: m.err}, nil, nil
	}
	key := path + "\x00" + text
	m.mu.Lock()
	lf, ok := m.memo[key]
	m.mu.Unlock()
	if !ok {
		for _, d := range m.dets {
			values, encoded, err := d.lineSecrets(path, text)
			if err != nil {
				lf = lineFound{err: err}
				break
			}
			lf.values = append(lf.values, values...)
			lf.values = append(lf.values, d.splitSecrets(path, text)...)
			lf.encoded = append(lf.encoded, encoded...)
		}
		m.mu.Lock()
		m.memo[key] = lf
		m.mu.Unlock()
	}
	for _, d := range m.dets {
		spans, secrets := d.tagSecrets(path, text)
		tagSpans, tagged = append(tagSpans, spans...), append(tagged, secrets...)
	}
	return lf, tagSpans, tagged
}

// withheld replaces text the secret detector could not check.
const withheld = "[withheld: the secret detector could not check it]"

// Evidence is the package's Evidence, with the detector's findings on a line remembered.
func (m *Masker) Evidence(path, line string, focus int, known ...string) (string, []string) {
	// A very long line (minified code) is read only around the match: the region's outer
	// regionMargin bytes are scanned but never shown, so a secret cut by the region's edge is
	// never shown in part.
	text, f, lo, hi, cutBefore, cutAfter := region(line, focus)
	secrets := append([]string(nil), known...)
	var spans, tagSpans []maskSpan
	var tagged []string
	if len(m.dets) > 0 {
		var lf lineFound
		lf, tagSpans, tagged = m.lineFound(path, text)
		if lf.err != nil {
			return withheld, nil
		}
		secrets = append(secrets, lf.values...)
		spans = append(spans, tagSpans...)
		for _, e := range lf.encoded {
			spans = append(spans, maskSpan{e[0], e[1], MaskValue(text[e[0]:e[1]])})
			secrets = append(secrets, text[e[0]:e[1]])
		}
	}
	secrets = innermost(distinct(secrets))
	spans = append(spans, occurrences(text, secrets)...)
	masked, at := applySpans(text, spans, []int{f, lo, hi})
	masked, f = masked[at[1]:at[2]], at[0]-at[1]
	if i := strings.IndexAny(masked, "\r\n"); i >= 0 {
		masked, f, cutAfter = masked[:i], min(f, i), false
	}
	out := window(masked, f, cutBefore, cutAfter)
	out = Scrub(out, secrets...)
	for _, s := range secrets {
		if lite.Leaks(out, s) {
			return "[line masked: it holds a secret]", secrets
		}
	}
	if len(tagged) > 0 {
		shown := decodeTagNotation(out)
		for _, s := range tagged {
			if lite.Leaks(shown, s) {
				return "[line masked: it holds a secret]", secrets
			}
		}
		secrets = append(secrets, tagged...)
	}
	return out, secrets
}

const (
	// evidenceRegion is how many bytes on each side of the match the detector reads of a line
	// longer than twice that.
	evidenceRegion = 8 << 10
	// regionMargin is how many bytes at a cut edge of the region are read but never shown.
	regionMargin = 1 << 10
	// maxEncodedRun bounds how far a region grows to take in a whole run of encoded text
	// (base64, hex, percent or unicode escapes) that crosses its edge, so it decodes.
	maxEncodedRun = 64 << 10
)

// region returns the part of line's first line the evidence is made from, the focus in it, the
// bytes [lo, hi) of it that may be shown, and whether it was cut from a longer line.
func region(line string, focus int) (text string, f, lo, hi int, cutBefore, cutAfter bool) {
	first := line
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		first = line[:i]
	}
	focus = min(max(focus, 0), len(line))
	if len(first) <= 2*evidenceRegion || focus > len(first) {
		return line, focus, 0, len(line), false, false
	}
	from, to := regionBounds(first, focus)
	text, f = first[from:to], focus-from
	lo, hi = 0, len(text)
	if cutBefore = from > 0; cutBefore {
		lo = min(regionMargin, f)
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
	}
	if cutAfter = to < len(first); cutAfter {
		hi = max(len(text)-regionMargin, f)
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
	}
	return text, f, lo, hi, cutBefore, cutAfter
}

// regionBounds are the bytes [from, to) of first around focus the evidence region holds:
// evidenceRegion each side, grown over an encoded run that crosses an edge (up to
// maxEncodedRun) and to whole characters.
func regionBounds(first string, focus int) (from, to int) {
	from, to = max(focus-evidenceRegion, 0), min(focus+evidenceRegion, len(first))
	for n := 0; from > 0 && n < maxEncodedRun && encodedByte(first[from-1]); n++ {
		from--
	}
	for n := 0; to < len(first) && n < maxEncodedRun && encodedByte(first[to]); n++ {
		to++
	}
	for from > 0 && !utf8.RuneStart(first[from]) {
		from--
	}
	for to < len(first) && !utf8.RuneStart(first[to]) {
		to++
	}
	return from, to
}

// encodedByte is a byte gitleaks' decoder may read as part of an encoded run.
func encodedByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '=' || c == '_' || c == '-' || c == '%' || c == '\\'
}

// lineSecrets returns the secret values d finds on text, with path and without, plus the
// byte ranges of text that hold a secret found only by decoding (its encoded form).
func (d *Detector) lineSecrets(path, text string) ([]string, [][2]int, error) {
	var values []string
	var encoded [][2]int
	starts := lineStarts(text)
	paths := []string{path}
	if path != "" {
		paths = append(paths, "")
	}
	for _, p := range paths {
		found, err := d.Scan(p, text, 1)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range found {
			if s.Value == "" {
				continue
			}
			if strings.Contains(text, s.Value) {
				values = append(values, s.Value)
				continue
			}
			run, err := encodedRun(text, starts, s)
			if err != nil {
				return nil, nil, err
			}
			encoded = append(encoded, run)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if c, ok := FindCredential(l, AllForms); ok {
			values = append(values, c.Value)
		}
	}
	return values, encoded, nil
}

// encodedRun is where a secret found by decoding lies in text (its lines start at starts):
// gitleaks reports the match where its encoded form is (its end column is not always right),
// so the whole encoded run there is masked.
func encodedRun(text string, starts []int, s Secret) ([2]int, error) {
	if s.Line < 1 || s.Line > len(starts) || s.StartColumn < 1 || starts[s.Line-1]+s.StartColumn > len(text) {
		return [2]int{}, fmt.Errorf("a decoded secret (%s) has no location in the line", s.RuleID)
	}
	from := starts[s.Line-1] + s.StartColumn - 1
	to := from + 1
	if s.EndLine >= s.Line && s.EndLine <= len(starts) {
		to = min(max(to, starts[s.EndLine-1]+s.EndColumn), len(text))
	}
	for from > 0 && encodedByte(text[from-1]) && text[from-1] != '=' {
		from--
	}
	for to < len(text) && encodedByte(text[to]) {
		to++
	}
	return [2]int{from, to}, nil
}

func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func distinct(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// innermost drops a secret that contains another one (a rule's whole match around its secret
// group): the text around the secret, such as the key name, stays readable.
func innermost(xs []string) []string {
	var out []string
	for _, x := range xs {
		inner := false
		for _, y := range xs {
			inner = inner || y != x && strings.Contains(x, y)
		}
		if !inner {
			out = append(out, x)
		}
	}
	return out
}

// occurrences returns a span for every occurrence of every secret in text, and, for a
// multi-line secret (a PEM block), of each of its lines.
func occurrences(text string, secrets []string) []maskSpan {
	var out []maskSpan
	add := func(s, with string) {
		for i := 0; ; {
			j := strings.Index(text[i:], s)
			if j < 0 {
				return
			}
			out = append(out, maskSpan{i + j, i + j + len(s), with})
			i += j + len(s)
		}
	}
	for _, s := range secrets {
		add(s, MaskValue(s))
		if strings.Contains(s, "\n") {
			for _, part := range strings.Split(s, "\n") {
				part = strings.TrimSpace(part)
				if len(part) >= 6 && !strings.HasPrefix(s, part) {
					add(part, "****")
				}
			}
		}
	}
	return out
}

// applySpans replaces the spans in text (overlapping ones merged, the earliest start's
// replacement kept) and returns the result with each byte offset in at mapped into it (an
// offset inside a span maps to the start of its replacement).
func applySpans(text string, spans []maskSpan, at []int) (string, []int) {
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].from != spans[j].from {
			return spans[i].from < spans[j].from
		}
		return spans[i].to > spans[j].to
	})
	var merged []maskSpan
	for _, s := range spans {
		if n := len(merged); n > 0 && s.from < merged[n-1].to {
			merged[n-1].to = max(merged[n-1].to, s.to)
			continue
		}
		merged = append(merged, s)
	}
	out := make([]int, len(at))
	done := make([]bool, len(at))
	var b strings.Builder
	pos := 0
	mapUpTo := func(limit int, inside bool) {
		for k, x := range at {
			if done[k] || x >= limit {
				continue
			}
			if inside {
				out[k] = b.Len()
			} else {
				out[k] = b.Len() + max(x-pos, 0)
			}
			done[k] = true
		}
	}
	for _, s := range merged {
		mapUpTo(s.from, false)
		b.WriteString(text[pos:s.from])
		mapUpTo(s.to, true)
		b.WriteString(s.with)
		pos = s.to
	}
	mapUpTo(len(text)+1, false)
	b.WriteString(text[pos:])
	for k := range out {
		out[k] = min(out[k], b.Len())
	}
	return b.String(), out
}

// window renders line for a report: trimmed, every invisible character made visible, and, when
// longer than lite.MaxEvidence runes, cut to a window that starts focusBefore runes before byte
// offset focus (earlier when the line ends sooner), with "…" where it was cut (or where line
// itself was cut from a longer one).
func window(line string, focus int, cutBefore, cutAfter bool) string {
	end := len(strings.TrimRightFunc(line, unicode.IsSpace))
	lead := len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
	if end < lead {
		return ""
	}
	focus = min(max(focus, lead), end)
	start := focus
	for n := 0; n < focusBefore && start > lead; n++ {
		_, size := utf8.DecodeLastRuneInString(line[:start])
		start -= size
	}
	// Near the end of the line: show a full window, reaching further back.
	if w := visibleWidth(line[start:end]); w < lite.MaxEvidence {
		for n := w; n < lite.MaxEvidence && start > lead; n++ {
			_, size := utf8.DecodeLastRuneInString(line[:start])
			start -= size
		}
	}
	var b strings.Builder
	if start > lead || cutBefore {
		b.WriteString("…")
	}
	n, i := 0, start
	for i < end && n < lite.MaxEvidence {
		size, w := appendVisible(&b, line, i)
		i += size
		n += w
	}
	if i < end || cutAfter {
		b.WriteString("…")
	}
	return b.String()
}

func visibleWidth(s string) int {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		size, w := appendVisible(&b, s, i)
		i += size
		n += w
	}
	return n
}

// appendVisible writes the rune at s[i] as a report shows it and returns its size in s and
// its width in the output (a <U+XXXX> escape counts as one).
func appendVisible(b *strings.Builder, s string, i int) (int, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		fmt.Fprintf(b, "<0x%02X>", s[i])
	case r == '\t':
		b.WriteByte(' ')
	case HiddenRune(r):
		fmt.Fprintf(b, "<U+%04X>", r)
	default:
		b.WriteString(s[i : i+size])
	}
	return size, 1
}

// Visible returns s with every invisible character shown as <U+XXXX> (and invalid UTF-8 as
// <0xNN>, a tab as a space), for text from a repository that a report quotes.
func Visible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '\t' || r == utf8.RuneError || HiddenRune(r) }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		size, _ := appendVisible(&b, s, i)
		i += size
	}
	return b.String()
}

// HiddenRune reports a character that renders as nothing, moves other characters (bidi
// controls) or drives a terminal (C0 and C1 controls; a tab is not one).
func HiddenRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0xAD, r == 0x34F, r == 0x61C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r >= 0x180B && r <= 0x180F, r >= 0x200B && r <= 0x200F, r >= 0x2028 && r <= 0x202E,
		r >= 0x205F && r <= 0x206F, r == 0x3164, r >= 0xFE00 && r <= 0xFE0F, r == 0xFEFF,
		r == 0xFFA0, r >= 0xFFF0 && r <= 0xFFFB, r >= 0x1D173 && r <= 0x1D17A,
		r >= 0xE0000 && r <= 0xE0FFF:
		return true
	case r == utf8.RuneError:
		return false
	}
	return r >= 0x80 && unicode.Is(unicode.Cf, r)
}

// Scrub masks, in text quoted from a line (a message, a cut evidence window), every secret and
// every run of 6 or more bytes of a part of a secret that MaskValue hides (lite.ShapeOf), each
// replaced by ****.
func Scrub(text string, secrets ...string) string {
	for _, s := range secrets {
		if s == "" {
			continue
		}
		text = strings.ReplaceAll(text, s, MaskValue(s))
		sh := lite.ShapeOf(s)
		for _, hidden := range sh.Hidden {
			text = scrubRuns(text, hidden, sh)
		}
	}
	return text
}

// scrubRuns replaces every run of 6 or more bytes of hidden in text that no shown part of sh
// holds with ****.
func scrubRuns(text, hidden string, sh lite.Shape) string {
	if len(hidden) < 6 {
		return text
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(text); {
		n := 0
		for j := i + 6; j <= len(text) && strings.Contains(hidden, text[i:j]); j++ {
			n = j - i
		}
		if n >= 6 && !sh.Shows(text[i:i+n]) {
			b.WriteString("****")
			i += n
			changed = true
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	if !changed {
		return text
	}
	return b.String()
}
