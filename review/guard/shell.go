package guard

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one shell word after quote removal.
type arg struct {
	s   string       // the literal text ($HOME and ~ kept for path resolution)
	dyn bool         // part of it is only known at run time
	w   *syntax.Word // nil for words split out of a payload
}

// stdinSrc is what a command reads on its standard input, when that matters (a shell or an
// interpreter reading its program there).
type stdinSrc struct {
	text     string // the literal text (heredoc body, here-string, echoed payload)
	literal  bool   // text is all there is
	download bool   // it comes from a downloader or a decoder
	what     string // the producing command, for messages
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
	if j.depth >= maxDepth {
		j.add(Ask, "guard/limit", "commands nested too deeply to read (sh -c inside sh -c ...); a person must check them")
		return
	}
	f, err := parseShell(src)
	if err != nil {
		j.add(Ask, "guard/unparsed", "tollgate could not parse this shell command ("+oneLine(err.Error())+"); a person must check it")
		return
	}
	j.depth++
	defer func() { j.depth-- }()
	stdin := map[*syntax.CallExpr]*stdinSrc{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if j.best.Verdict == Deny || j.commands > maxCommands {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			j.redirects(n, stdin)
			j.shellContent(n)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				j.pipe(n, stdin)
			}
		case *syntax.Assign:
			j.assign(n)
		case *syntax.CallExpr:
			args := make([]arg, len(n.Args))
			for i, w := range n.Args {
				args[i] = j.word(w)
			}
			j.exec(args, stdin[n])
		}
		return true
	})
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
			if r.Word == nil {
				continue
			}
			a := j.word(r.Word)
			if !a.dyn && a.s != "" {
				j.redirectWrite(a.s)
			}
			if r.Op == syntax.RdrInOut && !a.dyn {
				j.readPath(a.s)
			}
		case syntax.DplOut:
			if r.Word != nil {
				a := j.word(r.Word)
				if !a.dyn && a.s != "-" && strings.Trim(a.s, "0123456789") != "" {
					j.redirectWrite(a.s) // >&file is a write, >&2 is not
				}
			}
		case syntax.RdrIn:
			if r.Word != nil {
				if a := j.word(r.Word); !a.dyn {
					j.readPath(a.s)
				}
			}
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			body := r.Hdoc
			if r.Op == syntax.WordHdoc {
				body = r.Word
			}
			ce, ok := st.Cmd.(*syntax.CallExpr)
			if !ok || body == nil {
				continue
			}
			a := j.word(body)
			stdin[ce] = &stdinSrc{text: a.s, literal: !a.dyn, what: "a here-document"}
		}
	}
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
	var text string
	var targets []string
	for _, r := range st.Redirs {
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
	switch name {
	case "cat":
	case "tee":
		for _, w := range ce.Args[1:] {
			if a := j.word(w); !a.dyn && !strings.HasPrefix(a.s, "-") {
				targets = append(targets, a.s)
			}
		}
	case "echo", "printf":
		var parts []string
		for i, w := range ce.Args[1:] {
			a := j.word(w)
			if i == 0 && name == "echo" && strings.HasPrefix(a.s, "-") {
				continue
			}
			parts = append(parts, a.s)
		}
		text = strings.Join(parts, " ")
	default:
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
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
	longToken  = lazy(`[A-Za-z0-9+/=_\-.]{16,}`)
	secretHint = lazy(`(?i)pass|secret|token|api.?key|auth|cred|private|BEGIN|://[^/\s]*@`)
	aDigit     = lazy(`[0-9]`)
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
}

// pipe marks what the right-hand command of a pipeline reads: a download, a decoded blob,
// printed literal text, or another command's output.
func (j *judge) pipe(b *syntax.BinaryCmd, stdin map[*syntax.CallExpr]*stdinSrc) {
	ce, ok := b.Y.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	src := &stdinSrc{what: "another command"}
	var calls []*syntax.CallExpr
	syntax.Walk(b.X, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			calls = append(calls, c)
		}
		return true
	})
	for _, c := range calls {
		args := make([]arg, len(c.Args))
		for i, w := range c.Args {
			args[i] = j.word(w)
		}
		name, rest := unwrap(args)
		if producesCode(name, rest) {
			src.download, src.what = true, name
		}
	}
	if !src.download && len(calls) == 1 {
		args := make([]arg, len(calls[0].Args))
		for i, w := range calls[0].Args {
			args[i] = j.word(w)
		}
		if name, rest := unwrap(args); name == "echo" || name == "printf" {
			var parts []string
			lit := true
			for _, a := range rest {
				if name == "echo" && len(parts) == 0 && strings.HasPrefix(a.s, "-") {
					continue
				}
				lit = lit && !a.dyn
				parts = append(parts, a.s)
			}
			src.text, src.literal, src.what = strings.Join(parts, " "), lit, name
		}
	}
	stdin[ce] = src
}

// producesCode reports a downloader or decoder: piping it into a shell runs code nobody read.
func producesCode(name string, args []arg) bool {
	switch name {
	case "curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-request", "nc", "ncat", "socat", "iwr", "invoke-webrequest":
		return true
	case "base64", "base32", "basenc":
		for _, a := range args {
			if a.s == "-d" || a.s == "--decode" || a.s == "-D" || (strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "dD")) {
				return true
			}
		}
	case "xxd":
		for _, a := range args {
			if strings.HasPrefix(a.s, "-") && strings.Contains(a.s, "r") {
				return true
			}
		}
	case "openssl", "gunzip", "zcat", "gzip", "bzcat", "xzcat", "uudecode", "rev":
		return name != "gzip" || hasArg(args, "-d", "--decompress", "-dc", "-cd")
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
		return
	}
	val := ""
	dyn := false
	if as.Value != nil {
		a := j.word(as.Value)
		val, dyn = a.s, a.dyn
	}
	j.envVar(as.Name.Value, val)
	if j.vars == nil {
		j.vars = map[string]string{}
	}
	if dyn || as.Array != nil || as.Append {
		delete(j.vars, as.Name.Value)
		return
	}
	j.vars[as.Name.Value] = val
}

// envVar denies the environment switches that turn hooks off.
func (j *judge) envVar(name, val string) {
	deny := func(why string) {
		j.add(Deny, "guard/hook-bypass", "setting "+name+"="+val+" "+why+"; let the hooks run, and fix what they report")
	}
	v := strings.ToLower(strings.TrimSpace(val))
	off := v == "0" || v == "false" || v == "no" || v == "off" || v == ""
	switch {
	case name == "TOLLGATE" && v != "1" && v != "true":
		deny("skips tollgate's hooks")
	case name == "HUSKY" && off:
		deny("skips husky's hooks")
	case name == "HUSKY_SKIP_HOOKS":
		deny("skips husky's hooks")
	case name == "LEFTHOOK" && off:
		deny("skips lefthook's hooks")
	case name == "LEFTHOOK_EXCLUDE" && strings.Contains(v, "tollgate"):
		deny("skips tollgate under lefthook")
	case name == "SKIP" && strings.Contains(v, "tollgate"):
		deny("skips tollgate under pre-commit")
	case name == "PRE_COMMIT_ALLOW_NO_CONFIG" || name == "GIT_HOOKS_PATH":
		deny("changes which hooks run")
	case strings.HasPrefix(name, "GIT_CONFIG") && name != "GIT_CONFIG_NOSYSTEM":
		deny("can set core.hooksPath behind git's back")
	}
}

// word renders a shell word as the shell would see it before running, marking the parts only
// known at run time.
func (j *judge) word(w *syntax.Word) arg {
	var b strings.Builder
	dyn := false
	for _, p := range w.Parts {
		j.wordPart(&b, p, &dyn, false)
	}
	return arg{s: b.String(), dyn: dyn, w: w}
}

func (j *judge) wordPart(b *strings.Builder, part syntax.WordPart, dyn *bool, inDQ bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, inDQ))
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(ansiC(p.Value))
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			j.wordPart(b, q, dyn, true)
		}
	case *syntax.ParamExp:
		name, simple := simpleParam(p)
		switch {
		case simple && name == "HOME":
			b.WriteString("$HOME")
		case simple && (name == "TMPDIR" || name == "TMP" || name == "TEMP") && len(j.o.Temp) > 0:
			b.WriteString(j.o.Temp[0])
		case simple && name == "PWD" && j.cwd != "":
			b.WriteString(j.cwd)
		default:
			if v, ok := j.vars[name]; simple && ok {
				b.WriteString(v)
				return
			}
			*dyn = true
			b.WriteString("$" + name)
		}
	case *syntax.CmdSubst:
		if text, ok := j.printedText(p); ok {
			b.WriteString(text) // $(echo --no-verify) is --no-verify
			return
		}
		*dyn = true
		b.WriteString("$(…)")
	default:
		*dyn = true
		b.WriteString("$(…)")
	}
}

// printedText returns what a command substitution prints when it is only echo or printf of
// literal words.
func (j *judge) printedText(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || len(ce.Assigns) > 0 {
		return "", false
	}
	words := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		a := j.word(w)
		if a.dyn {
			return "", false
		}
		words = append(words, a.s)
	}
	switch cmdName(words[0]) {
	case "echo":
		rest := words[1:]
		for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-e" || rest[0] == "-E") {
			rest = rest[1:]
		}
		return strings.Join(rest, " "), true
	case "printf":
		rest := words[1:]
		if rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) == 1 && !strings.Contains(rest[0], "%") {
			return strings.TrimRight(ansiReplacer.Replace(rest[0]), "\n"), true
		}
	}
	return "", false
}

func simpleParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil {
		return "", false
	}
	simple := !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil
	return p.Param.Value, simple
}

// unescape removes the backslashes the shell removes: all of them outside double quotes,
// those before $ ` " \ and newline inside.
func unescape(s string, inDQ bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !inDQ || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var ansiReplacer = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, "'", `\"`, `"`, `\e`, "\x1b", `\r`, "\r", `\a`, "\a", `\v`, "\v", `\f`, "\f", `\b`, "\b")

func ansiC(s string) string {
	s = ansiReplacer.Replace(s)
	// \xHH and \NNN spell any byte: decode them, so $'\x72m' is rm.
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+2 < len(s) && s[i+1] == 'x' {
			if v, n := hexByte(s[i+2:]); n > 0 {
				b.WriteByte(v)
				i += 1 + n
				continue
			}
		}
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func hexByte(s string) (byte, int) {
	var v byte
	n := 0
	for n < 2 && n < len(s) {
		c := s[n]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | (c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | (c - 'A' + 10)
		default:
			return v, n
		}
		n++
	}
	return v, n
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

// builtAtRunTime reports whether a command word is assembled when the shell runs: a command
// or process substitution, arithmetic, or a variable other than HOME, PWD and the temp dir.
// Such a command name is asked about even when tollgate could work it out ($(printf rm)).
func builtAtRunTime(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			found = true
		case *syntax.ParamExp:
			name, simple := simpleParam(n)
			if !simple || (name != "HOME" && name != "PWD" && name != "TMPDIR") {
				found = true
			}
		}
		return !found
	})
	return found
}

// wordHas reports whether w holds a command or process substitution running a downloader.
func (j *judge) wordFetches(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			args := make([]arg, len(c.Args))
			for i, x := range c.Args {
				args[i] = j.word(x)
			}
			if name, rest := unwrap(args); producesCode(name, rest) {
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

var _ = filepath.Join
