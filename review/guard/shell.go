package guard

import (
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one shell word after quote removal.
type arg struct {
	s   string       // the literal text ($HOME and ~ kept for path resolution)
	dyn bool         // part of it is only known at run time
	w   *syntax.Word // nil for words split out of a payload
	// opt: the unknown part may also make the word an option, or several words (an unquoted
	// expansion, or one at the start of the word), so a table judging options asks
	opt  bool
	glob bool   // unquoted glob characters (resolve.go expands them)
	pat  string // the word as a glob pattern, quoted parts escaped
	// every: the bare-wildcard pattern (*, ./*, /tmp/*) this word was expanded from, which
	// names every entry of its directory: a recursive delete of it empties that directory
	every string
}

// stdinSrc is what a command reads on its standard input, when that matters (a shell or an
// interpreter reading its program there).
type stdinSrc struct {
	text     string // the literal text (heredoc body, here-string, echoed payload)
	literal  bool   // text is all there is
	download bool   // it comes from a downloader or a decoder
	what     string // the producing command, for messages
	file     string // a file redirected in (< file), read like a script
}

func parseShell(src string) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parser panic: %v", r)
		}
	}()
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// shell judges one command line.
func (j *judge) shell(src string) {
	if len(src) > maxCommandBytes {
		j.add(Ask, "guard/limit", fmt.Sprintf("the command is %d bytes, over the %d-byte limit tollgate reads; a person must check it", len(src), maxCommandBytes))
		return
	}
	j.script(src)
}

// script parses src and judges every command in it; payloads re-enter here one level deeper.
func (j *judge) script(src string) {
	if j.tick() {
		return
	}
	if j.depth >= maxDepth {
		j.add(Ask, "guard/limit", "commands nested too deeply to read (sh -c inside sh -c ...); a person must check them")
		return
	}
	f, err := parseShell(src)
	if err != nil {
		if before, closed, ok := unclosedQuote(src, err); ok {
			j.depth++
			if strings.TrimSpace(before) != "" {
				j.script(before) // the complete lines before it run
			}
			j.script(closed) // its own line does not, but it shows what the agent means to run
			j.depth--
			if j.best.Verdict == NoObjection { // never auto-allowed: tollgate did not read it all
				j.best = Answer{Verdict: NoObjection, Rule: ruleUnrunnable, Reason: "bash refuses a line with an unclosed quote and runs nothing of it; closed, it holds nothing to object to"}
			}
			return
		}
		j.add(Ask, "guard/unparsed", "tollgate could not parse this shell command ("+oneLine(err.Error())+"); a person must check it")
		return
	}
	j.depth++
	defer func() { j.depth-- }()
	j.walk(f, map[*syntax.CallExpr]*stdinSrc{})
}

// walk judges every command under root, in the order the shell runs them.
func (j *judge) walk(root syntax.Node, stdin map[*syntax.CallExpr]*stdinSrc) {
	syntax.Walk(root, func(n syntax.Node) bool {
		if j.best.Verdict == Deny || j.commands > maxCommands || j.tick() {
			return false
		}
		switch n := n.(type) {
		case *syntax.ForClause:
			return !j.forEach(n, stdin)
		case *syntax.Stmt:
			j.redirects(n, stdin)
			j.shellContent(n)
			j.decodedWrite(n, stdin) // shellwrites.go
			j.noteStmtWrites(n)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				j.pipe(n, stdin)
			}
		case *syntax.Assign:
			j.assign(n)
		case *syntax.DeclClause:
			j.declClause(n) // export -p, declare -p TOKEN
		case *syntax.CallExpr:
			j.notePrefix(n)
			outer := j.cmdEnv       // a command inside another's payload inherits its environment
			args := j.words(n.Args) // expanded in the shell's own environment, not the prefix's
			j.cmdEnv = inherit(outer, j.prefixEnv(n.Assigns))
			j.envConfig = j.gitEnvConfig(n) // resolve_git.go
			j.exec(args, stdin[n])
			j.cmdEnv, j.envConfig = outer, nil
		case *syntax.FuncDecl:
			j.forkBomb(n)
			j.defineFunc(n) // functions.go: judged where it is called
			return false
		case *syntax.Subshell:
			j.subshell(n.Stmts, stdin)
			return false
		case *syntax.CmdSubst:
			j.subshell(n.Stmts, stdin)
			return false
		case *syntax.ProcSubst:
			j.subshell(n.Stmts, stdin)
			return false
		}
		return true
	})
}

// prefixEnv is the environment a command's leading VAR=value words set for it (nil if none).
func (j *judge) prefixEnv(assigns []*syntax.Assign) map[string]string {
	if len(assigns) == 0 {
		return nil
	}
	env := make(map[string]string, len(assigns))
	for _, as := range assigns {
		if as.Name != nil && as.Value != nil {
			env[as.Name.Value] = j.word(as.Value).s
		}
	}
	return env
}

// forkBomb asks about a function that starts itself more than once or in the background
// (:(){ :|:& };:): it fills the process table.
func (j *judge) forkBomb(fn *syntax.FuncDecl) {
	if fn.Name == nil {
		return
	}
	calls, background := 0, false
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if ce, ok := n.Cmd.(*syntax.CallExpr); ok && n.Background && len(ce.Args) > 0 && ce.Args[0].Lit() == fn.Name.Value {
				background = true
			}
			if b, ok := n.Cmd.(*syntax.BinaryCmd); ok && n.Background && callsName(b, fn.Name.Value) {
				background = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == fn.Name.Value {
				calls++
			}
		}
		return true
	})
	if calls > 1 || background {
		j.add(Ask, "guard/wide-destruction", "the function "+fn.Name.Value+" starts copies of itself (a fork bomb fills the process table); a person must approve")
	}
}

func callsName(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// redirects judges a statement's redirections: writes go through the path rules, reads of
// secrets ask, and a heredoc or here-string feeding a shell is parsed as the shell would.
func (j *judge) redirects(st *syntax.Stmt, stdin map[*syntax.CallExpr]*stdinSrc) {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
			syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
			j.redirectOut(r)
		case syntax.DplOut:
			j.redirectDup(r)
		case syntax.RdrIn:
			if r.Word != nil {
				if a := j.word(r.Word); !a.dyn {
					j.readPath(a.s)
					if ce, ok := st.Cmd.(*syntax.CallExpr); ok {
						stdin[ce] = &stdinSrc{file: a.s, what: a.s} // bash < x.sh runs x.sh
					}
				}
			}
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			j.heredoc(st, r, stdin)
		}
	}
}

// redirectOut judges > file (and >>, >|, &>, <>): a write, and for <> also a read.
func (j *judge) redirectOut(r *syntax.Redirect) {
	if r.Word == nil {
		return
	}
	for _, a := range j.fields(r.Word) { // one word, unless bash calls it ambiguous
		if !a.dyn && a.s != "" {
			j.redirectWrite(a.s)
		}
		j.dynPath(a, "writing to")
		if r.Op == syntax.RdrInOut && !a.dyn {
			j.readPath(a.s)
		}
	}
}

// redirectDup judges >&word: >&file is a write, >&2 and >&- are not.
func (j *judge) redirectDup(r *syntax.Redirect) {
	if r.Word == nil {
		return
	}
	a := j.word(r.Word)
	if !a.dyn && a.s != "-" && strings.Trim(a.s, "0123456789") != "" {
		j.redirectWrite(a.s)
	}
}

// heredoc records a heredoc or here-string as what the statement's command reads on stdin.
func (j *judge) heredoc(st *syntax.Stmt, r *syntax.Redirect, stdin map[*syntax.CallExpr]*stdinSrc) {
	body := r.Hdoc
	if r.Op == syntax.WordHdoc {
		body = r.Word
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || body == nil {
		return
	}
	a := j.word(body)
	stdin[ce] = &stdinSrc{text: a.s, literal: !a.dyn, what: "a here-document"}
}

// shellContent scans what a shell command writes into a file with cat/tee and a heredoc, or
// with echo/printf and a redirection, as the file tools' content is scanned: a secret, a key or
// prompt injection in an instruction file is denied however it is written.
func (j *judge) shellContent(st *syntax.Stmt) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || j.remote > 0 {
		return
	}
	name := cmdName(j.word(ce.Args[0]).s)
	text, targets := j.heredocWrites(st.Redirs)
	switch name {
	case "cat":
	case "tee":
		for _, w := range ce.Args[1:] {
			if a := j.word(w); !a.dyn && !strings.HasPrefix(a.s, "-") {
				targets = append(targets, a.s)
			}
		}
	case "echo", "printf":
		text = j.echoed(name, ce.Args[1:])
	default:
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	j.writtenText(text, targets)
}

// heredocWrites returns a statement's heredoc or here-string text and the literal files its
// output redirections write.
func (j *judge) heredocWrites(redirs []*syntax.Redirect) (text string, targets []string) {
	for _, r := range redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				text = j.word(r.Hdoc).s
			}
		case syntax.WordHdoc:
			if r.Word != nil {
				text = j.word(r.Word).s
			}
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
			if r.Word != nil {
				if a := j.word(r.Word); !a.dyn {
					targets = append(targets, a.s)
				}
			}
		}
	}
	return text, targets
}

// echoed is the text echo or printf writes (echo's first word dropped when it is an option).
func (j *judge) echoed(name string, words []*syntax.Word) string {
	var parts []string
	for i, w := range words {
		a := j.word(w)
		if i == 0 && name == "echo" && isEchoOption(a.s) {
			continue
		}
		parts = append(parts, a.s)
	}
	return strings.Join(parts, " ")
}

// writtenText scans text a shell command writes into targets, as a file tool's content.
func (j *judge) writtenText(text string, targets []string) {
	for _, t := range targets {
		p, ok := j.abs(t)
		if !ok || strings.HasPrefix(p, "/dev/") {
			continue
		}
		// a quick look first: most echo > file calls carry nothing secret-shaped, and the
		// detector's setup is the larger part of their cost
		if isInstructionFile(p) || mayHoldSecret(text) {
			j.content(t, text)
		}
	}
}

var (
	longToken  = lazyre.New(`[A-Za-z0-9+/=_\-.]{16,}`)
	secretHint = lazyre.New(`(?i)pass|secret|token|api.?key|auth|cred|private|BEGIN|://[^/\s]*@`)
	aDigit     = lazyre.New(`[0-9]`)
)

// mayHoldSecret is a cheap pre-filter for shell-written text: a long token with digits, or a
// word that names a secret.
func mayHoldSecret(text string) bool {
	if secretHint.MatchString(text) {
		return true
	}
	for _, t := range longToken.FindAllString(text, 64) {
		if aDigit.MatchString(t) {
			return true
		}
	}
	return false
}

func (j *judge) redirectWrite(target string) {
	if j.remote > 0 {
		return
	}
	j.writePath(target, "writing to", false)
	if p, ok := j.abs(target); ok {
		if q, ok := j.viaLink(p); ok {
			j.writePath(q, "writing to", false)
		}
	}
}

// pipe marks what the right-hand command of a pipeline reads: a download, a decoded blob,
// printed literal text, or another command's output.
func (j *judge) pipe(b *syntax.BinaryCmd, stdin map[*syntax.CallExpr]*stdinSrc) {
	if ce, ok := b.Y.Cmd.(*syntax.CallExpr); ok {
		stdin[ce] = j.pipeSource(b.X)
	}
	j.notePiped(b.X, b.Y)
}

// pipeSource says what the left-hand side of a pipeline prints. A left side that is itself a
// pipeline is judged from its parts, each once (a | b | c | ... nests to the left, and walking
// the whole left side at every pipe is quadratic in the pipeline's length).
func (j *judge) pipeSource(x *syntax.Stmt) *stdinSrc {
	if src, ok := j.piped[x]; ok {
		return src
	}
	if b, ok := x.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(x.Redirs) == 0 {
		left, right := j.pipeSource(b.X), j.pipeSource(b.Y)
		src := &stdinSrc{what: right.what, download: right.download}
		if left.download && !src.download {
			src.download, src.what = true, left.what
		}
		if !src.download {
			src.what = "another command"
		}
		j.memoPipe(x, src)
		return src
	}
	src := j.pipeSourceOf(x)
	j.memoPipe(x, src)
	return src
}

func (j *judge) memoPipe(x *syntax.Stmt, src *stdinSrc) {
	if j.piped == nil {
		j.piped = map[*syntax.Stmt]*stdinSrc{}
	}
	j.piped[x] = src
}

// pipeSourceOf says what a statement that is not a pipeline prints.
func (j *judge) pipeSourceOf(x *syntax.Stmt) *stdinSrc {
	src := &stdinSrc{what: "another command"}
	var calls [][]arg
	syntax.Walk(x, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			calls = append(calls, j.words(c.Args))
		}
		return true
	})
	for _, args := range calls {
		if name, rest := unwrap(args); producesCode(name, rest) {
			src.download, src.what = true, name
		}
	}
	if src.download || len(calls) != 1 {
		return src
	}
	if name, rest := unwrap(calls[0]); name == "echo" || name == "printf" {
		src.text, src.literal = printedArgs(name, rest)
		src.what = name
	}
	return src
}

// printedArgs is what echo or printf prints of its words (echo's leading options dropped), and
// whether all of it is literal.
func printedArgs(name string, args []arg) (string, bool) {
	if name == "printf" { // its format decoded: printf -- '--no-verify\n' prints --no-verify
		text, ok := printfOutput(args)
		for _, a := range args {
			ok = ok && !a.dyn
		}
		return text, ok
	}
	var parts []string
	lit := true
	for _, a := range args {
		if name == "echo" && len(parts) == 0 && isEchoOption(a.s) {
			continue
		}
		lit = lit && !a.dyn
		parts = append(parts, a.s)
	}
	return strings.Join(parts, " "), lit
}

// producesCode reports a downloader or decoder: piping it into a shell runs code nobody read.
func producesCode(name string, args []arg) bool {
	if downloaders[name] {
		return true
	}
	if decodes := decoders[name]; decodes != nil {
		return decodes(args)
	}
	return false
}

var downloaders = set("curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-request", "nc", "ncat", "socat", "iwr", "invoke-webrequest")

// decoders report whether a decoding tool, given these words, turns its input into bytes.
var decoders = map[string]func(args []arg) bool{
	"base64": baseDecodes, "base32": baseDecodes, "basenc": baseDecodes,
	"xxd":     func(args []arg) bool { return anyArg(args, isRevertOption) },
	"openssl": always, "gunzip": always, "zcat": always, "bzcat": always, "xzcat": always, "uudecode": always, "rev": always,
	"gzip": func(args []arg) bool { return hasArg(args, "-d", "--decompress", "-dc", "-cd") },
}

func always([]arg) bool { return true }

// baseDecodes reports base64/base32/basenc -d (--decode, -D, or d in a cluster).
func baseDecodes(args []arg) bool {
	return anyArg(args, func(s string) bool {
		return s == "-d" || s == "--decode" || s == "-D" || (strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.ContainsAny(s, "dD"))
	})
}

// isRevertOption reports xxd -r (in any option word).
func isRevertOption(s string) bool { return strings.HasPrefix(s, "-") && strings.Contains(s, "r") }

func anyArg(args []arg, pred func(string) bool) bool {
	for _, a := range args {
		if pred(a.s) {
			return true
		}
	}
	return false
}

func hasArg(args []arg, want ...string) bool {
	for _, a := range args {
		for _, w := range want {
			if a.s == w {
				return true
			}
		}
	}
	return false
}

// assign checks a variable assignment (leading, exported or bare) and remembers literal values.
func (j *judge) assign(as *syntax.Assign) {
	if as.Name == nil {
		if as.Naked && as.Value != nil {
			j.builtAssign(as.Value) // export $n=0
		}
		return
	}
	val := ""
	dyn := false
	if as.Value != nil {
		a := j.word(as.Value)
		val, dyn = a.s, a.dyn
	}
	if !j.envConfigSet[as] {
		j.envVar(as.Name.Value, val)
	}
	if as.Name.Value == "PATH" {
		j.pathSet = val
	}
	j.noteAssign(as, val)
	if j.vars == nil {
		j.vars = map[string]string{}
	}
	if dyn || as.Array != nil || as.Append {
		delete(j.vars, as.Name.Value)
		j.markUnknown(as.Name.Value)
		return
	}
	delete(j.unknownVars, as.Name.Value)
	j.vars[as.Name.Value] = val
}

// builtAssign judges a declaration word whose name is built by expansion (n=TOLLGATE;
// export $n=0): a name tollgate resolves is checked as any assignment, one it cannot is asked
// about, since it could turn the hooks off.
func (j *judge) builtAssign(w *syntax.Word) {
	a := j.word(w)
	name, val, ok := strings.Cut(a.s, "=")
	if !ok || strings.HasPrefix(a.s, "-") {
		return
	}
	if strings.Contains(name, "$") || name == "" {
		j.add(Ask, "guard/dynamic", "the variable name in "+shorten(a.s, 40)+" is only known at run time, and it could be one that turns the hooks off; a person must check it")
		return
	}
	j.envVar(name, val)
	if j.vars == nil {
		j.vars = map[string]string{}
	}
	if a.dyn {
		delete(j.vars, name)
		return
	}
	j.vars[name] = val
}

// envVar denies the environment switches that turn hooks off.
func (j *judge) envVar(name, val string) {
	if why := hookSwitch(name, strings.ToLower(strings.TrimSpace(val))); why != "" {
		j.add(Deny, "guard/hook-bypass", "setting "+name+"="+val+" "+why+"; let the hooks run, and fix what they report")
	}
}

// hookEnv are the variables that turn a hook manager off: when their (lower-cased, trimmed)
// value does, and what that does.
var hookEnv = map[string]struct {
	when func(v string) bool
	why  string
}{
	"TOLLGATE":                   {func(v string) bool { return v != "1" && v != "true" }, "skips tollgate's hooks"},
	"HUSKY":                      {isOff, "skips husky's hooks"},
	"HUSKY_SKIP_HOOKS":           {anyValue, "skips husky's hooks"},
	"LEFTHOOK":                   {isOff, "skips lefthook's hooks"},
	"LEFTHOOK_EXCLUDE":           {namesTollgate, "skips tollgate under lefthook"},
	"SKIP":                       {namesTollgate, "skips tollgate under pre-commit"},
	"PRE_COMMIT_ALLOW_NO_CONFIG": {anyValue, "changes which hooks run"},
	"GIT_HOOKS_PATH":             {anyValue, "changes which hooks run"},
}

// hookSwitch says how setting name to v turns hooks off ("" if it does not).
func hookSwitch(name, v string) string {
	if rule, ok := hookEnv[name]; ok {
		if rule.when(v) {
			return rule.why
		}
		return ""
	}
	if strings.HasPrefix(name, "GIT_CONFIG") && name != "GIT_CONFIG_NOSYSTEM" {
		return "can set core.hooksPath behind git's back"
	}
	return ""
}

func isOff(v string) bool         { return v == "0" || v == "false" || v == "no" || v == "off" || v == "" }
func anyValue(string) bool        { return true }
func namesTollgate(v string) bool { return strings.Contains(v, "tollgate") }

// printedWords is what echo or printf of literal words prints (false for any other command).
func printedWords(words []string) (string, bool) {
	if len(words) < 2 {
		return "", false
	}
	switch cmdName(words[0]) {
	case "echo":
		return echoPrints(words[1:]), true
	case "printf":
		return printfPrints(words[1:])
	}
	return "", false
}

// literalWords renders words that are all known before the command runs (false otherwise).
func (j *judge) literalWords(ws []*syntax.Word) ([]string, bool) {
	words := make([]string, 0, len(ws))
	for _, w := range ws {
		a := j.word(w)
		if a.dyn {
			return nil, false
		}
		words = append(words, a.s)
	}
	return words, true
}

// isEchoOption reports an option echo takes (-n, -e, -E, or a cluster of them); echo prints
// any other word, --no-verify included.
func isEchoOption(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "neE") == ""
}

// echoPrints is what echo prints of its words, its -n/-e/-E options dropped.
func echoPrints(rest []string) string {
	for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-e" || rest[0] == "-E") {
		rest = rest[1:]
	}
	return strings.Join(rest, " ")
}

// printfPrints is what printf prints of a single format without conversions (false for
// anything else).
func printfPrints(rest []string) (string, bool) {
	if rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) == 1 && !strings.Contains(rest[0], "%") {
		return strings.TrimRight(ansiReplacer.Replace(rest[0]), "\n"), true
	}
	return "", false
}

// cmdName normalises a command word: /usr/bin/git, \git, "git", GIT.exe are git.
func cmdName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	s = strings.TrimSuffix(s, ".exe")
	return s
}

// wordFetches reports whether w holds a command or process substitution running a downloader
// or a decoder.
func (j *judge) wordFetches(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	found := false
	// render each inner command's words without resolving their own substitutions: the walk
	// reaches those commands itself, and resolving them at every level is cubic in the nesting
	defer func(prev bool) { j.shallow = prev }(j.shallow)
	j.shallow = true
	syntax.Walk(w, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			if name, rest := unwrap(j.words(c.Args)); producesCode(name, rest) {
				found = true
			}
		}
		return !found
	})
	return found
}

// dynamic answers a payload or command word only known at run time.
func (j *judge) dynamic(a arg, what string) {
	if j.wordFetches(a.w) {
		j.add(Ask, "guard/download-exec", what+" runs downloaded or decoded code nobody has read; a person must approve")
		return
	}
	if j.onDisk > 0 {
		return // in a script on disk (resolve_script.go): what it visibly does is judged
	}
	j.add(Ask, "guard/dynamic", what+" is built at run time ("+shorten(a.s, 60)+"), so tollgate cannot read what runs; a person must check it")
}

func shorten(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// joinArgs re-joins words into one payload the way ssh, eval and watch do (with spaces).
func joinArgs(args []arg) (string, bool) {
	parts := make([]string, len(args))
	dyn := false
	for i, a := range args {
		parts[i] = a.s
		dyn = dyn || a.dyn
	}
	return strings.Join(parts, " "), dyn
}

// isPathish reports whether a literal argument may name a file.
func isPathish(s string) bool {
	return strings.ContainsAny(s, "/.~") && !strings.Contains(s, "://") && !strings.ContainsAny(s, " \n")
}

// declClause judges what export, declare, typeset and local print (the assignments in them are
// judged as any): their words as the action table reads a command's arguments.
func (j *judge) declClause(d *syntax.DeclClause) {
	if d.Variant == nil {
		return
	}
	var args []arg
	for _, as := range d.Args {
		switch {
		case as.Naked && as.Name != nil:
			args = append(args, arg{s: as.Name.Value})
		case as.Naked && as.Value != nil:
			args = append(args, j.word(as.Value))
		case as.Name != nil:
			args = append(args, arg{s: as.Name.Value + "="})
		}
	}
	j.risky(d.Variant.Value, args)
}
