package guard

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// handler judges one command (args without the command word).
type handler func(j *judge, name string, args []arg, in *stdinSrc)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"sudo": hPrivilege, "doas": hPrivilege, "pkexec": hPrivilege, "run0": hPrivilege,
		"su": hSu, "env": hEnv, "trap": hTrap, "eval": hEval, "exec": hWrapper, "command": hWrapper, "builtin": hWrapper,
		"nice": hWrapper, "nohup": hWrapper, "timeout": hWrapper, "stdbuf": hWrapper, "time": hWrapper,
		"xargs": hWrapper, "busybox": hWrapper, "setsid": hWrapper, "ionice": hWrapper, "unbuffer": hWrapper,
		"caffeinate": hWrapper, "chronic": hWrapper, "flock": hWrapper, "watch": hWatch, "parallel": hParallel,
		"ssh": hSSH, "find": hFind, "ansible": hAnsible, "source": hSource, ".": hSource,
		"sh": hShellCmd, "bash": hShellCmd, "zsh": hShellCmd, "dash": hShellCmd, "ksh": hShellCmd,
		"mksh": hShellCmd, "ash": hShellCmd, "fish": hShellCmd, "csh": hShellCmd, "tcsh": hShellCmd,
		"cd": hCd, "pushd": hCd, "alias": hAlias, "script": hScript,
		"make": hMake, "gmake": hMake,
		"git": hGit, "tollgate": hTollgate, "pre-commit": hHookManager, "lefthook": hHookManager, "husky": hHookManager,
	}
	for name := range runners {
		handlers[name] = hRunner
	}
	for name, h := range fileHandlers {
		handlers[name] = h
	}
	for name, h := range remoteHandlers {
		handlers[name] = h
	}
}

// wrapSpec says how a wrapper's own options are skipped to reach the wrapped command.
type wrapSpec struct {
	values     map[string]bool // options that take the next word
	positional int             // leading operands that belong to the wrapper (timeout's duration)
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var wrappers = map[string]wrapSpec{
	"sudo":       {values: set("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir", "--prompt", "--role", "--type", "--other-user", "--close-from", "--host", "--command-timeout")},
	"doas":       {values: set("-u", "-C")},
	"pkexec":     {values: set("--user")},
	"run0":       {values: set("-u", "--user", "-D", "--chdir", "--setenv", "--unit", "--property")},
	"exec":       {values: set("-a")},
	"command":    {},
	"builtin":    {},
	"nice":       {values: set("-n", "--adjustment")},
	"nohup":      {},
	"timeout":    {values: set("-s", "-k", "--signal", "--kill-after"), positional: 1},
	"stdbuf":     {values: set("-i", "-o", "-e", "--input", "--output", "--error")},
	"time":       {values: set("-f", "-o", "--format", "--output")},
	"xargs":      {values: set("-I", "-J", "-R", "-S", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--max-chars", "--eof", "--process-slot-var")},
	"busybox":    {},
	"setsid":     {},
	"ionice":     {values: set("-c", "-n", "-p", "-P", "-u", "--class", "--classdata")},
	"unbuffer":   {},
	"caffeinate": {values: set("-t", "-w")},
	"chronic":    {},
	"flock":      {values: set("-w", "-E", "--timeout", "--conflict-exit-code"), positional: 1},
}

// skipOptions drops a wrapper's options (and its own operands) and returns the wrapped command.
func skipOptions(args []arg, spec wrapSpec) []arg {
	i := 0
	for i < len(args) {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		if args[i].dyn || len(s) < 2 || s[0] != '-' {
			break
		}
		if spec.values[s] {
			i++
		}
		i++
	}
	i += spec.positional
	if i > len(args) {
		i = len(args)
	}
	return args[i:]
}

// unwrap looks through wrappers to the command that really runs ("" if unknown or none).
func unwrap(args []arg) (string, []arg) {
	for depth := 0; len(args) > 0 && depth < 16; depth++ {
		if args[0].dyn {
			return "", nil
		}
		name := cmdName(args[0].s)
		rest := args[1:]
		switch {
		case name == "env":
			rest, _ = envSplit(rest)
		case name == "command" && len(rest) > 0 && (rest[0].s == "-v" || rest[0].s == "-V"):
			return "", nil
		case name == "flock" && len(rest) > 1 && (hasArg(rest, "-c", "--command")):
			return "sh", rest
		default:
			spec, ok := wrappers[name]
			if !ok {
				return name, rest
			}
			rest = skipOptions(rest, spec)
		}
		args = rest
	}
	return "", nil
}

// dataCommands take only data as arguments: their words are never judged as paths to secrets.
var dataCommands = set("echo", "printf", "git", "true", "false", ":", "test", "[", "[[", "which", "type",
	"whereis", "man", "help", "hash", "alias", "unalias", "read", "let", "local", "declare", "set", "shift",
	"exit", "return", "cd", "pushd", "popd", "ls", "stat", "file", "rm", "rmdir", "mkdir", "touch", "chmod",
	"chown", "chgrp", "mv", "ln", "unlink", "shred", "tollgate", "sleep", "wait", "kill", "export", "unset",
	"gh", "kubectl", "helm", "docker", "podman", "npm", "pnpm", "yarn", "go", "cargo", "make", "du", "df",
	"realpath", "readlink", "basename", "dirname", "trap", "getopts", "find", "tree", "fd")

// grepLike take a pattern (data) as their first operand.
var grepLike = set("grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep", "sed", "awk", "gawk", "jq", "yq")

// exec judges one simple command: its name, its arguments, and what it reads on stdin.
func (j *judge) exec(args []arg, in *stdinSrc) {
	if len(args) == 0 {
		return
	}
	j.commands++
	via := j.viaProgram // started by another program: no shell function is reachable
	j.viaProgram = false
	if j.tick() {
		return
	}
	if j.commands > maxCommands {
		j.add(Ask, "guard/limit", "too many commands to read in one call; a person must check them")
		return
	}
	a0 := args[0]
	if a0.dyn {
		j.dynamic(a0, "the command name")
		return
	}
	name := cmdName(a0.s)
	if name == "" {
		return
	}
	if len(args) > 1 && a0.s == "--" {
		// time -p -- ! cleanup: bash reads -- and the ! after it as syntax there and runs the
		// rest (X=1 ! cleanup finds no command named !); the rest is judged
		rest := args[1:]
		if len(rest) > 1 && rest[0].s == "!" {
			rest = rest[1:]
		}
		j.exec(rest, in)
		return
	}
	if len(args) > 1 && strayWord(a0.s) {
		// bash runs nothing here (1A=2: command not found), but the agent means the rest:
		// FOO-BAR=1 git reset --hard, --no-verify git commit. It is judged as if it ran, the
		// stray option moved after the command it was meant for.
		if strings.HasPrefix(a0.s, "-") {
			j.exec(append(append([]arg{}, args[1:]...), a0), in)
		} else {
			j.exec(args[1:], in)
		}
		return
	}
	if body, ok := j.aliases[a0.s]; ok && !j.inAlias[a0.s] {
		// an alias (agents' shells often load the user's): judge what it expands to
		j.inAlias[a0.s] = true
		rest, _ := joinArgs(args[1:])
		j.script(body + " " + rest)
		delete(j.inAlias, a0.s)
		return
	}
	if j.callFunc(a0.s, args[1:], via) { // functions.go
		return
	}
	if name == "ln" {
		defer j.noteLink(args[1:]) // after ln's own operands are judged
	}
	j.trackCommand(name, args, in)
	j.denyPrefix(name, args[1:])
	j.risky(name, args[1:])
	if !dataCommands[name] && j.remote == 0 {
		j.argPaths(name, args[1:])
	}
	if strings.ContainsRune(a0.s, '/') {
		j.runFile(a0.s)
		j.runScript(a0.s, "the command", true, args[1:])
	}
	if h := handlers[name]; h != nil {
		h(j, name, args[1:], in)
		return
	}
	if interpreter(name) != "" {
		j.interpreter(name, args[1:], in)
		return
	}
	j.destructive(name, args[1:])
}

// argPaths asks about arguments that name secrets (cat ~/.ssh/id_rsa, curl -d @.env, scp .env).
// A key a tool takes through one of its key options (keyFlags) is used, never printed: ssh -i,
// curl --key, openssl req -key, cosign --key. ssh-add takes keys as operands.
func (j *judge) argPaths(name string, args []arg) {
	if name == "ssh-add" {
		return // loads the keys into the agent, prints none
	}
	skipPattern := grepLike[name]
	for k, a := range args {
		if a.dyn || j.usesKey(name, args, k) {
			continue // ssh -i KEY uses the key to log in: nothing of it is shown
		}
		s := a.s
		if strings.HasPrefix(s, "-") {
			i := strings.IndexByte(s, '=')
			if i < 0 {
				continue
			}
			s = s[i+1:]
		} else if skipPattern {
			skipPattern = false
			continue
		}
		if k := strings.IndexByte(s, '='); k > 0 && !strings.ContainsAny(s[:k], "/.") {
			s = s[k+1:] // if=path, key=path
		}
		s = strings.TrimPrefix(s, "@")
		if k := strings.IndexByte(s, ':'); k > 0 && !strings.HasPrefix(s, "/") && !strings.Contains(s[:k], "/") {
			s = s[k+1:] // scp host:path, docker cp container:path
		}
		if isPathish(s) || j.isLink(s) {
			j.readPath(s)
		}
	}
}

// runFile asks when a file a downloader just wrote is run.
func (j *judge) runFile(path string) {
	if p, ok := j.abs(path); ok && j.fetched[p] {
		j.add(Ask, "guard/download-exec", "runs "+path+", which this command just downloaded; a person must read it first")
	}
}

// denyPrefix applies guard.deny.
func (j *judge) denyPrefix(name string, args []arg) {
	for _, prefix := range j.o.Deny {
		words := strings.Fields(prefix)
		if len(words) == 0 || cmdName(words[0]) != name || len(words)-1 > len(args) {
			continue
		}
		match := true
		for k, w := range words[1:] {
			if args[k].s != w {
				match = false
				break
			}
		}
		if match {
			j.add(Deny, "guard/deny-prefix", "the command matches guard.deny entry \""+prefix+"\"")
		}
	}
}

func hPrivilege(j *judge, name string, args []arg, in *stdinSrc) {
	j.add(Ask, "guard/privilege", name+" runs a command with elevated privileges; a person must approve")
	rest := skipOptions(args, wrappers[name])
	for len(rest) > 0 && isAssignment(rest[0]) {
		k := strings.IndexByte(rest[0].s, '=')
		j.envVar(rest[0].s[:k], rest[0].s[k+1:]) // sudo VAR=value cmd
		j.setCmdEnv(rest[0].s[:k], rest[0].s[k+1:])
		rest = rest[1:]
	}
	j.exec(rest, in)
}

func hWrapper(j *judge, name string, args []arg, in *stdinSrc) {
	if name == "command" && len(args) > 0 && (args[0].s == "-v" || args[0].s == "-V") {
		return
	}
	if name == "flock" {
		for i, a := range args {
			if (a.s == "-c" || a.s == "--command") && i+1 < len(args) {
				j.payload(args[i+1], "flock -c")
				return
			}
		}
	}
	if name == "xargs" {
		j.xargs(args, in)
		return
	}
	j.viaProgram = true // time, nice, command, exec: none of them runs a shell function
	j.exec(skipOptions(args, wrappers[name]), in)
}

// envSplit splits env's words into the command and the assignments and payloads env handles.
func envSplit(args []arg) (rest []arg, assigns []arg) {
	i := 0
	for i < len(args) {
		a := args[i]
		s := a.s
		switch {
		case s == "--":
			i++
			for i < len(args) && looksAssignment(args[i].s) {
				assigns = append(assigns, args[i])
				i++
			}
			return args[i:], assigns
		case envValues[s]:
			i += 2
			continue
		case isSplitString(s):
			assigns = append(assigns, arg{s: "\x00S"}) // marks a payload; the caller re-parses
			return args[i:], assigns
		case (s == "-" || strings.HasPrefix(s, "-")) && !a.dyn: // env - is env -i
			i++
			continue
		case isAssignment(a):
			assigns = append(assigns, a)
			i++
			continue
		}
		break
	}
	if i > len(args) {
		i = len(args) // env -C with its value missing
	}
	return args[i:], assigns
}

// envValues are env's options that take the next word.
var envValues = set("-u", "-C", "-P", "--unset", "--chdir") // -P: BSD env's search path

// isSplitString reports env -S (--split-string, or S in a cluster): the rest is a payload.
func isSplitString(s string) bool {
	return s == "-S" || s == "--split-string" || strings.HasPrefix(s, "--split-string=") ||
		(len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s, 'S'))
}

// looksAssignment reports a NAME=value word.
func looksAssignment(s string) bool { return strings.Contains(s, "=") && !strings.HasPrefix(s, "=") }

// isAssignment reports a literal NAME=value word (sudo VAR=value cmd, env VAR=value cmd).
func isAssignment(a arg) bool { return !a.dyn && looksAssignment(a.s) }

func hEnv(j *judge, _ string, args []arg, in *stdinSrc) {
	rest, assigns := envSplit(args)
	for _, a := range assigns {
		if a.s == "\x00S" {
			// env -S 'cmd args': the string is split into words and run, like a small script.
			s := rest[0].s
			payloadAt := 1
			switch {
			case strings.HasPrefix(s, "--split-string="):
				s, payloadAt = strings.TrimPrefix(s, "--split-string="), 0
			case strings.HasSuffix(s, "S"):
				s = ""
			default:
				s, payloadAt = s[strings.IndexRune(s, 'S')+1:], 0
			}
			words := rest[payloadAt:]
			if s != "" {
				words = append([]arg{{s: s}}, words...)
			}
			if len(words) > 0 {
				p, dyn := joinArgs(words)
				j.payload(arg{s: p, dyn: dyn, w: words[0].w}, "env -S")
			}
			return
		}
		k := strings.IndexByte(a.s, '=')
		j.envVar(a.s[:k], a.s[k+1:])
		if j.cmdEnv == nil {
			j.cmdEnv = map[string]string{}
		}
		j.cmdEnv[a.s[:k]] = a.s[k+1:]
	}
	j.exec(rest, in)
}

// payload re-parses a string the command will run as shell.
func (j *judge) payload(a arg, what string) {
	if a.dyn {
		j.dynamic(a, "the script given to "+what)
		return
	}
	j.script(a.s)
}

func hEval(j *judge, _ string, args []arg, _ *stdinSrc) {
	if len(args) == 0 {
		return
	}
	p, dyn := joinArgs(args)
	if dyn {
		for _, a := range args {
			if a.dyn {
				j.dynamic(a, "the script given to eval")
				return
			}
		}
	}
	j.script(p)
}

func hSu(j *judge, name string, args []arg, _ *stdinSrc) {
	j.add(Ask, "guard/privilege", "su runs commands as another user; a person must approve")
	for i, a := range args {
		switch {
		case (a.s == "-c" || a.s == "--command") && i+1 < len(args):
			j.payload(args[i+1], "su -c")
		case strings.HasPrefix(a.s, "--command="):
			j.payload(arg{s: strings.TrimPrefix(a.s, "--command="), dyn: a.dyn, w: a.w}, "su -c")
		}
	}
}

func hWatch(j *judge, _ string, args []arg, _ *stdinSrc) {
	i, execMode := 0, false
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && !args[i].dyn {
		switch args[i].s {
		case "-n", "--interval", "-q", "--equexit":
			i++
		case "-x", "--exec":
			execMode = true
		case "--":
			i++
			goto done
		}
		i++
	}
done:
	if i >= len(args) {
		return
	}
	if execMode {
		j.exec(args[i:], nil)
		return
	}
	p, dyn := joinArgs(args[i:])
	j.payload(arg{s: p, dyn: dyn, w: args[i].w}, "watch")
}

// hAlias remembers alias NAME=VALUE definitions.
func hAlias(j *judge, _ string, args []arg, _ *stdinSrc) {
	for _, a := range args {
		name, value, ok := strings.Cut(a.s, "=")
		if !ok || a.dyn || name == "" {
			continue
		}
		if j.aliases == nil {
			j.aliases, j.inAlias = map[string]string{}, map[string]bool{}
		}
		j.aliases[name] = value
	}
}

// hScript judges script -c 'command' (util-linux) and script -q file command (BSD).
func hScript(j *judge, _ string, args []arg, _ *stdinSrc) {
	for i, a := range args {
		switch {
		case (a.s == "-c" || a.s == "--command" || isShortCluster(a.s, 'c')) && i+1 < len(args):
			j.payload(args[i+1], "script -c") // -c, or a cluster ending in it (-qc)
			return
		case strings.HasPrefix(a.s, "--command="):
			j.payload(arg{s: strings.TrimPrefix(a.s, "--command="), dyn: a.dyn, w: a.w}, "script -c")
			return
		}
	}
	_, ops := operands(args, set("-c", "-E", "--echo", "-I", "-O", "-T", "-B", "-t", "-F"))
	if len(ops) > 1 {
		j.exec(ops[1:], nil) // BSD script: script [-q] file command ...
	}
}

// isShortCluster reports a cluster of short options ending in the letter c (-qc).
func isShortCluster(s string, c byte) bool {
	return len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == c
}

func hCd(j *judge, _ string, args []arg, _ *stdinSrc) {
	if len(args) == 0 {
		j.cwd = j.o.Home
		return
	}
	a := args[len(args)-1]
	if a.dyn || a.s == "-" {
		j.cwd = ""
		return
	}
	if p, ok := j.abs(a.s); ok {
		j.cwd = p
		return
	}
	j.cwd = ""
}

func hSource(j *judge, name string, args []arg, _ *stdinSrc) {
	if len(args) == 0 {
		return
	}
	a := args[0]
	if a.dyn {
		j.dynamic(a, "the file given to "+name)
		return
	}
	j.runFile(a.s)
	j.runScript(a.s, name, false, args[1:])
}

// shellOptionValues take the next word in sh/bash/zsh option lists.
var shellOptionValues = set("-o", "+o", "-O", "+O", "--rcfile", "--init-file")

func hShellCmd(j *judge, name string, args []arg, in *stdinSrc) {
	i, cmd := shellOptions(args)
	if noExec(args[:i]) {
		return // bash -n: reads the script for its syntax and runs none of it
	}
	switch {
	case cmd:
		if i < len(args) {
			j.payload(args[i], name+" -c")
		}
	case i < len(args) && args[i].dyn:
		j.dynamic(args[i], "the script "+name+" runs")
	case i < len(args):
		j.runFile(args[i].s)
		j.runScript(args[i].s, name, false, args[i+1:])
	default:
		j.stdinScript(name, in)
	}
}

// shellOptions skips a shell's options: the index of its first operand, and whether -c makes
// that operand the command string.
func shellOptions(args []arg) (i int, cmd bool) {
	for i < len(args) {
		s := args[i].s
		if s == "--" || s == "-" {
			return i + 1, cmd
		}
		if args[i].dyn || len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			return i, cmd
		}
		cmd = cmd || s == "--command" || (s[0] == '-' && s[1] != '-' && strings.ContainsRune(s[1:], 'c'))
		if shellOptionValues[s] {
			i++
		}
		i++
	}
	return min(i, len(args)), cmd
}

// stdinScript judges a shell that reads its commands on stdin.
func (j *judge) stdinScript(name string, in *stdinSrc) {
	if in != nil && in.file != "" {
		j.runScript(in.file, name, false, nil)
		return
	}
	if in != nil && !j.stdinProgram(name, in, j.script) {
		j.add(Ask, "guard/dynamic", name+" runs commands that "+in.what+" prints at run time; a person must check them")
	}
}

// stdinProgram judges a program a shell or an interpreter reads on stdin: downloaded or decoded
// code asks, literal text is judged by run. It reports false when another command prints the
// program at run time (the caller asks, in its own words).
func (j *judge) stdinProgram(name string, in *stdinSrc, run func(text string)) bool {
	switch {
	case in.download:
		j.add(Ask, "guard/download-exec", in.what+" piped into "+name+" runs downloaded or decoded code nobody has read; a person must approve")
	case in.literal:
		run(in.text)
	default:
		return false
	}
	return true
}

// interpreter returns the language of an interpreter command ("" if none).
func interpreter(name string) string {
	if pythonName.MatchString(name) {
		return "python"
	}
	return interpreterLangs[name]
}

var interpreterLangs = map[string]string{
	"node": "js", "nodejs": "js", "deno": "js", "bun": "js", "tsx": "js", "ts-node": "js",
	"perl": "perl", "ruby": "ruby", "php": "php", "lua": "lua", "luajit": "luajit", "rscript": "rscript",
	"osascript": "osascript", "pwsh": "pwsh", "powershell": "powershell", "tclsh": "tclsh", "irb": "irb", "jshell": "jshell",
	"awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk",
}

var pythonName = lazyre.New(`^(?:python|pypy)[0-9.]*$`)

// codeFlags are the options that carry a program in each language.
var codeFlags = map[string]map[string]bool{
	"python": set("-c"), "js": set("-e", "--eval", "-p", "--print", "-pe", "-ep", "eval"), "perl": set("-e", "-E"),
	"ruby": set("-e"), "php": set("-r"), "lua": set("-e"), "luajit": set("-e"), "rscript": set("-e"),
	"osascript": set("-e"), "pwsh": set("-c", "-command", "-encodedcommand", "-ec"), "powershell": set("-c", "-command", "-encodedcommand", "-ec"),
	"tclsh": set(), "irb": set(), "jshell": set(),
}

// clusterLangs read option clusters holding the code flag (python -Ic, perl -ne).
var clusterLangs = set("python", "perl", "ruby")

func (j *judge) interpreter(name string, args []arg, in *stdinSrc) {
	lang := interpreter(name)
	if lang == "awk" {
		j.awk(args)
		return
	}
	flags := codeFlags[lang]
	for i, a := range args {
		if code, ok := inlineCode(lang, flags, args, i); ok {
			j.code(name, code)
			j.inPlaceEdits(lang, args, i, code) // oneliner.go: perl -pi -e ... FILE
			return
		}
		if !strings.HasPrefix(a.s, "-") {
			if a.dyn && j.wordFetches(a.w) { // python3 <(curl ...): downloaded code runs
				j.dynamic(a, "the script "+name+" runs")
				return
			}
			if !(lang == "python" && i > 0 && args[i-1].s == "-m") { // python -m module
				j.runFile(a.s)              // a script file on disk: it is the project's own code
				j.runWrittenCode(name, a.s) // unless this call wrote it
			}
			return
		}
	}
	if in != nil && in.file != "" {
		j.runWrittenCode(name, in.file) // python3 < x.py: the project's own code, unless written here
		return
	}
	if in != nil && !j.stdinProgram(name, in, func(text string) { j.code(name, arg{s: text}) }) {
		j.add(Ask, "guard/interpreter", name+" runs a program another command prints at run time; a person must check it")
	}
}

// inlineCode returns the program args[i] gives an interpreter: the word after a code flag, or
// the rest of a cluster ending in one (python -Ic 'code', perl -ne 'code', perl -e'code').
func inlineCode(lang string, flags map[string]bool, args []arg, i int) (arg, bool) {
	a := args[i]
	s := strings.ToLower(a.s)
	if flags[s] && i+1 < len(args) {
		return args[i+1], true
	}
	if len(s) <= 2 || s[0] != '-' || s[1] == '-' || !clusterLangs[lang] {
		return arg{}, false
	}
	for _, f := range []string{"c", "e", "E"} {
		k := strings.Index(a.s[1:], f)
		if k < 0 || !flags["-"+f] {
			continue
		}
		if stuck := a.s[k+2:]; stuck != "" {
			return arg{s: stuck, dyn: a.dyn, w: a.w}, true
		}
		if i+1 < len(args) {
			return args[i+1], true
		}
		return arg{}, false
	}
	return arg{}, false
}

// riskyCode marks one-liners whose effect tollgate cannot read: processes, files, network,
// dynamic evaluation.
var riskyCode = lazyre.New(`(?i)\b(?:os|subprocess|shutil|socket|urllib\d?|requests|http|httpx|ctypes|importlib|__import__|eval|exec|execfile|compile|open|system|popen\d?|spawn\w*|fork|child_process|require|process|unlink\w*|rmtree|remove|rmdir|chmod|chown|kill|fetch|write\w*|pathlib|path|glob|pickle|marshal|getattr|setattr|globals|builtins|syscall|file|dir|fileutils|kernel|runtime|deno|bun|function|net|fs|io|pty|signal|shell|backticks|qx|sqlite3|tempfile|webbrowser|sys\.modules|dlopen|ffi|encodedcommand)\b|` + "`" + `|\$\(|%x|\bdo\s+shell\s+script\b|<<|>\s*\S`)

var pyImport = lazyre.New(`(?:^|;|\n)\s*(?:from\s+([\w.]+)\s+import\s+[\w, *]+|import\s+([\w., ]+))`)

var safeModules = set("json", "sys", "math", "re", "base64", "datetime", "time", "collections", "itertools",
	"functools", "string", "textwrap", "hashlib", "uuid", "random", "platform", "decimal", "fractions",
	"statistics", "pprint", "csv", "struct", "binascii", "zlib", "locale", "unicodedata", "operator", "typing",
	"dataclasses", "enum", "calendar", "html", "difflib", "tomllib", "secrets", "heapq", "bisect", "colorsys", "keyword")

// code judges an interpreter one-liner.
func (j *judge) code(name string, c arg) {
	if c.dyn {
		j.dynamic(c, "the program given to "+name)
		return
	}
	src := c.s
	if pythonName.MatchString(name) {
		var shells bool
		src, shells = j.pyShellStrings(name, src) // oneliner.go: os.system("make test")
		for _, m := range pyImport.FindAllStringSubmatch(src, -1) {
			mods := m[1] + m[2]
			for _, mod := range strings.Split(mods, ",") {
				fields := strings.Fields(mod)
				if len(fields) == 0 {
					continue
				}
				mod = fields[0]
				if top := strings.SplitN(mod, ".", 2)[0]; !safeModules[top] && !(shells && (top == "os" || top == "subprocess")) {
					j.add(Ask, "guard/interpreter", name+" one-liner imports "+mod+": tollgate cannot read what it does; a person must check it")
					return
				}
			}
		}
		src = pyImport.ReplaceAllString(src, ";")
	} else {
		src, _ = j.scriptShellStrings(interpreter(name), name, src) // oneliner.go
	}
	if m := riskyCode.FindString(src); m != "" {
		j.add(Ask, "guard/interpreter", name+" one-liner uses "+strings.TrimSpace(m)+": tollgate cannot read what it does to files, processes or the network; a person must check it")
	}
}

// awkRisky marks what an awk program still does to processes and files once its literal
// hand-overs are judged and its strings are blanked (oneliner.go): system(), a pipe to or from
// a command built at run time, a print redirection to a file named at run time.
var awkRisky = lazyre.New(`\bsystem\s*\(|\|\s*getline\b|\|&|\bprintf?\b[^;}]*(?:\||>)`)

func (j *judge) awk(args []arg) {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "-f" || s == "--file":
			return
		case s == "-v" || s == "-F" || s == "--assign" || s == "--field-separator":
			i++
		case strings.HasPrefix(s, "-") && len(s) > 1:
		default:
			if args[i].dyn {
				j.dynamic(args[i], "the awk program")
			} else if awkRisky.MatchString(awkString.ReplaceAllString(j.awkShellStrings(s), `""`)) { // oneliner.go
				j.add(Ask, "guard/interpreter", "the awk program runs commands or writes files; a person must check it")
			}
			return
		}
	}
}

// strayWord reports a command word no program is named: an option (--no-verify) or a
// malformed assignment (1A=2, A-B=2, =2) standing where the command should be.
func strayWord(s string) bool {
	if strings.HasPrefix(s, "-") && len(s) > 1 {
		return true
	}
	eq := strings.IndexByte(s, '=')
	return eq >= 0 && !strings.ContainsAny(s[:eq], "/\\")
}
