package lang

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// A Span is a byte range of a line that is prose: a comment, a docstring, a text line, or the
// content of a hidden carrier (an HTML comment, a Markdown comment, a JSON comment field, a
// hidden element).
type Span struct {
	S, E    int
	Carrier string // "" for visible prose or an ordinary comment, else one of the Carrier names
	Code    bool   // inside a Markdown fenced code block (an example, most likely)
}

// The hidden carriers: text in them is not shown when the file is rendered.
const (
	CarrierHTML = "an HTML comment"
	CarrierMD   = "a Markdown comment"
	CarrierJSON = "a JSON comment field"
	CarrierCSS  = "a hidden HTML element"
)

// State carries what one line leaves open for the next: a block comment, an HTML comment, a
// triple-quoted string, a fenced code block. The zero value is the start of a hunk.
type State struct {
	block     bool   // inside /* */
	html      bool   // inside <!-- -->
	triple    string // inside """ or '''
	tripleDoc bool   // ... and it is a docstring (prose), not a string literal (a prompt template)
	fence     bool   // inside a Markdown fenced code block
	jsx       bool   // inside an MDX template-literal prop (prompt={`...`}): an example
}

var (
	mdCommentRe = lazyre.New(`^\s{0,3}\[(?://|comment|_+|#|-+|\.|\s*)\]:\s*(?:#|<>|<#>)\s*(.*)$`)
	jsonCmtRe   = lazyre.New(`"(?:_+comments?|//+|#|\$comment|comments?|_+notes?|_+description)"\s*:\s*"((?:[^"\\]|\\.)*)`)
	hiddenCSSRe = lazyre.New(`display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*[;"']|<[a-z][a-z0-9]*\s[^>]*\bhidden(?:\s*=\s*["']?(?:hidden|true)?["']?)?\s*>`)
)

// Spans returns the prose spans of one line and advances the state. Quote tracking in code is
// per line and best effort.
func (f *File) Spans(s string, st *State) []Span { return f.AppendSpans(nil, s, st) }

// AppendSpans is Spans appending to dst (a caller scanning millions of lines reuses one slice).
func (f *File) AppendSpans(dst []Span, s string, st *State) []Span {
	if f.Prose {
		return proseSpans(dst, s, st)
	}
	out := f.codeSpans(s, st, dst)
	if strings.Contains(s, "<!--") {
		out = htmlSpans(s, &State{}, out, false)
	}
	if f.JSON && (strings.Contains(s, "comment") || strings.Contains(s, `"//`) || strings.Contains(s, `"#`) || strings.Contains(s, "_note") || strings.Contains(s, "_description")) {
		for _, m := range jsonCmtRe.FindAllStringSubmatchIndex(s, -1) {
			out = append(out, Span{m[2], m[3], CarrierJSON, false})
		}
	}
	return out
}

// proseSpans: the whole line, and the hidden carriers in it.
func proseSpans(dst []Span, s string, st *State) []Span {
	// A fence line itself is not code: what follows the opening fence is its info string.
	code := st.fence || st.jsx || strings.Contains(s, "={`")
	if t := strings.TrimLeft(s, " \t>"); !st.html && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
		st.fence = !st.fence
	}
	if !st.fence {
		st.jsx = jsxTemplate(s, st.jsx)
	}
	out := append(dst, Span{0, len(s), "", code})
	out = htmlSpans(s, st, out, true)
	if strings.Contains(s, "]:") {
		if m := mdCommentRe.FindStringSubmatchIndex(LowerASCII(s)); m != nil {
			out = append(out, Span{m[2], m[3], CarrierMD, false})
		}
	}
	if strings.IndexByte(s, '<') >= 0 || strings.Contains(s, "style") {
		// The expression runs only where one of its alternatives can match: on a line of SVG
		// path data 54,000 characters long it costs ~100 ns a byte.
		if mayHide(s) {
			if loc := hiddenCSSRe.FindStringIndex(LowerASCII(s)); loc != nil {
				out = append(out, Span{loc[1], len(s), CarrierCSS, false})
			}
		}
	}
	return out
}

// mayHide reports whether a line holds, in any case, what hiddenCSSRe needs: the word
// "hidden" (visibility:hidden, a hidden attribute), "display" before "none" or "font-size"
// before a colon and a zero. It reads the line without a lowercased copy.
func mayHide(s string) bool {
	return indexFold(s, "hidden") >= 0 || propertyIs(s, "display", "none") || propertyIs(s, "font-size", "0")
}

// propertyIs reports a CSS property set to a value that starts with val ("Display : none"),
// in any case; prop and val are lowercase.
func propertyIs(s, prop, val string) bool {
	for i := 0; ; {
		j := indexFold(s[i:], prop)
		if j < 0 {
			return false
		}
		i += j + len(prop)
		rest := strings.TrimLeft(s[i:], " \t\r\n\f\v")
		if v, ok := strings.CutPrefix(rest, ":"); ok && hasPrefixFold(strings.TrimLeft(v, " \t\r\n\f\v"), val) {
			return true
		}
	}
}

// indexFold is strings.Index with ASCII letters of s in any case; sub is lowercase ASCII.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}

// hasPrefixFold is strings.HasPrefix with ASCII letters of s in any case; pre is lowercase.
func hasPrefixFold(s, pre string) bool {
	if len(s) < len(pre) {
		return false
	}
	for k := 0; k < len(pre); k++ {
		c := s[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != pre[k] {
			return false
		}
	}
	return true
}

// jsxTemplate reports whether an MDX template-literal prop (<TryIt prompt={`...`} />, the way
// MDX documentation shows example prompts) is open after line s; in says it was open before.
func jsxTemplate(s string, in bool) bool {
	if in {
		return !strings.Contains(s, "`}")
	}
	if !strings.Contains(s, "={`") { // Index is vectorised, LastIndex is not
		return false
	}
	i := strings.LastIndex(s, "={`")
	return !strings.Contains(s[i+3:], "`")
}

// htmlSpans adds the contents of HTML comments; with multi, a comment may span lines.
func htmlSpans(s string, st *State, out []Span, multi bool) []Span {
	i := 0
	for i <= len(s) {
		if st.html {
			j := strings.Index(s[i:], "-->")
			if j < 0 {
				out = append(out, Span{i, len(s), CarrierHTML, false})
				if !multi {
					st.html = false
				}
				return out
			}
			out = append(out, Span{i, i + j, CarrierHTML, false})
			i += j + 3
			st.html = false
			continue
		}
		j := strings.Index(s[i:], "<!--")
		if j < 0 {
			return out
		}
		i += j + 4
		st.html = true
	}
	return out
}

// codeSpans finds comments in a line of code or data: line comments, block comments, and
// Python docstrings. Strings are skipped.
func (f *File) codeSpans(s string, st *State, out []Span) []Span {
	i := 0
	for i < len(s) {
		var done bool
		switch {
		case st.block:
			i, out, done = blockRest(s, i, st, out)
		case st.triple != "":
			i, out, done = tripleRest(s, i, st, out)
		case plainCode(s[i]):
			i++ // the common case, without a call
		default:
			i, out, done = f.codeStep(s, i, st, out)
		}
		if done {
			return out
		}
	}
	return out
}

// plainCode reports a byte that can start neither a string nor a comment in any syntax.
func plainCode(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ' ' || c == '\t' || c == '_' || c == '.' || c == ',' || c == '(' || c == ')'
}

// blockRest ends a block comment open at i, or takes the rest of the line.
func blockRest(s string, i int, st *State, out []Span) (int, []Span, bool) {
	j := strings.Index(s[i:], "*/")
	if j < 0 {
		return len(s), append(out, Span{i, len(s), "", false}), true
	}
	st.block = false
	return i + j + 2, append(out, Span{i, i + j, "", false}), false
}

// tripleRest ends a triple-quoted string open at i (prose when it is a docstring).
func tripleRest(s string, i int, st *State, out []Span) (int, []Span, bool) {
	j := strings.Index(s[i:], st.triple)
	end := i + j
	if j < 0 {
		end = len(s)
	}
	if st.tripleDoc && i < end {
		out = append(out, Span{i, end, "", false})
	}
	if j < 0 {
		return len(s), out, true
	}
	st.triple = ""
	return end + 3, out, false
}

// codeStep reads code at i: a string is skipped, a comment opened.
func (f *File) codeStep(s string, i int, st *State, out []Span) (int, []Span, bool) {
	c := s[i]
	syn := &f.Syntax
	switch {
	case syn.Triple && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)):
		st.triple = s[i : i+3]
		// A docstring stands alone; `prompt = """...` is a string an application builds.
		st.tripleDoc = strings.TrimSpace(s[:i]) == ""
		return i + 3, out, false
	case c == '"' || c == '`' || (c == '\'' && syn.SingleQuote):
		return stringEnd(s, i), out, false
	case syn.Block && c == '/' && i+1 < len(s) && s[i+1] == '*':
		st.block = true
		return i + 2, out, false
	}
	if n := lineComment(s, i, syn); n > 0 {
		return len(s), append(out, Span{i + n, len(s), "", false}), true
	}
	return i + 1, out, false
}

// lineComment returns the length of the line-comment marker at s[i:], or 0.
func lineComment(s string, i int, syn *Syntax) int {
	for _, l := range syn.Line {
		if s[i] == l[0] && strings.HasPrefix(s[i:], l) && markerOK(s, i, l) {
			return len(l)
		}
	}
	return 0
}

// stringEnd returns the offset after the string literal that starts at i.
func stringEnd(s string, i int) int {
	c := s[i]
	j := i + 1
	for j < len(s) && s[j] != c {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	return j + 1
}
