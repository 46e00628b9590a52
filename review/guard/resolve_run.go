package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// Commands run by something else: the resolution step builds the inner command and judges it;
// what it cannot know (arguments read from another command's output or a file) is an unknown
// word, dyn and opt, so the tables that care ask.

// unknownInput stands for words a command reads at run time (xargs' and parallel's input).
func unknownInput(what string) arg { return arg{s: "$" + what, dyn: true, opt: true} }

const maxRunnerInputs = 64 // inputs of xargs/parallel judged one by one

// xargs judges the command xargs runs with the words it reads: literal text printed into it
// becomes the command's arguments (echo --no-verify | xargs git commit), anything else is
// unknown.
func (j *judge) xargs(args []arg, in *stdinSrc) {
	replace, fromFile, lines := xargsOptions(args)
	cmd := skipOptions(args, wrappers["xargs"])
	if len(cmd) == 0 {
		cmd = []arg{{s: "echo"}}
	}
	var inputs []arg
	if in != nil && in.file != "" && !fromFile {
		if text, _, why := j.scriptText(in.file); why == "" { // xargs cmd < args.txt: the file's words
			in = &stdinSrc{text: text, literal: true}
		}
	}
	if !fromFile && in != nil && in.literal && !in.download {
		inputs = xargsWords(in.text, lines || replace != "")
	} else {
		inputs = []arg{unknownInput("XARGS_INPUT")}
	}
	if scriptFromInput(cmd, func(s string) bool { return replace != "" && strings.Contains(s, replace) }) {
		j.add(Ask, "guard/dynamic", "xargs hands the text it reads to a shell as its script: data run as code; a person must check it")
	}
	if replace == "" {
		j.exec(append(append([]arg(nil), cmd...), inputs...), nil)
		return
	}
	for k, input := range inputs {
		if k >= maxRunnerInputs {
			break
		}
		run := make([]arg, len(cmd))
		for i, a := range cmd {
			run[i] = a
			if strings.Contains(a.s, replace) {
				run[i] = arg{s: strings.ReplaceAll(a.s, replace, input.s), dyn: a.dyn || input.dyn, opt: input.opt, w: a.w}
			}
		}
		j.exec(run, nil)
	}
}

// xargsOptions reads xargs' own options: the replace string (-I R, -i, --replace), whether it
// reads its words from a file (-a), and whether it splits by lines (-0, -d, -L).
func xargsOptions(args []arg) (replace string, fromFile, lines bool) {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" || len(s) < 2 || s[0] != '-' || args[i].dyn {
			break
		}
		switch {
		case (s == "-I" || s == "-J") && i+1 < len(args): // -J: BSD xargs' replace string
			replace = args[i+1].s
		case strings.HasPrefix(s, "-I"):
			replace = s[2:]
		case s == "-i" || s == "--replace":
			replace = "{}"
		case strings.HasPrefix(s, "--replace="):
			if replace = strings.TrimPrefix(s, "--replace="); replace == "" {
				replace = "{}" // GNU xargs: an empty value is the default {}
			}
		case strings.HasPrefix(s, "-i") && !strings.HasPrefix(s, "--"):
			replace = s[2:]
		case s == "-a" || s == "--arg-file" || strings.HasPrefix(s, "--arg-file=") || (strings.HasPrefix(s, "-a") && !strings.HasPrefix(s, "--")):
			fromFile = true
		case s == "-0" || s == "--null" || s == "-d" || s == "-L" || strings.HasPrefix(s, "--delimiter") || strings.HasPrefix(s, "-d"):
			lines = true
		}
		if wrappers["xargs"].values[s] {
			i++
		}
	}
	return replace, fromFile, lines
}

// xargsWords splits xargs' input as it does: at blanks, honouring quotes (or one word a line).
func xargsWords(text string, lines bool) []arg {
	if lines {
		var out []arg
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			out = append(out, arg{s: l})
		}
		return out
	}
	var out []arg
	var b strings.Builder
	quote, started := byte(0), false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote, started = c, true
		case c == '\\' && i+1 < len(text):
			i++
			b.WriteByte(text[i])
			started = true
		case isBlank(c):
			if started {
				out = append(out, arg{s: b.String()})
				b.Reset()
				started = false
			}
		default:
			b.WriteByte(c)
			started = true
		}
	}
	if started {
		out = append(out, arg{s: b.String()})
	}
	return out
}

var parallelValues = set("-j", "--jobs", "-S", "--sshlogin", "-N", "--max-args", "-n", "--delay", "--timeout", "--joblog", "-a", "--arg-file", "--results", "--tmpdir", "-d", "--delimiter", "-I", "--colsep", "-E")

// parallelRepl finds GNU parallel's replacement strings: {}, {.}, {/}, {//}, {/.}, {#}, {%}, {1}.
var parallelRepl = lazyre.New(`\{[./#%0-9]*\}`)

// hParallel judges the command parallel runs once per input: its ::: arguments (substituted for
// {} or appended, quoted as parallel quotes them), its stdin's literal lines, or, for inputs
// it reads at run time (::::, -a, another command's output), an unknown word.
func hParallel(j *judge, _ string, args []arg, in *stdinSrc) {
	i, fromFile := 0, false
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && !args[i].dyn && !strings.HasPrefix(args[i].s, ":::") {
		if args[i].s == "-a" || args[i].s == "--arg-file" {
			fromFile = true
		}
		if parallelValues[args[i].s] {
			i++
		}
		i++
	}
	var cmd []arg
	for i < len(args) && !strings.HasPrefix(args[i].s, ":::") {
		cmd = append(cmd, args[i])
		i++
	}
	inputs := j.parallelInputs(args[i:], fromFile, in)
	if scriptFromInput(cmd, func(s string) bool { return parallelRepl.FindString(s) == s }) {
		j.add(Ask, "guard/dynamic", "parallel hands its inputs to a shell as its script: data run as code; a person must check it")
	}
	if len(cmd) == 0 { // parallel ::: 'cmd1' 'cmd2' runs each input
		if fromStdin(args[i:], fromFile) {
			j.add(Ask, "guard/dynamic", "parallel runs the lines it reads as commands: data run as code; a person must check it")
		}
		for k, a := range inputs {
			if k >= maxRunnerInputs {
				break
			}
			j.payload(a, "parallel")
		}
		return
	}
	p, dyn := joinArgs(cmd)
	if dyn {
		j.payload(arg{s: p, dyn: dyn, w: cmd[0].w}, "parallel")
		return
	}
	forms := []string{p}
	if q := quotedJoin(cmd); q != p { // parallel -q, or a version that keeps the words whole
		if _, err := parseShell(p); err != nil {
			forms = []string{q} // the shell refuses the joined line: only the quoted one can run
		} else {
			forms = append(forms, q)
		}
	}
	for _, p := range forms {
		j.parallelRun(p, inputs)
	}
}

// quotedJoin joins words as parallel -q does: each one quoted, so a word with blanks or shell
// syntax in it (bash -c 'rm -rf {}', python -c 'print(1)') stays one word.
func quotedJoin(cmd []arg) string {
	parts := make([]string, len(cmd))
	for i, a := range cmd {
		parts[i] = a.s
		if strings.ContainsAny(a.s, " \t\n()<>|&;'\"`$\\*?[]#~!") {
			parts[i] = shellword.Quote(a.s)
		}
	}
	return strings.Join(parts, " ")
}

// fromStdin reports parallel reading its inputs from stdin: no ::: or :::: group, no -a.
func fromStdin(groups []arg, fromFile bool) bool {
	for _, g := range groups {
		if strings.HasPrefix(g.s, ":::") {
			return false
		}
	}
	return !fromFile
}

// parallelRun judges the command line p once per input.
func (j *judge) parallelRun(p string, inputs []arg) {
	if len(inputs) == 0 {
		j.script(p)
		return
	}
	for k, a := range inputs {
		if k >= maxRunnerInputs {
			break
		}
		word := shellword.Quote(a.s)
		if a.dyn {
			word = `"` + a.s + `"`
		}
		if parallelRepl.MatchString(p) {
			j.script(parallelRepl.ReplaceAllLiteralString(p, word))
		} else {
			j.script(p + " " + word)
		}
	}
}

// parallelInputs are the inputs parallel runs its command with: its ::: arguments, its stdin's
// literal lines, and an unknown word for what it reads at run time (::::, -a, another command).
func (j *judge) parallelInputs(groups []arg, fromFile bool, in *stdinSrc) []arg {
	var inputs []arg
	unknown, sawGroup := fromFile, false
	for k := 0; k < len(groups); k++ {
		switch s := groups[k].s; {
		case s == ":::" || s == ":::+":
			sawGroup = true
		case s == "::::" || s == "::::+":
			sawGroup, unknown = true, true
			k++ // the file
		default:
			inputs = append(inputs, groups[k])
		}
	}
	if !sawGroup && !fromFile {
		if in != nil && in.literal && !in.download {
			inputs = xargsWords(in.text, true)
		} else {
			unknown = true
		}
	}
	if unknown {
		inputs = append(inputs, unknownInput("PARALLEL_INPUT"))
	}
	return inputs
}

var sshValues = set("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B", "-P")

// sshLocal are ssh options whose value is a command ssh runs on this machine.
var sshLocal = []string{"proxycommand", "localcommand", "knownhostscommand", "remotecommand"}

func hSSH(j *judge, _ string, args []arg, in *stdinSrc) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		s := args[i].s
		switch {
		case s == "-o" && i+1 < len(args):
			j.sshOption(args[i+1])
		case strings.HasPrefix(s, "-o") && len(s) > 2:
			j.sshOption(arg{s: s[2:], dyn: args[i].dyn, w: args[i].w})
		}
		if sshValues[s] {
			i++
		}
		i++
	}
	i++ // the host
	j.remote++
	defer func() { j.remote-- }()
	if i >= len(args) {
		switch {
		case in != nil && in.literal: // ssh host <<EOF ... EOF: the remote shell reads it
			j.script(in.text)
		case in != nil && in.file != "": // ssh host < deploy.sh
			if text, _, why := j.scriptText(in.file); why == "" {
				j.script(text)
			} else {
				j.add(Ask, "guard/unread-script", "ssh runs "+in.file+" on the host, and "+why+"; a person must check what it does")
			}
		}
		return
	}
	p, dyn := joinArgs(args[i:])
	j.payload(arg{s: p, dyn: dyn, w: args[i].w}, "ssh")
}

// sshOption judges -o Key=value (or "Key value"): ProxyCommand and its kin run here.
func (j *judge) sshOption(a arg) {
	key, value, ok := strings.Cut(a.s, "=")
	if !ok {
		key, value, _ = strings.Cut(a.s, " ")
	}
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range sshLocal {
		if key != k {
			continue
		}
		if k == "remotecommand" {
			j.remote++
			defer func() { j.remote-- }()
		}
		j.payload(arg{s: strings.TrimSpace(value), dyn: a.dyn, w: a.w}, "ssh -o "+key)
	}
}

// ansibleShell are the modules whose -a is a command line.
var ansibleShell = set("command", "shell", "raw", "win_shell", "win_command")

// hAnsible judges ansible HOSTS -a 'command' (the command, shell and raw modules) as the
// command the hosts run.
func hAnsible(j *judge, _ string, args []arg, _ *stdinSrc) {
	module := "command"
	var cmd *arg
	for i := 0; i < len(args); i++ {
		s := args[i].s
		next := func() *arg {
			if i+1 < len(args) {
				i++
				return &args[i]
			}
			return nil
		}
		switch {
		case s == "-m" || s == "--module-name":
			if m := next(); m != nil {
				module = m.s
			}
		case strings.HasPrefix(s, "--module-name="):
			module = strings.TrimPrefix(s, "--module-name=")
		case strings.HasPrefix(s, "-m") && len(s) > 2:
			module = s[2:]
		case s == "-a" || s == "--args":
			cmd = next()
		case strings.HasPrefix(s, "--args="):
			cmd = &arg{s: strings.TrimPrefix(s, "--args="), dyn: args[i].dyn, w: args[i].w}
		case strings.HasPrefix(s, "-a") && len(s) > 2:
			cmd = &arg{s: s[2:], dyn: args[i].dyn, w: args[i].w}
		}
	}
	module = strings.TrimPrefix(strings.TrimPrefix(module, "ansible.builtin."), "ansible.legacy.")
	if cmd == nil || !ansibleShell[module] {
		return
	}
	j.remote++
	defer func() { j.remote-- }()
	j.payload(*cmd, "ansible -a")
}

// noteStmtWrites records what a statement's output redirections write, for a script run later
// in the same call: the text when the command is echo, printf or cat of a literal heredoc,
// unknown otherwise.
func (j *judge) noteStmtWrites(st *syntax.Stmt) {
	if j.remote > 0 || len(st.Redirs) == 0 {
		return
	}
	text, known := j.stmtOutput(st)
	for _, r := range st.Redirs {
		if r.Word == nil {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
			if a := j.word(r.Word); !a.dyn {
				j.noteWritten(a.s, text, known)
			}
		case syntax.AppOut, syntax.AppAll, syntax.AppClob, syntax.AppAllClob:
			if a := j.word(r.Word); !a.dyn {
				j.noteAppended(a.s, text, known)
			}
		case syntax.RdrInOut:
			if a := j.word(r.Word); !a.dyn {
				j.noteWritten(a.s, "", false)
			}
		}
	}
}

// stmtOutput is what a statement prints when tollgate can know it: echo or printf of literal
// words, or cat of a literal heredoc.
func (j *judge) stmtOutput(st *syntax.Stmt) (string, bool) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", false
	}
	if n := cmdName(ce.Args[0].Lit()); n != "echo" && n != "printf" && n != "cat" {
		return "", false // no need to expand the words (and read directories) twice
	}
	words := j.words(ce.Args)
	for _, a := range words {
		if a.dyn {
			return "", false
		}
	}
	switch cmdName(words[0].s) {
	case "echo":
		return echoOutput(words[1:]), true
	case "printf":
		return printfOutput(words[1:])
	case "cat":
		if len(words) > 1 {
			return "", false
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				if r.Hdoc != nil {
					a := j.word(r.Hdoc)
					return a.s, !a.dyn
				}
			case syntax.WordHdoc:
				a := j.word(r.Word)
				return a.s + "\n", !a.dyn
			}
		}
	}
	return "", false
}

// echoOutput is what echo prints (with -e, its escapes decoded).
func echoOutput(args []arg) string {
	escapes, nl := false, true
	for len(args) > 0 && (args[0].s == "-n" || args[0].s == "-e" || args[0].s == "-E" || args[0].s == "-ne" || args[0].s == "-en") {
		escapes = escapes || strings.Contains(args[0].s, "e")
		nl = nl && !strings.Contains(args[0].s, "n")
		args = args[1:]
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.s
	}
	s := strings.Join(parts, " ")
	if escapes {
		s = ansiReplacer.Replace(s)
	}
	if nl {
		s += "\n"
	}
	return s
}

// printfOutput is what printf prints: its format's escapes decoded, %s and %b filled in order
// (false for other conversions).
func printfOutput(args []arg) (string, bool) {
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", true
	}
	format, rest := args[0].s, args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'b':
			if len(rest) > 0 {
				b.WriteString(rest[0].s)
				rest = rest[1:]
			}
		default:
			return "", false
		}
	}
	return ansiReplacer.Replace(b.String()), true
}

// runnerSpec says where the command a tool runs starts: after its subcommand (poetry run,
// bundle exec; "" for none), past its own options (those in values take the next word),
// leading operands that are its own (direnv exec DIR, aws-vault exec PROFILE), and the option
// that carries a command string instead (npx -c, nix-shell --run).
type runnerSpec struct {
	sub        string
	values     map[string]bool
	positional int
	payload    []string
	argv       bool // the words after the payload option are the command (nix develop -c)
}

// runners are the tools that run the command given to them: the command is judged as if run
// directly.
var runners = map[string][]runnerSpec{
	"poetry":      {{sub: "run"}},
	"pipenv":      {{sub: "run"}},
	"pdm":         {{sub: "run"}},
	"hatch":       {{sub: "run"}},
	"uv":          {{sub: "run", values: set("--with", "--python", "-p", "--directory", "--project", "--package", "--extra", "--group", "--env-file", "--index", "--from", "-w")}},
	"uvx":         {{values: set("--with", "--python", "-p", "--from", "--index")}},
	"bundle":      {{sub: "exec"}},
	"npx":         {{values: set("-p", "--package"), payload: []string{"-c", "--call"}}},
	"npm":         {{sub: "exec", values: set("-p", "--package", "-w", "--workspace"), payload: []string{"-c", "--call"}}, {sub: "x", values: set("-p", "--package")}},
	"pnpm":        {{sub: "exec"}, {sub: "dlx"}},
	"yarn":        {{sub: "exec"}, {sub: "dlx"}},
	"bunx":        {{}},
	"bun":         {{sub: "x"}},
	"direnv":      {{sub: "exec", positional: 1}},
	"dotenv":      {{values: set("-e", "-v", "-c")}},
	"op":          {{sub: "run", values: set("--env-file", "--account")}},
	"doppler":     {{sub: "run", values: set("-p", "--project", "-c", "--config", "--command"), payload: []string{"--command"}}},
	"aws-vault":   {{sub: "exec", positional: 1, values: set("-d", "--duration", "-r", "--region")}},
	"mise":        {{sub: "exec"}, {sub: "x"}},
	"asdf":        {{sub: "exec"}},
	"rbenv":       {{sub: "exec"}},
	"pyenv":       {{sub: "exec"}},
	"nodenv":      {{sub: "exec"}},
	"nix-shell":   {{values: set("-p", "--packages", "-I", "--arg", "--argstr", "-A", "--attr"), payload: []string{"--run", "--command"}, positional: -1}},
	"nix":         {{sub: "develop", payload: []string{"-c", "--command"}, positional: -1, argv: true}, {sub: "shell", payload: []string{"-c", "--command"}, positional: -1, argv: true}},
	"xvfb-run":    {{values: set("-n", "--server-num", "-s", "--server-args", "-e", "--error-file", "-f", "--auth-file", "-p", "--xauth-protocol", "-w", "--wait")}},
	"strace":      {{values: set("-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-P", "-I", "-X")}},
	"ltrace":      {{values: set("-o", "-e", "-p", "-s", "-u", "-n", "-a", "-l", "-L")}},
	"valgrind":    {{}},
	"torsocks":    {{}},
	"proxychains": {{values: set("-f")}},
	"firejail":    {{}},
	"runuser":     {{values: set("-u", "-g", "-G", "-l", "--user", "--group"), payload: []string{"-c", "--command"}}},
	"sg":          {{positional: 1, payload: []string{"-c"}}},
}

// hRunner judges the command a runner runs (poetry run git commit -n is git commit -n).
func hRunner(j *judge, name string, args []arg, in *stdinSrc) {
	if packageManagers[name] {
		j.packageScript(name, args) // npm test, yarn build: package.json's scripts (resolve_pkg.go)
	}
	for _, spec := range runners[name] {
		rest := args
		if spec.sub != "" {
			k := firstOperandIndex(rest, spec.values)
			if k < 0 || rest[k].s != spec.sub {
				continue
			}
			rest = rest[k+1:]
		}
		for i := 0; i < len(rest); i++ {
			s := rest[i].s
			for _, p := range spec.payload {
				switch {
				case s == p && i+1 < len(rest):
					if spec.argv { // nix develop -c cmd args: the words are the command
						j.exec(rest[i+1:], nil)
					} else {
						j.payload(rest[i+1], name+" "+p)
					}
					return
				case strings.HasPrefix(s, p+"=") && strings.HasPrefix(p, "--"):
					j.payload(arg{s: s[len(p)+1:], dyn: rest[i].dyn, w: rest[i].w}, name+" "+p)
					return
				}
			}
		}
		if spec.positional < 0 {
			return // only the payload option runs a command
		}
		cmd := skipOptions(rest, wrapSpec{values: spec.values, positional: spec.positional})
		if len(cmd) > 0 && cmd[0].s == "--" {
			cmd = cmd[1:] // aws-vault exec PROFILE -- cmd
		}
		j.exec(cmd, in)
		return
	}
	if interpreter(name) != "" {
		j.interpreter(name, args, in) // bun -e '...', bun x.ts: bun is an interpreter too
	}
}

var packageManagers = set("npm", "yarn", "pnpm", "bun")

// firstOperandIndex is the index of the first word that is not an option (or an option's
// value); -1 if none.
func firstOperandIndex(args []arg, values map[string]bool) int {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if len(s) > 1 && s[0] == '-' && !args[i].dyn {
			if values[s] {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// scriptFromInput reports a shell -c whose script is the runner's input: no script word, so
// the first input is it (xargs bash -c), or a script word the input replaces (xargs -I{} sh -c
// {}).
func scriptFromInput(cmd []arg, fromInput func(string) bool) bool {
	if len(cmd) == 0 || !shellNames[cmdName(cmd[0].s)] {
		return false
	}
	i, isCmd := shellOptions(cmd[1:])
	if !isCmd || noExec(cmd[1:1+i]) {
		return false
	}
	return 1+i >= len(cmd) || fromInput(cmd[1+i].s)
}

// noExec reports a shell's options that make it read its script without running it (-n, -o
// noexec), which an interactive shell (-i) ignores.
func noExec(opts []arg) bool {
	n := false
	for k, a := range opts {
		s := a.s
		switch {
		case s == "-o" && k+1 < len(opts) && opts[k+1].s == "noexec":
			n = true
		case len(s) > 1 && s[0] == '-' && s[1] != '-':
			if strings.ContainsRune(s[1:], 'i') {
				return false
			}
			n = n || strings.ContainsRune(s[1:], 'n')
		}
	}
	return n
}
