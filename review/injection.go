package review

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
)

// The injection scanner looks at added lines only and reports text that tries to address a
// reviewer or a coding agent. Findings are reported, never obeyed. One finding per line
// (rule tollgate/prompt-injection-attempt, high, CWE-1427) lists every signal that fired, with
// hidden text decoded; the evidence shows every invisible character as <U+XXXX>.
//
// Precision is a feature: a hook that cries wolf gets uninstalled. Each signal needs a
// specific shape:
//   - instruction overrides: a verb (ignore, disregard, forget) *and* an instruction object
//     (instructions, prompts, rules, guidelines, context), in English and eight other
//     languages; "ignore the previous value" is not one;
//   - fake conversation turns: a role label at the start of a comment or prose line *and* a
//     model-like turn after it ("system: you are ...", "assistant: Sure, ..."); never code,
//     YAML keys or an application's {"role": "system"} messages; user/human turns only next
//     to such a turn;
//   - chat-template tokens (<|im_start|>, [INST], <<SYS>>): always, lower confidence in code;
//   - verdict coercion: an addressee that is a model or a review program *and* a verdict;
//   - hidden carriers (HTML and Markdown comments, JSON comment fields, hidden elements)
//     raise the confidence of the above;
//   - characters: Unicode tag characters (except emoji subdivision flags), bidi controls,
//     zero-width characters (except a BOM at the start of the file, ZWNJ/ZWJ outside ASCII
//     words, ZWSP between letters of scripts written without spaces), variation-selector
//     payloads, raw ESC that starts a terminal sequence, and identifiers mixing ASCII letters
//     with Cyrillic (or with Greek letters drawn like Latin ones);
//   - agent instruction files (CLAUDE.md, AGENTS.md, .cursorrules, mcp.json, ...): commands
//     that run unseen code, reach the network with data, touch credentials or switch checks
//     off, and new MCP server commands; ordinary development guidance is not reported.
//
// Speed: the character checks run only on lines with non-ASCII bytes or ESC; one pass over the
// lowercased line finds trigger words, and a regular expression runs only when its words are
// there (on lines past 4 KiB, only in windows around them). Expressions are compiled once.
//
// Inline `tollgate:allow` markers are deliberately not honoured here: the text under review is
// the attacker's text, and it could carry the marker itself.

const (
	injectionRuleID = "tollgate/prompt-injection-attempt"
	// quoteRunes bounds a quoted fragment inside a message.
	quoteRunes = 120
)

// InjectionScanner finds text in the change that tries to address a reviewer or an agent.
type InjectionScanner struct{}

// Name implements Scanner.
func (InjectionScanner) Name() string { return "injection" }

// Scan implements Scanner.
func (InjectionScanner) Scan(ctx context.Context, u *Unit, r *Result) error {
	for i := range u.Files {
		if err := ctx.Err(); err != nil {
			return err
		}
		f := &u.Files[i]
		if f.Status == Deleted || f.Binary {
			continue
		}
		fs := fileScan{ctx: ctx, f: f, kind: classify(f.Path())}
		fs.scan()
		if err := ctx.Err(); err != nil {
			return err
		}
		fs.emit(u, r)
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// File kinds

type fileKind struct {
	prose       bool     // markdown, plain text, markup: every line is prose
	leaders     []string // line comment markers of code and data files
	cBlock      bool     // /* ... */ block comments
	triple      bool     // Python triple-quoted strings (docstrings) count as comments
	singleQuote bool     // ' delimits strings
	json        bool     // JSON comment fields ("_comment", "//") are hidden carriers
	agent       bool     // an agent instruction file (CLAUDE.md, AGENTS.md, .cursorrules, ...)
	agentConfig string   // "" or what a "command" key starts: an MCP server, an agent hook
}

var (
	proseExts = setOf("md", "markdown", "mdx", "mdc", "txt", "text", "rst", "adoc", "asciidoc",
		"org", "textile", "wiki", "html", "htm", "xhtml", "xml", "svg", "vue", "svelte", "astro",
		"hbs", "handlebars", "mustache", "njk", "jinja", "jinja2", "j2", "twig", "liquid", "erb",
		"ejs", "jsp", "prompt", "ipynb")
	proseNames = setOf("readme", "changelog", "changes", "news", "notes", "contributing",
		"authors", "todo", "history", "security", "codeowners")
	cExts = setOf("go", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "c++", "java", "js",
		"jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts", "cs", "csx", "swift", "kt", "kts", "scala",
		"rs", "dart", "sol", "groovy", "gradle", "m", "mm", "proto", "zig", "v", "d", "jsonc",
		"json5", "css", "scss", "less", "sass", "fs", "fsx", "glsl", "hlsl", "cu", "cuh", "ino",
		"jenkinsfile", "tf", "hcl")
	hashExts = setOf("py", "pyw", "pyi", "rb", "sh", "bash", "zsh", "fish", "ksh", "pl", "pm",
		"r", "yml", "yaml", "toml", "conf", "cfg", "mk", "cmake", "nix", "tfvars", "ps1", "psm1",
		"ex", "exs", "jl", "cr", "coffee", "awk", "tcl", "properties", "env", "gitignore",
		"dockerignore", "gitattributes", "editorconfig", "rake", "gemspec", "podspec", "bzl",
		"bazel", "star", "mojo", "nim", "gd", "dockerfile", "containerfile", "makefile", "gemfile",
		"rakefile", "vagrantfile", "procfile", "build", "workspace", "pyx", "pxd")
	dashExts = setOf("sql", "lua", "hs", "lhs", "elm", "ada", "adb", "ads", "vhd", "vhdl", "purs")
	semiExts = setOf("s", "asm", "lisp", "lsp", "clj", "cljs", "cljc", "edn", "el", "scm", "ss",
		"rkt", "ini", "reg")
	pctExts  = setOf("tex", "sty", "cls", "bib", "erl", "hrl", "mat")
	jsonExts = setOf("json", "jsonc", "json5", "jsonl", "ndjson", "geojson", "har", "webmanifest")
)

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// classify decides how the lines of a file are read, from its path alone.
func classify(p string) fileKind {
	lp := strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
	base := path.Base(lp)
	ext := strings.TrimPrefix(path.Ext(base), ".")
	noExt := strings.TrimSuffix(base, path.Ext(base))
	var k fileKind

	// Agent instruction files, in any directory.
	dirs := "/" + path.Dir(lp) + "/"
	switch {
	case base == "claude.md" || base == "claude.local.md" || base == "agents.md" ||
		base == "agent.md" || base == "gemini.md" || base == ".cursorrules" ||
		base == ".windsurfrules" || base == ".clinerules" ||
		(base == "copilot-instructions.md" && strings.HasSuffix(dirs, "/.github/")),
		strings.Contains(dirs, "/.cursor/rules/"), strings.Contains(dirs, "/.clinerules/"),
		strings.Contains(dirs, "/.windsurf/rules/"),
		strings.Contains(dirs, "/.github/instructions/") && strings.HasSuffix(base, ".instructions.md"),
		strings.Contains(dirs, "/.github/prompts/") && strings.HasSuffix(base, ".prompt.md"),
		strings.Contains(dirs, "/.claude/commands/"), strings.Contains(dirs, "/.claude/agents/"):
		k.agent, k.prose = true, true
		return k
	case base == "mcp.json" || base == ".mcp.json" || base == "mcp_config.json" ||
		(base == "settings.json" && strings.HasSuffix(dirs, "/.gemini/")):
		k.agent, k.json, k.agentConfig = true, true, "an MCP server"
		k.leaders, k.cBlock = []string{"//"}, true // JSONC is common in these files
		return k
	case (base == "settings.json" || base == "settings.local.json") && strings.HasSuffix(dirs, "/.claude/"):
		k.agent, k.json, k.agentConfig = true, true, "an agent hook"
		k.leaders, k.cBlock = []string{"//"}, true
		return k
	}

	switch {
	case proseExts[ext] || proseNames[base] || proseNames[noExt] && ext == "":
		k.prose = true
	case jsonExts[ext]:
		k.json = true
		if ext != "json" && ext != "jsonl" && ext != "ndjson" {
			k.leaders, k.cBlock = []string{"//"}, true
		}
	case cExts[ext]:
		k.leaders, k.cBlock, k.singleQuote = []string{"//"}, true, true
	case ext == "php":
		k.leaders, k.cBlock, k.singleQuote = []string{"//", "#"}, true, true
	case hashExts[ext] || hashExts[base] || hashExts[noExt] && ext == "" || strings.HasPrefix(base, "dockerfile") || strings.HasPrefix(base, ".bash") || strings.HasPrefix(base, ".zsh"):
		k.leaders, k.singleQuote = []string{"#"}, true
		k.triple = ext == "py" || ext == "pyw" || ext == "pyi" || ext == "pyx" || ext == "mojo" || ext == "star" || ext == "bzl"
	case dashExts[ext]:
		k.leaders, k.cBlock, k.singleQuote = []string{"--"}, ext == "sql", true
	case semiExts[ext]:
		k.leaders, k.singleQuote = []string{";"}, true
		if ext == "s" || ext == "asm" {
			k.leaders, k.cBlock = []string{";", "#", "//"}, true
		}
		if ext == "ini" || ext == "reg" {
			k.leaders = []string{";", "#"}
		}
	case pctExts[ext]:
		k.leaders = []string{"%"}
	case ext == "vb" || ext == "vbs" || ext == "bas":
		k.leaders = []string{"'"}
	default:
		k.leaders, k.cBlock, k.singleQuote = []string{"#", "//"}, true, true
	}
	return k
}

// ---------------------------------------------------------------------------------------------
// Comments and hidden carriers

// A span is a byte range of a line that is prose: a comment, a docstring, a text line, or the
// content of a hidden carrier (an HTML comment, a Markdown comment, a JSON comment field, a
// hidden element).
type span struct {
	s, e    int
	carrier string // "" for visible prose or an ordinary comment
	code    bool   // inside a Markdown fenced code block (an example, most likely)
}

const (
	carrierHTML = "an HTML comment"
	carrierMD   = "a Markdown comment"
	carrierJSON = "a JSON comment field"
	carrierCSS  = "a hidden HTML element"
)

type commentState struct {
	block     bool   // inside /* */
	html      bool   // inside <!-- -->
	triple    string // inside """ or '''
	tripleDoc bool   // ... and it is a docstring (prose), not a string literal (a prompt template)
	fence     bool   // inside a Markdown fenced code block
}

var (
	mdCommentRe = lazyRegexp(`^\s{0,3}\[(?://|comment|_+|#|-+|\.|\s*)\]:\s*(?:#|<>|<#>)\s*(.*)$`)
	jsonCmtRe   = lazyRegexp(`"(?:_+comments?|//+|#|\$comment|comments?|_+notes?|_+description)"\s*:\s*"((?:[^"\\]|\\.)*)`)
	hiddenCSSRe = lazyRegexp(`display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*[;"']|<[a-z][a-z0-9]*\s[^>]*\bhidden(?:\s*=\s*["']?(?:hidden|true)?["']?)?\s*>`)
)

// segments returns the prose spans of one line and advances the comment state.
func (k *fileKind) segments(s string, st *commentState) []span {
	var out []span
	if k.prose {
		if t := strings.TrimLeft(s, " \t>"); !st.html && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			st.fence = !st.fence
		}
		out = append(out, span{0, len(s), "", st.fence})
		out = htmlSpans(s, st, out, true)
		if strings.Contains(s, "]:") {
			if m := mdCommentRe.FindStringSubmatchIndex(lowerASCII(s)); m != nil {
				out = append(out, span{m[2], m[3], carrierMD, false})
			}
		}
		if strings.IndexByte(s, '<') >= 0 || strings.Contains(s, "style") {
			if loc := hiddenCSSRe.FindStringIndex(lowerASCII(s)); loc != nil {
				out = append(out, span{loc[1], len(s), carrierCSS, false})
			}
		}
		return out
	}
	out = k.codeSpans(s, st, out)
	if strings.Contains(s, "<!--") {
		out = htmlSpans(s, &commentState{}, out, false)
	}
	if k.json && (strings.Contains(s, "comment") || strings.Contains(s, `"//`) || strings.Contains(s, `"#`) || strings.Contains(s, "_note") || strings.Contains(s, "_description")) {
		for _, m := range jsonCmtRe.FindAllStringSubmatchIndex(s, -1) {
			out = append(out, span{m[2], m[3], carrierJSON, false})
		}
	}
	return out
}

// htmlSpans adds the contents of HTML comments; with multi, a comment may span lines.
func htmlSpans(s string, st *commentState, out []span, multi bool) []span {
	i := 0
	for i <= len(s) {
		if st.html {
			j := strings.Index(s[i:], "-->")
			if j < 0 {
				out = append(out, span{i, len(s), carrierHTML, false})
				if !multi {
					st.html = false
				}
				return out
			}
			out = append(out, span{i, i + j, carrierHTML, false})
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
// Python docstrings. Strings are skipped (quote tracking is per line and best effort).
func (k *fileKind) codeSpans(s string, st *commentState, out []span) []span {
	i := 0
	for i < len(s) {
		switch {
		case st.block:
			j := strings.Index(s[i:], "*/")
			if j < 0 {
				return append(out, span{i, len(s), "", false})
			}
			out = append(out, span{i, i + j, "", false})
			i += j + 2
			st.block = false
			continue
		case st.triple != "":
			j := strings.Index(s[i:], st.triple)
			end := i + j
			if j < 0 {
				end = len(s)
			}
			if st.tripleDoc && i < end {
				out = append(out, span{i, end, "", false})
			}
			if j < 0 {
				return out
			}
			i = end + 3
			st.triple = ""
			continue
		}
		c := s[i]
		switch {
		case k.triple && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)):
			st.triple = s[i : i+3]
			// A docstring stands alone; `prompt = """...` is a string an application builds.
			st.tripleDoc = strings.TrimSpace(s[:i]) == ""
			i += 3
		case c == '"' || c == '`' || (c == '\'' && k.singleQuote):
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
		case k.cBlock && c == '/' && i+1 < len(s) && s[i+1] == '*':
			st.block = true
			i += 2
		default:
			for _, l := range k.leaders {
				if c == l[0] && strings.HasPrefix(s[i:], l) && leaderOK(s, i, l) {
					return append(out, span{i + len(l), len(s), "", false})
				}
			}
			i++
		}
	}
	return out
}

// leaderOK tells a comment marker from the same characters inside code: "#", "--", ";" and
// "%" must start the line or follow a space; "//" must not be part of a URL.
func leaderOK(s string, i int, l string) bool {
	if l == "//" {
		return i == 0 || s[i-1] != ':'
	}
	return i == 0 || s[i-1] == ' ' || s[i-1] == '\t'
}

// ---------------------------------------------------------------------------------------------
// Per-file scan

type hit struct {
	detail string
	conf   float64
	focus  int // byte offset in the line the evidence should show
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
	f         *FileDiff
	kind      fileKind
	lines     []lineReport  // lines with hits
	cur       lineReport    // the line being scanned
	validTurn bool          // a system or assistant turn was found in the file's added lines
	userTurns []pendingTurn // user/human turns, reported only next to a validated turn
	lower     []byte        // scratch buffer
	tp        trigPos       // trigger positions of a long line (reused)
}

// hunkView is one hunk's new side: context and added lines, their prose spans, and where a
// reviewer may last have been addressed.
type hunkView struct {
	texts    []string
	segs     [][]span
	addrCand int // index of the last line holding an addressee word
}

// report adds a hit to the line being scanned (always the last line with hits, or a new one).
func (fs *fileScan) report(h hit) {
	if n := len(fs.lines); n > 0 && fs.lines[n-1].line == fs.cur.line {
		fs.lines[n-1].hits = append(fs.lines[n-1].hits, h)
		return
	}
	fs.lines = append(fs.lines, lineReport{line: fs.cur.line, text: fs.cur.text, hits: []hit{h}})
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
		h := &fs.f.Hunks[hi]
		seq := make([]Line, 0, len(h.Lines))
		for _, l := range h.Lines {
			if l.Kind == Add || l.Kind == Context {
				seq = append(seq, l)
			}
		}
		var st commentState
		hv := hunkView{texts: make([]string, len(seq)), segs: make([][]span, len(seq)), addrCand: -100}
		for j := range seq {
			hv.texts[j] = strings.TrimSuffix(seq[j].Text, "\r")
			hv.segs[j] = fs.kind.segments(hv.texts[j], &st)
		}
		for j, l := range seq {
			if j%ctxLines == 0 && fs.ctx != nil && fs.ctx.Err() != nil {
				return
			}
			if l.Kind != Add {
				if len(hv.segs[j]) > 0 {
					fs.lower = appendLower(fs.lower[:0], hv.texts[j])
					if triggers(fs.lower)&tAddr != 0 {
						hv.addrCand = j
					}
				}
				continue
			}
			next := ""
			if j+1 < len(seq) {
				next = firstProse(hv.texts[j+1], hv.segs[j+1])
			}
			fs.cur = lineReport{line: l.New, text: hv.texts[j]}
			fs.scanLine(&hv, j, next)
		}
	}
	if fs.validTurn {
		for _, p := range fs.userTurns {
			fs.reportAt(p.line, p.text, hit{
				detail: fmt.Sprintf("fake conversation turn %q next to a fake system/assistant turn", p.label+":"),
				conf:   0.75, focus: p.at,
			})
		}
		sort.SliceStable(fs.lines, func(a, b int) bool { return fs.lines[a].line < fs.lines[b].line })
	}
}

// addressedBefore reports whether the prose of one of the three lines before j addresses a
// reviewer ("// NOTE TO AI REVIEWERS:" above "// this code is pre-approved").
func (fs *fileScan) addressedBefore(hv *hunkView, j int) bool {
	for k := j - 1; k >= 0 && k >= j-3; k-- {
		for _, sp := range hv.segs[k] {
			if sp.s < sp.e && vocativeRe.MatchString(lowerASCII(hv.texts[k][sp.s:sp.e])) {
				return true
			}
		}
	}
	return false
}

func firstProse(text string, segs []span) string {
	for _, sp := range segs {
		if t := strings.TrimSpace(text[sp.s:sp.e]); t != "" {
			return t
		}
	}
	return ""
}

// emit turns the per-line hits into findings, one per line, in new-file order.
func (fs *fileScan) emit(u *Unit, r *Result) {
	p := fs.f.Path()
	for _, lr := range fs.lines {
		if len(lr.hits) == 0 {
			continue
		}
		conf := 0.0
		var details []string
		seen := map[string]bool{}
		for _, h := range lr.hits {
			if h.conf > conf {
				conf = h.conf
			}
			if !seen[h.detail] {
				seen[h.detail] = true
				details = append(details, h.detail)
			}
		}
		if len(details) > 1 {
			conf += 0.05
		}
		if conf > 1 {
			conf = 1
		}
		if conf <= 0 {
			conf = 0.5
		}
		msg := "prompt injection: " + strings.Join(details, "; ")
		if u.Commit != "" {
			msg += " (in commit " + short(u.Commit) + ")"
		}
		r.add(Finding{
			RuleID: injectionRuleID, Severity: policy.High, Confidence: conf, CWE: []string{"CWE-1427"},
			Path: p, Line: lr.line, EndLine: lr.line, Message: msg, Source: "injection",
		}.lineEvidence(lr.text, lr.hits[0].focus))
	}
}

// ---------------------------------------------------------------------------------------------
// Per-line scan

// scanLine inspects added line j of a hunk.
func (fs *fileScan) scanLine(hv *hunkView, j int, next string) {
	text, segs, newNo := hv.texts[j], hv.segs[j], fs.cur.line
	ascii, esc := true, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c == 0x1b {
			esc = true
		}
	}
	clean, cmap, wide := text, []int(nil), false
	if !ascii {
		clean, cmap, wide = fs.scanRunes(text, newNo)
	} else if esc {
		fs.scanEscapes(text)
	}

	fs.lower = appendLower(fs.lower[:0], clean)
	low := fs.lower
	sr := searcher{low: low}
	var mask uint32
	if len(low) > longLine {
		for b := range fs.tp.at {
			fs.tp.at[b] = fs.tp.at[b][:0]
		}
		fs.tp.overflow = 0
		mask = triggerScan(low, &fs.tp)
		sr.tp = &fs.tp
	} else {
		mask = triggers(low)
	}
	orig := func(i int) int { // clean offset -> text offset
		if cmap == nil {
			return i
		}
		if i >= len(cmap) {
			return len(text)
		}
		return cmap[i]
	}

	// 3. chat-template tokens
	if mask&tToken != 0 {
		for _, tok := range templateTokens {
			if i := strings.Index(clean, tok); i >= 0 {
				conf := 0.9
				where := ""
				switch sp := inSpans(segs, orig(i)); {
				case sp == nil:
					conf, where = 0.6, " in code"
				case sp.code:
					conf, where = 0.5, " in a code block"
				}
				fs.report(hit{detail: fmt.Sprintf("chat-template token %s%s (fakes a turn boundary for a model)", strconv.Quote(tok), where), conf: conf, focus: orig(i)})
				break
			}
		}
	}

	// 1. instruction overrides
	overridden := false
	if mask&(tIgnore|tOverride|tYou|tInstr|tRepeat) != 0 {
		for _, p := range overridePatterns {
			if mask&p.need != p.need {
				continue
			}
			if loc := sr.find(p.re, p.need&^tNow); loc != nil {
				if p.imperative && !imperativeAt(clean, loc[0]) {
					continue
				}
				if p.follow != nil && !p.follow.Match(low[loc[1]:]) {
					continue
				}
				fs.textHit(segs, orig(loc[0]), "instruction-override phrase", clean[loc[0]:loc[1]], p.conf)
				overridden = true
				break
			}
		}
	}
	// Other languages: Latin-script ones need one of their verbs and nouns; a line in another
	// script (Cyrillic, CJK, Hangul: wide) goes to that expression.
	var loc []int
	if !overridden && mask&(tForeign|tForeignNoun) == tForeign|tForeignNoun {
		loc = sr.find(foreignLatinRe, tForeign)
	}
	for _, fw := range foreignWide {
		if !overridden && loc == nil && wide && containsAny(clean, fw.gate) {
			loc = fw.re.FindStringIndex(clean)
		}
	}
	if loc != nil {
		fs.textHit(segs, orig(loc[0]), "instruction-override phrase", strings.TrimLeftFunc(clean[loc[0]:loc[1]], notLetter), 0.9)
	}

	// 2. fake conversation turns, in comments and prose only
	// Hidden carriers first, so a turn inside an HTML comment is reported as hidden; one turn
	// per line is enough.
	turn := false
	for pass := 0; pass < 2 && mask&tRole != 0 && !turn; pass++ {
		for _, sp := range segs {
			if (sp.carrier != "") != (pass == 0) || sp.s >= sp.e {
				continue
			}
			s0, e0 := toClean(cmap, sp.s), toClean(cmap, sp.e)
			if s0 >= e0 || e0 > len(clean) {
				continue
			}
			if !turn {
				turn = fs.roleTurn(clean[s0:e0], low[s0:e0], sp, next, orig(s0))
			}
		}
	}

	// 4. verdict coercion: an addressee (this line, or the same comment just above) and a verdict
	recent := hv.addrCand < j && j-hv.addrCand <= 3
	if (mask&tAddr != 0 || recent) && mask&tVerdict != 0 {
		named := mask&tAddr != 0
		order := sr.find(verdictOrderRe, tVerdict)
		loc, ok := order, order != nil && (named && sr.match(addresseeRe, tAddr) || recent && fs.addressedBefore(hv, j))
		var claim []int
		if !ok {
			claim = sr.find(verdictClaimRe, tVerdict)
			loc, ok = claim, claim != nil && (named && sr.match(vocativeRe, tAddr) || recent && fs.addressedBefore(hv, j))
		}
		for _, l := range [][]int{order, claim} {
			if !ok && l != nil && named {
				if sp := inSpans(segs, orig(l[0])); sp != nil && sp.carrier != "" && sr.match(hiddenVocativeRe, tAddr) {
					loc, ok = l, true
				}
			}
		}
		if ok {
			fs.textHit(segs, orig(loc[0]), "verdict coercion aimed at an AI reviewer", clean[loc[0]:loc[1]], 0.85)
		}
	}
	if mask&tAddr != 0 && len(segs) > 0 {
		hv.addrCand = j
	}

	// 11. agent instruction files
	if fs.kind.agent {
		fs.agentLine(clean, low, orig)
	}
}

// textHit reports a phrase, noting (and trusting more) a hidden carrier around it.
func (fs *fileScan) textHit(segs []span, s int, what, phrase string, conf float64) {
	detail := what + " " + quoteVisible(strings.TrimSpace(phrase))
	if sp := inSpans(segs, s); sp != nil && sp.carrier != "" {
		detail += " inside " + sp.carrier + " (hidden when rendered)"
		conf += 0.08
	}
	fs.report(hit{detail: detail, conf: conf, focus: s})
}

// inSpans returns the innermost span holding offset i: a carrier before an ordinary one.
func inSpans(segs []span, i int) *span {
	var found *span
	for k := range segs {
		sp := &segs[k]
		if i >= sp.s && i < sp.e {
			if sp.carrier != "" {
				return sp
			}
			if found == nil {
				found = sp
			}
		}
	}
	return found
}

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

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// appendLower lowercases ASCII letters and the Latin-1 capitals (É, Ü, ...) in place of the
// same number of bytes, so offsets into the result are offsets into s.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == 0xC3 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9E && s[i+1] != 0x97:
			dst = append(dst, c, s[i+1]+0x20)
			i++
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// Trigger words gate the regular expressions: one pass over the lowercased line finds which
// families of words it holds, and a regular expression runs only when its words are there.
// Triggers match at the start of a word, so "both" does not trigger "bot".
const (
	tIgnore      uint32 = 1 << iota // ignore, disregard, forget ...
	tOverride                       // override, bypass
	tYou                            // you
	tNow                            // now
	tInstr                          // instruction, directive, prompt
	tRepeat                         // repeat
	tForeign                        // the same verbs in other languages written in ASCII
	tToken                          // chat-template tokens
	tAddr                           // a word that can address a reviewer
	tRole                           // a role label: system, assistant, user, human, ai
	tForeignNoun                    // "instructions", "reglas", "Anweisungen" ... in ASCII or Latin script
	tVerdict                        // a word every verdict phrase needs: approve, safe, findings ...
)

type trigger struct {
	word  string
	bits  uint32
	whole bool // must also end a word
}

var triggerTable = func() (t [256][]trigger) {
	add := func(bits uint32, whole bool, words ...string) {
		for _, w := range words {
			t[w[0]] = append(t[w[0]], trigger{word: w, bits: bits, whole: whole})
		}
	}
	add(tIgnore, false, "ignor", "disregard", "forget", "neglect", "abandon", "discard")
	add(tOverride, false, "overrid", "bypass")
	add(tYou, false, "you")
	add(tNow, true, "now")
	add(tInstr, false, "instruction", "directive", "prompt", "pre-prompt", "preprompt")
	add(tRepeat, false, "repeat")
	add(tForeign, false, "ignor", "olvid", "oubli", "vergiss", "vergess", "esque", "dimentic",
		"trascur", "descart", "desconsider", "omit", "missacht", "neglig", "fais", "faites", "haz",
		"hagan", "desprez", "tralasci", "desatiend", "alle", "tout")
	add(tForeignNoun, false, "instru", "istruz", "indica", "regla", "regle", "r\u00e8gle", "regra",
		"regol", "orden", "\u00f3rden", "ordr", "ordin", "direct", "diret", "pauta", "consign",
		"anweisung", "befehl", "regeln", "vorgab", "anordnung", "richtlin", "orienta", "tout",
		"disposiz", "linee")
	add(tToken, false, "<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<start_of_turn>", "<end_of_turn>")
	add(tAddr, false, "llm", "language", "gpt", "chatgpt", "claude", "copilot", "gemini", "codex",
		"devin", "reviewer", "assistant", "model", "agent", "bot", "scanner", "analyzer", "analyser",
		"auditor", "a.i.", "automat", "sast", "static", "security")
	add(tAddr|tRole, true, "ai")
	add(tRole, false, "system", "assistant", "user", "human")
	add(tVerdict, false, "approv", "accept", "merged", "mark", "finding", "issue", "vulnerab",
		"problem", "bug", "error", "concern", "risk", "warn", "review", "audit", "vetted", "verified",
		"whitelist", "allowlist", "safe", "secure", "trusted", "cleared", "signed", "already", "flag",
		"report", "mention", "raise", "comment", "scan", "analy", "highlight", "point", "lgtm", "looks",
		"score", "grade", "rating", "benign", "clean", "harmless", "malicious", "non-malicious", "false")
	return t
}()

func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// triggers returns the trigger families present in a lowercased line.
func triggers(low []byte) uint32 { return triggerScan(low, nil) }

const (
	nFamilies = 12
	// longLine: past this length, regular expressions run only in windows around the trigger
	// words they need (minified files hold 100 KB lines with a handful of trigger words).
	longLine  = 4096
	maxTrigAt = 64 // positions kept per family; more means the whole line is searched
)

// trigPos holds where each trigger family starts in a long line.
type trigPos struct {
	at       [nFamilies][]int
	overflow uint32
}

func triggerScan(low []byte, tp *trigPos) uint32 {
	var m uint32
	for i := 0; i < len(low); i++ {
		c := low[i]
		if i > 0 && isLetterByte(c) && isLetterByte(low[i-1]) {
			continue
		}
		ts := triggerTable[c]
		for _, t := range ts {
			if len(low)-i >= len(t.word) && (len(t.word) < 2 || low[i+1] == t.word[1]) &&
				string(low[i:i+len(t.word)]) == t.word &&
				(!t.whole || i+len(t.word) == len(low) || !isWordByte(low[i+len(t.word)])) {
				m |= t.bits
				if tp != nil {
					for b := 0; b < nFamilies; b++ {
						if t.bits&(1<<b) == 0 {
							continue
						}
						if len(tp.at[b]) >= maxTrigAt {
							tp.overflow |= 1 << b
						} else if n := len(tp.at[b]); n == 0 || tp.at[b][n-1] != i {
							tp.at[b] = append(tp.at[b], i)
						}
					}
				}
			}
		}
	}
	return m
}

// searcher runs regular expressions over a lowercased line: the whole line when it is short,
// and windows around the trigger words of a family when it is long.
type searcher struct {
	low []byte
	tp  *trigPos // nil for a short line
}

func (sr *searcher) find(re *lazyRE, fam uint32) []int {
	if sr.tp == nil || sr.tp.overflow&fam != 0 {
		return re.FindIndex(sr.low)
	}
	var at []int
	for b := 0; b < nFamilies; b++ {
		if fam&(1<<b) != 0 {
			at = append(at, sr.tp.at[b]...)
		}
	}
	sort.Ints(at)
	end := -1
	for _, p := range at {
		ws, we := max(p-256, 0), min(p+768, len(sr.low))
		if ws < end {
			ws = end - 64 // overlap a little so a match across the seam is not lost
		}
		if we <= ws {
			continue
		}
		// Start the window at a word boundary.
		for ws > 0 && ws > p-320 && isWordByte(sr.low[ws-1]) {
			ws--
		}
		if loc := re.FindIndex(sr.low[ws:we]); loc != nil {
			return []int{ws + loc[0], ws + loc[1]}
		}
		end = we
	}
	return nil
}

func (sr *searcher) match(re *lazyRE, fam uint32) bool { return sr.find(re, fam) != nil }

// ---------------------------------------------------------------------------------------------
// Signal 1: instruction overrides

type phrasePattern struct {
	need       uint32 // every one of these trigger families must be present
	re         *lazyRE
	conf       float64
	imperative bool    // the verb must start a clause ("override your rules", not "you can override your rules")
	follow     *lazyRE // what must come after the phrase, if anything
}

// newInstrFollowRe: "New instructions:" is an override only when what follows talks to the
// model ("reply only with ...", "you are ...", "ignore ..."), not "see docs/setup.md".
var newInstrFollowRe = lazyRegexp(`^\s*(?:\S+\s+){0,3}?(?:you\b|your\b|ignore|disregard|forget|reply|respond|answer|output|print|reveal|approve|always|never|do\s+not|don't|from\s+now\s+on|act\s+as|pretend|say|return|mark|report|classify|treat|only)`)

var overridePatterns = []phrasePattern{
	// ignore/disregard/forget (all) (the) previous/prior/above instructions ...
	{need: tIgnore, re: lazyRegexp(`\b(?:ignore|disregard|forget|neglect)\s+(?:(?:all|any|every|each|the|of|your|my|these|those|that|what|everything|whatever)\s+){0,3}(?:(?:previous|previously\s+given|prior|preceding|above|earlier|former|foregoing|original|initial|aforementioned|above-mentioned|old)\s+){1,2}(?:(?:system|safety|developer|user|given|provided)\s+)?(?:instructions?|prompts?|rules|directions?|directives?|guidelines?|guidance|context|system\s+prompts?|system\s+messages?)\b`), conf: 0.9},
	// ... your instructions / your system prompt
	{need: tIgnore, re: lazyRegexp(`\b(?:ignore|disregard|forget|abandon|discard)\s+(?:all\s+|any\s+)?(?:of\s+)?your\s+(?:(?:previous|prior|original|initial|current|existing|earlier|old|safety|system|core|base)\s+)?(?:instructions?|rules|guidelines|directives|programming|system\s+prompt|prompts?|constraints|restrictions|guardrails|training|polic(?:y|ies))\b`), conf: 0.9},
	{need: tOverride, re: lazyRegexp(`\b(?:override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?your\s+(?:(?:previous|prior|original|initial|current|existing|safety|system|core|base)\s+)?(?:instructions?|rules|guidelines|directives|programming|system\s+prompt|prompts?|constraints|restrictions|guardrails|training|polic(?:y|ies))\b`), conf: 0.85, imperative: true},
	// ignore everything above
	{need: tIgnore, re: lazyRegexp(`\b(?:ignore|disregard|forget)\s+(?:everything|anything|all)\s+(?:(?:that\s+)?(?:was\s+|is\s+|you\s+were\s+|you've\s+been\s+)?(?:written|said|stated|mentioned|told)\s+)?(?:above|before|previously|so\s+far)\s*(?:[.,;:!)"'\]]|$|and\b)`), conf: 0.8},
	// you are now ...
	{need: tYou | tNow, re: lazyRegexp(`\byou(?:\s+are|'re)\s+now\s+(?:(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:ai|assistant|model|chatbot|llm|persona|character|hacker|jailbroken|unrestricted|unfiltered|uncensored)\b|dan\b|in\s+(?:jailbreak|god|unrestricted|dan|developer)\s+mode\b|(?:free|freed|released|liberated)\s+from\b|no\s+longer\s+(?:bound|restricted|limited|an?\s+ai|an?\s+assistant)\b|(?:jailbroken|unrestricted|unfiltered|uncensored)\b)`), conf: 0.85},
	// new instructions:
	{need: tInstr, re: lazyRegexp(`\b(?:new|real|actual|true|secret|hidden|revised)\s+(?:system\s+)?(?:instructions?|directives?|system\s+prompt)\s*:`), conf: 0.75, imperative: true, follow: newInstrFollowRe},
	// reveal / print your system prompt
	{need: tInstr, re: lazyRegexp(`\b(?:reveal|print|show|output|display|repeat|leak|dump|disclose|expose|tell\s+me|tell\s+us|give\s+me|share|return|echo|write\s+out|recite|spell\s+out)\s+(?:me\s+|us\s+)?(?:all\s+)?(?:of\s+)?your\s+(?:(?:full|entire|complete|original|hidden|secret|initial|exact|internal|confidential|verbatim)\s+)*(?:system\s+(?:prompt|message|instructions)|initial\s+(?:prompt|instructions)|hidden\s+(?:prompt|instructions)|(?:prompt|instructions)\s+verbatim|pre-?prompt|instructions\s+word\s+for\s+word)`), conf: 0.85},
	{need: tRepeat, re: lazyRegexp(`\brepeat\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:words|text|everything|instructions)\s+above\b`), conf: 0.75},
}

// imperativeAt reports whether the verb at i starts a clause (an order, not a description).
func imperativeAt(s string, i int) bool {
	pre := strings.TrimRight(s[:i], " \t")
	low := strings.ToLower(pre)
	for _, w := range []string{"please", "now", "must", "then", "and", "important", "urgent", "attention", "your", "here are", "note"} {
		if strings.HasSuffix(low, w) && (len(low) == len(w) || !isWordByte(low[len(low)-len(w)-1])) {
			return true
		}
	}
	if pre == "" {
		return true
	}
	c := pre[len(pre)-1]
	return strings.IndexByte(".!?:;,>-*#/\"'([{|`", c) >= 0
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// foreignLatinRe: the same phrase in Spanish, French, German, Portuguese and Italian, matched
// on the ASCII-lowercased line. Go's \b is ASCII-only, so non-letters bound the words.
var foreignLatinRe = lazyRegexp(strings.Join([]string{
	// Spanish
	`(?:^|\P{L})(?:ignora|ignore|ignorad|ignoren|ignorar|olvida|olvide|olvidad|olviden|olvidar|descarta|descarte|omite|omita|desatiende|desatienda|haz\s+caso\s+omiso\s+de|hagan?\s+caso\s+omiso\s+de)\s+(?:(?:todas|todos|las|los|tus|sus|de|mis)\s+){0,3}(?:instrucciones|indicaciones|reglas|órdenes|ordenes|directrices|directivas|pautas)\s+(?:anteriores|previas|precedentes|de\s+arriba|iniciales|originales)`,
	`(?:^|\P{L})(?:ignora|ignore|ignorad|olvida|olvide|olvidad|descarta)\s+(?:todas\s+)?(?:tus|sus)\s+(?:instrucciones|reglas|directrices)`,
	// French
	`(?:^|\P{L})(?:ignore|ignorez|ignorer|ignores|oublie|oubliez|oublier|néglige|négligez|negligez|fais\s+abstraction\s+des|faites\s+abstraction\s+des)\s+(?:(?:toutes|tous|les|tes|vos|des|mes)\s+){0,3}(?:instructions|consignes|règles|regles|directives|indications|ordres)\s+(?:précédentes|precedentes|antérieures|anterieures|ci-dessus|initiales|d'origine|originales|préalables|prealables)`,
	`(?:^|\P{L})(?:ignore|ignorez|oublie|oubliez)\s+(?:toutes\s+)?(?:tes|vos)\s+(?:instructions|consignes|règles|regles|directives)`,
	`(?:^|\P{L})(?:ignore|ignorez|oublie|oubliez)\s+tout\s+ce\s+qui\s+(?:précède|precede)`,
	// German
	`(?:^|\P{L})(?:ignorier(?:e|en|t)?|vergiss|vergesst|vergessen|missachte|missachten|missachtet)\s+(?:sie\s+)?(?:bitte\s+)?(?:(?:alle|sämtliche|saemtliche|die|jegliche)\s+){0,2}(?:vorherigen|vorigen|bisherigen|früheren|frueheren|obigen|vorangegangenen|vorstehenden|vorhergehenden|ursprünglichen|urspruenglichen)\s+(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen|richtlinien)`,
	`(?:^|\P{L})(?:ignorier(?:e|en|t)?|vergiss|vergesst|vergessen|missachte|missachten)\s+(?:sie\s+)?(?:bitte\s+)?(?:alle\s+)?(?:deine|ihre|eure)\s+(?:anweisungen|instruktionen|regeln|vorgaben|richtlinien)`,
	`(?:^|\P{L})(?:alle\s+)?(?:vorherigen|vorigen|bisherigen|früheren|obigen|vorangegangenen|vorstehenden|vorhergehenden)\s+(?:anweisungen|instruktionen|befehle|regeln|vorgaben)\s+(?:\S+\s+){0,2}(?:ignorieren|vergessen|missachten)`,
	// Portuguese
	`(?:^|\P{L})(?:ignore|ignora|ignorar|ignorem|esqueça|esqueca|esqueçam|esquecam|esquecer|desconsidere|desconsidera|desconsiderar|despreze|descarte)\s+(?:(?:todas|todos|as|os|suas|tuas|de)\s+){0,3}(?:instruções|instrucoes|regras|orientações|orientacoes|diretrizes|diretivas|ordens|indicações|indicacoes)\s+(?:anteriores|prévias|previas|acima|iniciais|originais)`,
	// Italian
	`(?:^|\P{L})(?:ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|dimenticare|trascura|trascurate|tralascia)\s+(?:(?:tutte|tutti|le|gli|i|tue|sue|vostre)\s+){0,3}(?:istruzioni|regole|indicazioni|direttive|disposizioni|linee\s+guida|ordini)\s+(?:precedenti|sopra|anteriori|di\s+prima|iniziali|originali|ricevute)`,
}, "|"))

// foreignWide: Russian (case-insensitive: Cyrillic capitals), Chinese, Japanese and Korean.
// Each runs only when the line holds one of its verbs.
var foreignWide = []struct {
	gate []string
	re   *lazyRE
}{
	{[]string{"гнор", "ГНОР", "абуд", "АБУД", "абыть", "тброс", "ТБРОС", "ренебр", "РЕНЕБР", "бращай", "БРАЩАЙ"},
		lazyRegexp(`(?i)` + strings.Join([]string{
			`(?:^|\P{L})(?:игнорируй(?:те)?|проигнорируй(?:те)?|игнорировать|забудь(?:те)?|забыть|отбрось(?:те)?|пренебреги(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на)\s+(?:(?:все|всё|мои|эти)\s+)?(?:предыдущие|прежние|предшествующие|вышеуказанные|вышеизложенные|вышеприведённые|вышеприведенные|изначальные|исходные|прошлые|ранее\s+данные|данные\s+ранее|предыдущих|прежних)\s+(?:инструкции|указания|правила|команды|директивы|установки|промпты|инструкций|указаний|правил|команд)`,
			`(?:^|\P{L})(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|отбрось(?:те)?)\s+(?:все\s+)?(?:свои|твои|ваши)\s+(?:инструкции|указания|правила|директивы|установки)`,
		}, "|"))},
	{[]string{"忽略", "无视", "無視", "忽視", "忽视", "不要理", "别管", "別管", "忘记", "忘記", "忘掉", "抛开", "拋開", "放弃", "放棄", "跳过", "跳過", "忘れ"},
		lazyRegexp(strings.Join([]string{
			`(?:忽略|无视|無視|忽視|忽视|不要理会|不要理會|别管|別管|忘记|忘記|忘掉|抛开|拋開|放弃|放棄|跳过|跳過)(?:掉)?(?:你)?(?:(?:所有|全部|一切)(?:的)?)?(?:之前|以前|先前|此前|上面|上述|前面|以上|原来|原來|原有|原先|早先)[^。\n]{0,4}?(?:指令|指示|说明|說明|规则|規則|提示词|提示詞|提示|命令|设定|設定|约束|約束)`,
			`(?:以前|これまで|前|上記|上|先|今まで|過去|元|最初)の(?:すべての|全ての|全部の)?(?:指示|命令|指令|ルール|プロンプト|インストラクション|制約)(?:を|は)?(?:すべて|全て|全部)?(?:無視|忘れ)`,
		}, "|"))},
	{[]string{"무시", "잊어"}, lazyRegexp(strings.Join([]string{
		`(?:이전|위의|앞의|기존|앞선|이전의)\s*(?:모든\s*)?(?:지시|명령|지침|규칙|프롬프트|지시사항|명령어)(?:를|을|은|는|들을)?\s*(?:모두\s*)?(?:무시|잊어)`,
	}, "|"))},
}

// ---------------------------------------------------------------------------------------------
// Signal 2: fake conversation turns

var (
	roleRe = lazyRegexp(`^[\s>*#=_\-/!;%|]*(?:\*\*|__)?\[?(system|assistant|user|human|ai)\]?(?:\*\*|__)?\s*(?:\((?:message|prompt|turn)\)\s*)?:(?:\*\*|__)?\s*(.*)$`)

	systemTurnRe = lazyRegexp(`^(?:you\s+are\b|you're\b|youre\b|you\s+(?:must|will|should|shall)\s+(?:now\s+)?(?:always|never|only|ignore|approve|respond|answer|reply|act|obey|follow|comply|not\s+(?:flag|report|mention|refuse|reveal))\b|your\s+(?:new\s+|real\s+|true\s+|only\s+)?(?:task|role|job|goal|purpose|instructions|objective|mission)\b|as\s+an?\s+(?:ai|assistant|language\s+model|llm|reviewer)\b|the\s+(?:assistant|ai|model|reviewer|agent)\s+(?:is|must|should|will|has)\b|from\s+now\s+on\b|(?:ignore|disregard|forget)\s+(?:all|any|previous|prior|the\s+above|everything|your)\b|new\s+instructions\b|override\s+(?:all|your|previous)\b|act\s+as\b|pretend\s+(?:to|you)\b|always\s+(?:approve|respond|answer|reply|say|output|comply)\b|never\s+(?:flag|report|mention|refuse|reveal)\b|do\s+not\s+(?:flag|report|mention|refuse|reveal)\b|approve\s+(?:this|the|all)\b)`)

	aiNoteRe        = lazyRegexp(`^(?:i\s+(?:will|have|am|can|see|understand)\b|i'(?:ll|m|ve)\b|here\s+is\b|here's\b|ok[,.!]|okay\b|yes[,.!])`)
	assistantTurnRe = lazyRegexp(`^(?:sure\b|certainly\b|of\s+course\b|absolutely\b|understood\b|okay\b|ok[,.!]|yes[,.!]|i\s+(?:will|have|am|can|approve|found|see|understand)\b|i'(?:ll|m|ve)\b|as\s+an?\s+(?:ai|assistant|language\s+model)\b|no\s+(?:security\s+)?(?:issues|problems|vulnerabilities|findings|concerns)\b|(?:this|the)\s+(?:code|change|changes|pr|pull\s+request|commit|diff|patch|file)\s+(?:is|looks|has|was|contains|seems)\b|lgtm\b|approved\b|here\s+is\b|here's\b)`)
)

// roleTurn looks for "system:", "assistant:", "Human:" ... at the start of a comment or a
// prose line. A label alone proves nothing (`# user: the account`), so each needs a
// model-like turn: a system turn that instructs ("you are ..."), an assistant turn that
// answers ("Sure, ...", "No issues found"), and user/human turns only next to such a turn.
// base is the line offset where seg starts.
func (fs *fileScan) roleTurn(seg string, low []byte, sp span, next string, base int) bool {
	if bytes.IndexByte(low, ':') < 0 {
		return false
	}
	m := roleRe.FindSubmatchIndex(low)
	if m == nil {
		return false
	}
	label := seg[m[2]:m[3]]
	content := strings.TrimSpace(seg[m[4]:m[5]])
	content = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(content, "-->")), "*/")
	content = strings.TrimSpace(content)
	if content == "" {
		content = strings.TrimLeft(next, " \t>*#/-;%")
	}
	at := base + m[2]
	if at > len(fs.cur.text) {
		at = base
	}
	where, conf := "", 0.8
	switch {
	case sp.carrier != "":
		where, conf = " inside "+sp.carrier+" (hidden when rendered)", 0.95
	case sp.code:
		where, conf = " in a code block", 0.5
	}
	lc := lowerASCII(content)
	switch lowerASCII(label) {
	case "system":
		if !systemTurnRe.MatchString(lc) {
			return false
		}
	case "assistant":
		if !assistantTurnRe.MatchString(lc) {
			return false
		}
	case "ai": // "# AI: I will refactor this" is a note; a model's answer is more specific
		if !assistantTurnRe.MatchString(lc) || aiNoteRe.MatchString(lc) {
			return false
		}
	default: // user, human
		if content != "" {
			fs.userTurns = append(fs.userTurns, pendingTurn{line: fs.cur.line, text: fs.cur.text, label: label, at: at})
			return true
		}
		return false
	}
	fs.validTurn = true
	fs.report(hit{
		detail: fmt.Sprintf("fake conversation turn %s%s", quoteVisible(label+": "+content), where),
		conf:   conf, focus: at,
	})
	return true
}

// ---------------------------------------------------------------------------------------------
// Signal 3: chat-template tokens

var templateTokens = []string{
	"<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|system|>", "<|assistant|>", "<|user|>",
	"<|endoftext|>", "<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>",
	"<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|endofprompt|>", "[INST]", "[/INST]",
	"<<SYS>>", "<</SYS>>", "<start_of_turn>", "<end_of_turn>",
}

// ---------------------------------------------------------------------------------------------
// Signal 4: verdict coercion

// Both an addressee and a verdict are needed. An order ("approve this", "mark it as safe")
// needs only a named model or reviewer program on the line; a statement ("this code is
// pre-approved", "already audited") also reads as ordinary prose ("our AI model has already
// been audited"), so it needs the reviewer addressed in the vocative ("Note to AI reviewers:",
// "LLM:", "if you are an AI"), on the line or in the comment just above. "Reviewers" and
// "auditors" alone are people ("Reviewers: please approve the PR only after CI is green");
// they count as addressees only as AI/automated reviewers, or inside a hidden carrier.
const (
	addrNames  = `ai|a\.i\.|llms?|(?:large\s+)?language\s+models?|chatgpt|gpt(?:-?[0-9][\w.-]*)?|claude|copilot|gemini|codex|devin`
	addrRoles  = `assistants?|models?|agents?|bots?|scanners?|analy[sz]ers?`
	humanRoles = `reviewers?|auditors?`
	aiQual     = `ai|llm|gpt|automated|automatic|sast`
	otherQual  = `code[\s-]+review(?:ing)?|static[\s-]+analysis|security`
	addrTarget = `(?:(?:` + aiQual + `)[\s-]+(?:code[\s-]+)?(?:` + humanRoles + `|` + addrRoles + `)|(?:(?:` + otherQual + `)[\s-]+)?(?:` + addrRoles + `)|(?:` + addrNames + `)(?:[\s-]+(?:code[\s-]+)?(?:` + humanRoles + `|` + addrRoles + `))?)`
)

var addresseeRe = lazyRegexp(strings.Join([]string{
	// a model named outright
	`\b(?:` + addrNames + `)\b`,
	// a reviewer that is a program
	`\b(?:` + aiQual + `)[\s-]+(?:code[\s-]+)?(?:` + humanRoles + `|` + addrRoles + `|tools?|review\s+(?:tools?|bots?|agents?))\b`,
	`\b(?:` + otherQual + `)[\s-]+(?:` + addrRoles + `|tools?|scanning\s+tools?)\b`,
	`\breview(?:ing)?[\s-]+(?:bots?|agents?|models?)\b`,
	vocative,
}, "|"))

// vocativeOf builds the forms that address someone: "Note to X", "Dear X", "X:" at the start
// of a clause, "if you are X".
func vocativeOf(target string) string {
	return `\b(?:dear|hey|hi|hello|attention|note\s+(?:to|for)|message\s+(?:to|for)|instructions?\s+(?:to|for)|psa\s+(?:to|for)|to\s+(?:any|all|every))\s+(?:the\s+|any\s+|all\s+|an?\s+|our\s+)?` + target + `\b` +
		`|\bif\s+you\s+are\s+(?:an?\s+|the\s+)?` + target + `\b` +
		`|(?:^|[.!?;(\[>*#/\-]\s*)` + target + `\s*[:,]`
}

var (
	vocative   = vocativeOf(addrTarget)
	vocativeRe = lazyRegexp(vocative)
	// hiddenVocativeRe: people-reviewers addressed inside a hidden carrier.
	hiddenVocativeRe = lazyRegexp(vocativeOf(`(?:` + humanRoles + `)`))
)

// verdictOrderRe: the reviewer is told what to conclude.
var verdictOrderRe = lazyRegexp(strings.Join([]string{
	`\bapprove\s+(?:this|the|it|these|my|our|all|without)\b`,
	`\bmark\s+(?:this|it|the\s+[\w-]+(?:\s+[\w-]+)?|everything|all\s+[\w-]+)\s+as\s+(?:safe|secure|approved|clean|benign|reviewed|passing|passed|ok|trusted|false\s+positives?|lgtm|not\s+vulnerable|non-?malicious)\b`,
	`\b(?:report|return|output|say|respond\s+with|reply\s+with|answer\s+with|state|conclude|find|flag)\s+(?:that\s+there\s+(?:are|were)\s+)?(?:no|zero|0|none)\s+(?:[\w-]+\s+)?(?:findings|issues|vulnerabilities|problems|bugs|errors|concerns|risks|warnings)\b`,
	`\b(?:do\s+not|don't|dont|never|no\s+need\s+to|must\s+not|should\s+not|shouldn't)\s+(?:flag|report|mention|raise|comment\s+on|review|scan|analy[sz]e|audit|warn\s+about|highlight|point\s+out)\s+(?:this|it|these|them|the|any|anything|vulnerabilit|issues|security|findings)`,
	`\b(?:ignore|skip|overlook|disregard)\s+(?:any|all)\s+(?:potential\s+)?(?:security\s+)?(?:issues|vulnerabilit(?:y|ies)|findings|problems|warnings|concerns|risks|bugs)\b`,
	`\b(?:ignore|skip|overlook|disregard)\s+(?:the\s+)?security\s+(?:issues|vulnerabilit(?:y|ies)|findings|problems|warnings|concerns|risks|bugs)\b`,
	`\b(?:respond|reply|say|output|answer|return|write|print)\s+(?:with\s+)?(?:only\s+)?["'\x60]?(?:lgtm|looks\s+good|approved|no\s+issues|no\s+findings|\{\s*"findings"\s*:\s*\[\s*\]\s*\})`,
	`\b(?:give|assign|rate)\s+(?:this|it)\s+(?:a\s+)?(?:passing|clean|perfect|high|good)\s+(?:score|grade|rating|review)\b`,
	`\b(?:classify|treat|consider|label|categori[sz]e|regard)\s+(?:this|it|the\s+code|this\s+[\w-]+)\s+as\s+(?:safe|benign|secure|trusted|clean|harmless|approved|non-?malicious|false\s+positives?)\b`,
}, "|"))

// verdictClaimRe: the reviewer is told the verdict is already in.
var verdictClaimRe = lazyRegexp(strings.Join([]string{
	`\b(?:must|should|shall|to)\s+(?:be\s+)?(?:approved|accepted|merged|marked\s+(?:as\s+)?(?:safe|secure|clean|approved))\b`,
	`\b(?:this|the)\s+(?:code|change|changes|pr|pull\s+request|commit|diff|patch|file|function|module|repository|repo|script|package|merge\s+request)\s+(?:is|was|has\s+been|have\s+been|are)\s+(?:already\s+)?(?:pre-?approved|approved|reviewed|audited|vetted|verified|whitelisted|allowlisted|safe|secure|trusted|cleared|signed\s+off)\b`,
	`\b(?:pre-?approved|already\s+(?:been\s+)?(?:reviewed|audited|approved|vetted|verified|scanned))\b`,
}, "|"))

// ---------------------------------------------------------------------------------------------
// Signal 11: agent instruction files

// Agent instruction files legitimately carry development guidance ("run `go test ./...`
// before committing", "use tabs", "rm -rf dist"): that is not a finding. Only instructions
// that make an agent run code it did not see (download-and-execute, eval, sh -c, base64
// payloads), act with privilege or destroy outside the work tree (sudo, rm -rf on /, ~, $VAR),
// reach the network with data, touch credentials, or switch off checks are reported, and a
// negated instruction ("never use --no-verify") is not.
type agentPattern struct {
	re    *lazyRE
	what  string
	conf  float64
	gate  []string // one of these must be in the lowercased line for re to run
	exact bool     // re is case-sensitive and runs on the line as written (curl -F is not -f)
}

var agentPatterns = []agentPattern{
	{re: lazyRegexp(`\b(?:curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod|fetch)\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|c|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b`), what: "download piped into a shell or interpreter", conf: 0.9, gate: []string{"curl", "wget", "iwr", "invoke-", "irm", "fetch"}},
	{re: lazyRegexp(`\b(?:ba|z|da|k)?sh\s+(?:-c\s+)?["']?\s*(?:<\(|\$\(|` + "`" + `)\s*(?:curl|wget)\b`), what: "shell running a download", conf: 0.9, gate: []string{"curl", "wget"}},
	{re: lazyRegexp(`\b(?:iex|invoke-expression)\b[^\n]*\b(?:downloadstring|iwr|invoke-webrequest|irm|invoke-restmethod|net\.webclient)`), what: "PowerShell download-and-execute", conf: 0.9, gate: []string{"iex", "invoke-expression"}},
	{re: lazyRegexp(`\b(?:ba|z|da|k)?sh\s+-c\s`), what: "shell command string (sh -c)", conf: 0.75, gate: []string{"-c"}},
	{re: lazyRegexp(`\beval\s*(?:\(|\$\(|"|'|` + "`" + `|\$\{?\w)`), what: "eval of a constructed string", conf: 0.75, gate: []string{"eval"}}, // shell-init evals are exempt, see shellInitRe
	{re: lazyRegexp(`\bsudo\s+[\w-]`), what: "privileged command (sudo)", conf: 0.75, gate: []string{"sudo"}},
	{re: lazyRegexp(`\brm\s+(?:-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?["']?(?:/|~|\$\{?\w|\*|\./\*|\.\.(?:/|\s|$|["'\x60])|\.(?:\s|$|["'\x60])|\.git\b)`), what: "recursive forced delete outside the build tree", conf: 0.85, gate: []string{"rm ", "rm\t"}},
	{re: lazyRegexp(`(?:\b(?:curl|wget)\b|https?://|\bdownload)[^\n]*\bchmod\s+(?:[ugoa]*\+x|0?7[0-7][0-7])\b|\bchmod\s+(?:[ugoa]*\+x|0?7[0-7][0-7])\s+["']?(?:/tmp/|/dev/shm/|~/downloads|\$tmpdir)`), what: "making a download executable", conf: 0.85, gate: []string{"chmod"}},
	{re: lazyRegexp(`\bbase64\s+(?:-d|--decode)\b|\b(?:b64decode|atob|frombase64string)\s*\(|\bdecode\b[^.\n]{0,40}\bbase64\b[^.\n]{0,40}\b(?:run|execute|eval)\b|\bbase64\b[^.\n]{0,40}\bdecode\b[^.\n]{0,40}\b(?:run|execute|eval)\b`), what: "base64-decoded payload", conf: 0.85, gate: []string{"base64", "b64decode", "atob", "frombase64"}},
	// network with data
	{re: lazyRegexp(`\b(?:exfiltrate|exfil|phone\s+home)\b`), what: "exfiltration", conf: 0.9, gate: []string{"exfil", "phone"}},
	{re: lazyRegexp(`\b(?:send|post|upload|transmit|forward|leak|copy|pipe|dump|beacon)\b(?:[^.\n]|\.\S){0,60}?\b(?:contents?|data|files?|env|environment|secrets?|keys?|tokens?|credentials?|passwords?|source|codebase|repo(?:sitory)?|history|output|logs?|ssh|cookies?|session)\b(?:[^.\n]|\.\S){0,60}?\b(?:to|into|at)\s+(?:https?://|ftp://|wss?://|\d{1,3}(?:\.\d{1,3}){3}|(?:the\s+|this\s+|my\s+|our\s+|a\s+)?(?:webhook|endpoint|server|url|pastebin|gist|discord|telegram|remote\s+host)\b)`), what: "sends data to a network destination", conf: 0.85},
	{re: lazyRegexp(`\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\s*["']?(?:[\w-]+=)?(?:@|[^\s"']*\$(?:\(|\{?[A-Za-z_]))`), what: "uploads a file or command output with curl", conf: 0.85, gate: []string{"curl"}, exact: true},
	{re: lazyRegexp(`\bwget\b[^\n]*--post-(?:file|data)`), what: "uploads data with wget", conf: 0.85, gate: []string{"--post-"}},
	{re: lazyRegexp(`\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\.[\w.-]+\s+\d{2,5}\b`), what: "raw network connection (netcat)", conf: 0.85, gate: []string{"nc ", "ncat", "netcat"}},
	// credentials
	{re: lazyRegexp(`\b(?:read|cat|print|copy|cp|send|upload|include|output|display|show|echo|collect|gather|access|open|dump|extract|grab|retrieve|list|paste|attach|encode|base64|scp|rsync|leak|post|share|reveal|search|harvest|steal|tail|head|less|type|get-content|look\s+(?:up|at|in|for))\b[^.;\n]{0,60}?(?:~/\.ssh\b|\$home/\.ssh\b|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b|(?:^|[\s"'=(/\x60])\.env(?:\.local|\.production|\.prod)?(?:[^.\w]|$)|\.aws/(?:credentials|config)|~/\.aws\b|\bapplication_default_credentials\.json|\.config/gcloud|\.azure/|\.kube/config|\.docker/config\.json|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.gnupg\b|\bkeychains?\b|\bkeyring\b|/etc/shadow\b|\bapi[_\s-]?keys?\b|\b(?:access|auth|bearer|session|refresh|oauth)[_\s-]?tokens?\b|\bsecret[_\s-]?keys?\b|\bprivate[_\s-]?keys?\b|\b(?:your|the\s+user'?s|my|all|stored|saved)\s+passwords?\b|\bcredentials?\b|\bsecrets\b|\b[a-z][a-z0-9_]*_(?:token|secret|api_key|apikey|password|passwd|access_key|private_key)\b|\bprintenv\b|\benv\s*\|)`), what: "reads or moves credentials", conf: 0.8},
	{re: lazyRegexp(`(?:~|\$home)/\.ssh/id_|~/\.aws/credentials|\.git-credentials\b|/etc/shadow\b|\bfind-(?:generic|internet)-password\b|\bsecret-tool\s+lookup\b`), what: "references credential files", conf: 0.7, gate: []string{"ssh", "aws", "credentials", "shadow", "password", "secret-tool"}},
	// skipping checks
	{re: lazyRegexp(`--no-verify\b|\btollgate=0\b|\bhusky=0\b|\blefthook=0\b|\bskip=[\w,-]+\s+git\b|-c\s+core\.hookspath=|--no-hooks\b`), what: "skips commit hooks", conf: 0.9, gate: []string{"no-verify", "=0", "skip=", "hookspath", "no-hooks"}},
	{re: lazyRegexp(`\b(?:disable|skip|bypass|turn\s+off|deactivate|circumvent|suppress|silence|comment\s+out|get\s+around|work\s+around|uninstall)\s+(?:(?:the|all|any|every|git|pre-?commit|pre-?push|commit|push|these|those|failing|broken|flaky|ci|our|existing|security|code|static|tollgate's|tollgate)\s+){0,3}(?:hooks?|pre-?commit|pre-?push|tests?|test\s+suites?|linters?|linting|lint|checks?|ci|review|code\s+review|security\s+(?:scan(?:ner)?s?|checks?|review)|scanners?|tollgate|gitleaks|husky|lefthook|type[\s-]?check(?:ing|s|er)?|verification|signature\s+verification)\b`), what: "switches off checks", conf: 0.8, gate: []string{"disable", "skip", "bypass", "turn", "deactivate", "circumvent", "suppress", "silence", "comment out", "around", "uninstall"}},
}

var negationRe = lazyRegexp(`\b(?:never|don't|dont|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|avoid|not\s+allowed|prohibited|forbidden|disallowed|refuse|no\s+need\s+to)\b`)

var (
	// shellInitRe: evals every setup guide has (ssh-agent, version managers, direnv).
	shellInitRe     = lazyRegexp(`\beval\s*["']?\$\(\s*(?:ssh-agent|direnv\s+hook|pyenv\s+(?:init|virtualenv-init)|rbenv\s+init|nodenv\s+init|goenv\s+init|jenv\s+init|fnm\s+env|opam\s+env|minikube\s+(?:-p\s+\S+\s+)?docker-env|\S*brew\s+shellenv|conda\s+shell|starship\s+init|zoxide\s+init|mise\s+activate|rtx\s+activate|thefuck\s+--alias)`)
	configCommandRe = lazyRegexp(`"command"\s*:\s*"((?:[^"\\]|\\.)*)"`)
	envTemplateRe   = lazyRegexp(`\.env\.(?:example|sample|template|dist|defaults?)\b`)
)

func (fs *fileScan) agentLine(clean string, lowb []byte, orig func(int) int) {
	low := string(lowb)
	if fs.kind.agentConfig != "" {
		if m := configCommandRe.FindStringSubmatchIndex(clean); m != nil {
			fs.report(hit{
				detail: fmt.Sprintf("agent configuration adds a program the agent will start (%s): %s", fs.kind.agentConfig, quoteVisible(clean[m[2]:m[3]])),
				conf:   0.9, focus: orig(m[0]),
			})
		}
	}
	var whats []string
	first, conf := -1, 0.0
	frag := ""
	for _, p := range agentPatterns {
		if p.gate != nil && !containsAny(low, p.gate) {
			continue
		}
		in := low
		if p.exact {
			in = clean
		}
		for _, loc := range p.re.FindAllStringIndex(in, 4) {
			if negated(low, loc[0]) {
				continue
			}
			if strings.Contains(low[loc[0]:loc[1]], ".env") && envTemplateRe.MatchString(low) {
				continue
			}
			if strings.HasPrefix(p.what, "eval") && shellInitRe.MatchString(low[loc[0]:]) {
				continue
			}
			if strings.Contains(p.what, "curl") && isLocal(low[loc[0]:]) {
				continue
			}
			whats = append(whats, p.what)
			if p.conf > conf {
				conf = p.conf
			}
			if first < 0 || loc[0] < first {
				first, frag = loc[0], clauseFrom(clean, loc[0], loc[1])
			}
			break
		}
	}
	if first >= 0 {
		fs.report(hit{
			detail: fmt.Sprintf("agent instruction file tells the agent to do something dangerous (%s): %s", strings.Join(whats, "; "), quoteVisible(frag)),
			conf:   conf, focus: orig(first),
		})
	}
}

// clauseFrom returns the text from start to the end of its clause (a closing backtick, the end
// of the sentence, or the line), at least up to end.
func clauseFrom(s string, start, end int) string {
	stop := len(s)
	for _, sep := range []string{"`", ". ", "; "} {
		if i := strings.Index(s[end:], sep); i >= 0 && end+i < stop {
			stop = end + i
		}
	}
	if stop > end+100 {
		stop = end + 100
		for stop < len(s) && !utf8.RuneStart(s[stop]) {
			stop++
		}
	}
	return strings.TrimRight(s[start:stop], " .")
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// lowerASCII lowercases like appendLower: byte offsets stay valid for the original.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' || s[i] == 0xC3 {
			return string(appendLower(make([]byte, 0, len(s)), s))
		}
	}
	return s
}

// isLocal reports a loopback destination (s is lowercased).
func isLocal(s string) bool {
	return strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") || strings.Contains(s, "[::1]") || strings.Contains(s, "0.0.0.0")
}

// negated reports whether the clause before i says not to do it ("Never run `sudo`").
func negated(s string, i int) bool {
	start := 0
	for _, sep := range []string{". ", "! ", "? ", ";", " then ", " and ", " but ", " — "} {
		if j := strings.LastIndex(s[:i], sep); j >= 0 && j+len(sep) > start {
			start = j + len(sep)
		}
	}
	if start > i {
		start = i
	}
	return negationRe.MatchString(s[start:i])
}

// ---------------------------------------------------------------------------------------------
// Signals 6-10: characters

// scanRunes checks a non-ASCII line character by character, in one pass, for tag characters,
// bidi controls, zero-width and other invisible characters, variation-selector payloads, ESC,
// and mixed-script identifiers. It returns the line without invisible characters (so that
// phrases split by them still match) and a map from its offsets to the line's.
func (fs *fileScan) scanRunes(text string, newNo int) (string, []int, bool) {
	var (
		clean        = make([]byte, 0, len(text))
		cmap         = make([]int, 0, len(text))
		hidden       bool
		wide         bool
		esc          bool
		tagRuns      []tagRun
		bidi         []rune
		bidiAt       = -1
		rtl          bool
		zw           []string
		zwAt              = -1
		prevR        rune = -1
		tokS              = -1 // start of the current word token
		tokLat, tokC bool
		tokG         bool // Greek letter that looks Latin
		tokOther     bool // a letter of another script
		tokGany      bool // any Greek letter
		invalid      int  // invalid UTF-8 sequences
		controls     int  // C0 controls other than tab and ESC
		inWord       bool // an invisible character sits inside a word
		blocks       [8]int32
		nblocks      int // distinct 128-code-point blocks of non-ASCII letters, up to 8
		tokLatN      int
	)
	// A token mixes scripts when it has ASCII letters and Cyrillic ones, or ASCII letters and
	// a Greek letter drawn like a Latin one (ο, Α, Β, ...): lowercase Greek in math code
	// (maxγ1, αβc) is not a homoglyph attack. A token with Cyrillic and Greek, or letters of
	// any further script, is table data (idna, case tables), not an identifier.
	type cand struct {
		s, e     int
		cyrillic bool
	}
	var cands []cand
	flush := func(end int) {
		if tokS >= 0 && tokLat && !tokOther && !(tokC && tokGany) && (tokC || tokG && tokLatN >= 2) {
			cands = append(cands, cand{tokS, end, tokC})
		}
		tokS, tokLat, tokC, tokG, tokGany, tokOther, tokLatN = -1, false, false, false, false, false, 0
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= 0x400 {
			wide = true
		}
		switch {
		case r >= 0xE0000 && r <= 0xE007F:
			j := i
			var run []rune
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if r2 < 0xE0000 || r2 > 0xE007F {
					break
				}
				run = append(run, r2)
				j += s2
			}
			if !(prevR == 0x1F3F4 && isFlagTags(run)) {
				tagRuns = append(tagRuns, tagRun{i, run})
			}
			prevR = run[len(run)-1]
			hidden = true
			i = j
			flush(i)
			continue
		case isBidi(r):
			bidi = append(bidi, r)
			if bidiAt < 0 {
				bidiAt = i
			}
			flush(i)
		case r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF:
			j, n := i, 0
			var payload []byte
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if v, ok := variationByte(r2); ok {
					payload = append(payload, v)
					n++
					j += s2
					continue
				}
				break
			}
			if n >= 4 {
				fs.report(hit{detail: fmt.Sprintf("%d variation selectors in a row hide data: %s", n, strconv.Quote(printableBytes(payload))), conf: 0.85, focus: i})
			}
			hidden = true
			i = j
			continue // keeps the token going: an emoji presentation selector is not a separator
		case isZeroWidth(r):
			if fs.zeroWidthSuspicious(text, i, size, r, newNo) {
				if p, n := neighbours(text, i, size); unicode.IsLetter(p) && unicode.IsLetter(n) || isWordRune(p) && isWordRune(n) {
					inWord = true
				}
				zw = append(zw, runeName(r))
				if zwAt < 0 {
					zwAt = i
				}
			}
			flush(i)
		case r == 0x3164 || r == 0xFFA0:
			zw = append(zw, runeName(r))
			if zwAt < 0 {
				zwAt = i
			}
		case r == 0x1b:
			esc = true
		case r == utf8.RuneError && size == 1:
			invalid++
			flush(i)
		case r < 0x20 && r != '\t':
			controls++
			flush(i)
		default:
			// Tokens are runs of letters (and combining marks): "say_һello" splits at "_", so a
			// Russian test name such as test_проверка is two clean tokens.
			if unicode.IsLetter(r) || unicode.In(r, unicode.Mn, unicode.Mc) {
				if tokS < 0 {
					tokS = i
				}
				switch {
				case r < utf8.RuneSelf:
					tokLat = true
					tokLatN++
				case unicode.Is(unicode.Latin, r):
					// accented and IPA letters are neither ASCII nor a homoglyph script
				case unicode.Is(unicode.Cyrillic, r):
					tokC = true
				case unicode.Is(unicode.Greek, r):
					tokGany = true
					if _, ok := greekLookalike[r]; ok {
						tokG = true
					}
				case unicode.IsLetter(r):
					tokOther = true
				}
				if unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
					rtl = true
				}
				if r >= utf8.RuneSelf && nblocks < len(blocks) {
					b := int32(r >> 7)
					seen := false
					for _, x := range blocks[:nblocks] {
						seen = seen || x == b
					}
					if !seen {
						blocks[nblocks] = b
						nblocks++
					}
				}
			} else {
				flush(i)
			}
		}
		switch {
		case hiddenRune(r):
			hidden = true
		case r >= 0xFF01 && r <= 0xFF5E:
			// Fullwidth ASCII reads as ASCII: phrase matching sees "ｉｇｎｏｒｅ" as "ignore".
			hidden = true
			clean = append(clean, byte(r-0xFEE0))
			cmap = append(cmap, i)
		default:
			for k := 0; k < size; k++ {
				clean = append(clean, text[i+k])
				cmap = append(cmap, i+k)
			}
		}
		prevR = r
		i += size
	}
	flush(len(text))
	// Bytes that are not text (invalid UTF-8, control characters) or a string literal full of
	// \x escapes are binary data in a test, not identifiers or terminal output.
	binary := invalid > 1 || invalid > 0 && controls > 0 || controls > 2
	// Letters from many Unicode blocks on one line are random or table data.
	if len(cands) > 0 && invalid == 0 && nblocks < 6 && strings.Count(text, `\x`)+strings.Count(text, `\u`) < 3 {
		for _, c := range cands {
			fs.homoglyph(text[c.s:c.e], c.s, c.cyrillic)
		}
	}
	dataLine := binary || nblocks >= 6
	for _, t := range tagRuns {
		// In binary or random data a stray tag character is noise; a hidden message is not.
		if dataLine && len(t.run) < 3 {
			continue
		}
		fs.report(hit{detail: "hidden text in Unicode tag characters: " + strconv.Quote(decodeTags(t.run)), conf: 1, focus: t.at})
	}
	if esc && !binary {
		fs.scanEscapes(text)
	}
	if len(bidi) > 0 {
		conf := 0.95
		if rtl && bidiBalanced(bidi) {
			conf = 0.7
		}
		fs.report(hit{detail: fmt.Sprintf("bidirectional control characters %s (Trojan Source, CVE-2021-42574): the line displays in a different order than it is read", joinNames(bidi)), conf: conf, focus: bidiAt})
	}
	if len(zw) > 0 && !dataLine {
		conf := 0.6 // a stray invisible character between words or at an edge
		if inWord {
			conf = 0.9 // inside an identifier or a word: it changes what the name is
		}
		fs.report(hit{detail: fmt.Sprintf("invisible characters %s inside %s", strings.Join(uniq(zw), ", "), quoteVisible(wordAround(text, zwAt))), conf: conf, focus: zwAt})
	}
	if !hidden {
		return text, nil, wide
	}
	return string(clean), cmap, wide
}

// iso2022 reports an ESC that switches character sets in ISO-2022 encoded text (ESC $ B,
// ESC ( B): an encoding, not a terminal control sequence.
func iso2022(text string, i int) bool {
	return i+1 < len(text) && (text[i+1] == '$' || text[i+1] == '(' || text[i+1] == ')')
}

// scanEscapes handles an ASCII line that holds a raw ESC.
// Only an ESC that starts a sequence (a printable character follows) is reported; ISO-2022
// charset switches are encoded text.
func (fs *fileScan) scanEscapes(text string) {
	at, n := -1, 0
	for i := 0; i < len(text); i++ {
		if text[i] == 0x1b {
			n++
			if at < 0 && i+1 < len(text) && text[i+1] >= 0x20 && text[i+1] < 0x7f && !iso2022(text, i) {
				at = i
			}
		}
	}
	if at >= 0 {
		fs.escape(text, at, n)
	}
}

type tagRun struct {
	at  int
	run []rune
}

// escape reports the first of n raw ESC characters, with the sequence it starts.
func (fs *fileScan) escape(text string, i, n int) {
	j := i + 1
	if j < len(text) {
		switch text[j] {
		case '[':
			j++
			for j < len(text) && text[j] >= 0x20 && text[j] <= 0x3f {
				j++
			}
			if j < len(text) && text[j] >= 0x40 && text[j] <= 0x7e {
				j++
			}
		case ']':
			for j < len(text) && j-i < 200 && text[j] != 0x07 && !(text[j] == 0x1b && j+1 < len(text) && text[j+1] == '\\') {
				j++
			}
			if j < len(text) {
				j++
			}
		default:
			j++
		}
	}
	if j > len(text) {
		j = len(text)
	}
	detail := "raw ANSI escape sequence " + quoteVisible(text[i:j]) + " (can rewrite what a terminal shows)"
	if n > 1 {
		detail = fmt.Sprintf("%d raw ESC characters, the first starting the ANSI escape sequence %s (can rewrite what a terminal shows)", n, quoteVisible(text[i:j]))
	}
	fs.report(hit{detail: detail, conf: 0.85, focus: i})
}

func (fs *fileScan) homoglyph(tok string, at int, cyrillic bool) {
	script := "Greek"
	if cyrillic {
		script = "Cyrillic"
	}
	var shown, reads strings.Builder
	lookalike, allLook := false, true
	for _, r := range tok {
		if r >= utf8.RuneSelf && !unicode.Is(unicode.Latin, r) && (unicode.Is(unicode.Cyrillic, r) || unicode.Is(unicode.Greek, r)) {
			fmt.Fprintf(&shown, "<U+%04X>", r)
			if l, ok := cyrillicLookalike[r]; ok {
				reads.WriteRune(l)
				lookalike = true
			} else if l, ok := greekLookalike[r]; ok {
				reads.WriteRune(l)
				lookalike = true
			} else {
				reads.WriteRune(r)
				allLook = false
			}
			continue
		}
		shown.WriteRune(r)
		reads.WriteRune(r)
	}
	detail := fmt.Sprintf("identifier %s mixes Latin and %s letters (homoglyph, CVE-2021-42694)", quoteVisible(shown.String()), script)
	conf := 0.7
	if lookalike && allLook {
		detail += ": it reads like " + quoteVisible(reads.String())
		conf = 0.9
	}
	fs.report(hit{detail: detail, conf: conf, focus: at})
}

// zeroWidthSuspicious applies the exceptions: a BOM at the start of the file; ZWNJ/ZWJ unless
// they sit inside an ASCII identifier or word (Persian, Indic and emoji sequences need them);
// ZWSP and the Mongolian vowel separator between letters of scripts written without spaces.
func (fs *fileScan) zeroWidthSuspicious(text string, i, size int, r rune, newNo int) bool {
	if r == 0xFEFF && i == 0 && newNo == 1 {
		return false
	}
	prev, next := neighbours(text, i, size)
	switch r {
	case 0x200C, 0x200D:
		return isWordRune(prev) && isWordRune(next)
	case 0x200B:
		return !(noSpaceScript(prev) && noSpaceScript(next))
	case 0x180E:
		return !(unicode.Is(unicode.Mongolian, prev) && unicode.Is(unicode.Mongolian, next))
	}
	return true
}

// neighbours returns the runes before and after the invisible character at i, skipping other
// invisible characters; -1 when there is none.
func neighbours(text string, i, size int) (rune, rune) {
	prev, next := rune(-1), rune(-1)
	for j := i; j > 0; {
		r, s := utf8.DecodeLastRuneInString(text[:j])
		j -= s
		if !isZeroWidth(r) {
			prev = r
			break
		}
	}
	for j := i + size; j < len(text); {
		r, s := utf8.DecodeRuneInString(text[j:])
		j += s
		if !isZeroWidth(r) {
			next = r
			break
		}
	}
	return prev, next
}

func isWordRune(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

func noSpaceScript(r rune) bool {
	return r > 0 && unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func isBidi(r rune) bool { return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 }

func isZeroWidth(r rune) bool {
	switch r {
	case 0x200B, 0x200C, 0x200D, 0x2060, 0x180E, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF:
		return true
	}
	return false
}

// hiddenRune reports a character that renders as nothing (or moves other characters): evidence
// and messages show it as <U+XXXX>, and phrase matching ignores it. It is the one definition
// every report uses (redact.HiddenRune).
func hiddenRune(r rune) bool { return redact.HiddenRune(r) }

func bidiBalanced(rs []rune) bool {
	emb, iso := 0, 0
	for _, r := range rs {
		switch {
		case r >= 0x202A && r <= 0x202E && r != 0x202C:
			emb++
		case r == 0x202C:
			emb--
		case r >= 0x2066 && r <= 0x2068:
			iso++
		case r == 0x2069:
			iso--
		}
		if emb < 0 || iso < 0 {
			return false
		}
	}
	return emb == 0 && iso == 0
}

// isFlagTags accepts the tag sequence of an emoji subdivision flag (🏴 + "gbsct" + cancel tag):
// 2-7 lowercase letters or digits, then U+E007F.
func isFlagTags(run []rune) bool {
	n := len(run)
	if n < 3 || n > 8 || run[n-1] != 0xE007F {
		return false
	}
	for _, r := range run[:n-1] {
		c := r - 0xE0000
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func decodeTags(run []rune) string {
	var b strings.Builder
	for _, r := range run {
		c := r - 0xE0000
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(byte(c))
		} else {
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
	}
	return b.String()
}

func variationByte(r rune) (byte, bool) {
	switch {
	case r >= 0xFE00 && r <= 0xFE0F:
		return byte(r - 0xFE00), true
	case r >= 0xE0100 && r <= 0xE01EF:
		return byte(r - 0xE0100 + 16), true
	}
	return 0, false
}

func printableBytes(b []byte) string {
	var out strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			out.WriteByte(c)
		} else {
			fmt.Fprintf(&out, "<0x%02X>", c)
		}
	}
	return out.String()
}

var runeNames = map[rune]string{
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING", 0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE", 0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER", 0x2060: "WORD JOINER",
	0x180E: "MONGOLIAN VOWEL SEPARATOR", 0x2061: "FUNCTION APPLICATION",
	0x2062: "INVISIBLE TIMES", 0x2063: "INVISIBLE SEPARATOR", 0x2064: "INVISIBLE PLUS",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0x3164: "HANGUL FILLER",
	0xFFA0: "HALFWIDTH HANGUL FILLER",
}

func runeName(r rune) string {
	if n, ok := runeNames[r]; ok {
		return fmt.Sprintf("<U+%04X> %s", r, n)
	}
	return fmt.Sprintf("<U+%04X>", r)
}

func joinNames(rs []rune) string {
	var names []string
	for _, r := range rs {
		names = append(names, runeName(r))
	}
	return strings.Join(uniq(names), ", ")
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// wordAround returns the run of non-space text around byte offset i, bounded in length.
func wordAround(s string, i int) string {
	if i < 0 || i > len(s) {
		return ""
	}
	a, b := i, i
	for n := 0; a > 0 && n < 30; n++ {
		r, sz := utf8.DecodeLastRuneInString(s[:a])
		if r == ' ' || r == '\t' {
			break
		}
		a -= sz
	}
	for n := 0; b < len(s) && n < 30; n++ {
		r, sz := utf8.DecodeRuneInString(s[b:])
		if r == ' ' || r == '\t' {
			break
		}
		b += sz
	}
	return s[a:b]
}

var cyrillicLookalike = map[rune]rune{
	'а': 'a', 'в': 'B', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's',
	'і': 'i', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'к': 'k',
	'м': 'M', 'н': 'H', 'т': 'T', 'ь': 'b', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M',
	'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'Ѕ': 'S', 'І': 'I',
	'Ј': 'J', 'Ԁ': 'D', 'Ү': 'Y', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'h', 'Ӏ': 'I', 'Ԍ': 'G', 'Ь': 'b',
}

// greekLookalike holds only the Greek letters drawn exactly like Latin ones: lowercase α, ε,
// κ, ν, ρ ... are everyday math names and stay out.
var greekLookalike = map[rune]rune{
	'ο': 'o', 'ϲ': 'c', 'ϳ': 'j', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H',
	'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'Ϲ': 'C', 'Ϳ': 'J',
}

// ---------------------------------------------------------------------------------------------
// Rendering

// visibleRune renders one rune for evidence and messages.
func appendVisible(b *strings.Builder, s string, i int) (int, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		fmt.Fprintf(b, "<0x%02X>", s[i])
		return size, 6
	case r == '\t':
		b.WriteByte(' ')
		return size, 1
	case hiddenRune(r):
		n, _ := fmt.Fprintf(b, "<U+%04X>", r)
		return size, n
	}
	b.WriteString(s[i : i+size])
	return size, 1
}

// quoteVisible quotes s for a message, every hidden character shown as <U+XXXX>.
func quoteVisible(s string) string {
	var b strings.Builder
	n := 0
	i := 0
	for i < len(s) && n < quoteRunes {
		size, w := appendVisible(&b, s, i)
		i += size
		n += w
	}
	out := b.String()
	if i < len(s) {
		out += "…"
	}
	return strconv.Quote(out)
}
