package guard

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Scripts: a shell script a command runs (bash x.sh, sh x.sh, source x.sh, ./x.sh) is judged
// as the commands in it. A script this call writes first is judged from what it writes (when
// tollgate knows it: echo, printf, cat of a literal heredoc, tee of literal input, a copy of a
// file); a script on disk is read, bounded, at decision time. A script tollgate cannot read
// (missing, written with unknown content, too large) is asked about. Reading is all the
// guard does: it never runs a script.

// missingWhy is why a script that is not there cannot be read.
const missingWhy = "it does not exist yet"

// scriptExt marks a file name that is a shell script, not a program a build makes.
var scriptExt = lazyre.New(`\.(?:sh|bash|zsh|ksh|command)$`)

// buildTools make programs: a file that is missing when the call starts may be their output.
var buildTools = set("go", "gcc", "cc", "clang", "g++", "c++", "clang++", "cargo", "rustc", "make", "cmake",
	"ninja", "meson", "zig", "javac", "kotlinc", "swift", "swiftc", "dotnet", "tsc", "bun", "deno", "ghc",
	"nim", "crystal", "mvn", "gradle", "bazel", "buck", "scons", "xcodebuild", "ld", "as", "nasm", "gfortran")

// maxScriptBytes bounds a script file read at decision time.
const maxScriptBytes = 256 << 10

// written is what this call writes into one file, as far as tollgate knows it.
type written struct {
	text  string // the content, when known
	known bool
	from  string // the file it is a copy of ("" if none)
}

// noteWritten records that this call writes text (known or not) into the file named raw.
func (j *judge) noteWritten(raw, text string, known bool) {
	p, ok := j.abs(raw)
	if !ok {
		return
	}
	if j.written == nil {
		j.written = map[string]*written{}
	}
	j.written[p] = &written{text: text, known: known}
}

// noteAppended records an append: after earlier known text, or after the file's current content.
func (j *judge) noteAppended(raw, text string, known bool) {
	p, ok := j.abs(raw)
	if !ok {
		return
	}
	prev, seen := j.written[p]
	switch {
	case !known:
	case seen && prev.known:
		text = prev.text + text
	case seen:
		known = false
	default:
		if old, err := readBounded(p); err == nil {
			text = old + text
		} else if !os.IsNotExist(err) {
			known = false
		}
	}
	j.noteWritten(raw, text, known)
}

// noteWrites records what a command writes into files, for a script run later in the call.
func (j *judge) noteWrites(name string, args []arg, in *stdinSrc) {
	if j.remote > 0 {
		return
	}
	switch name {
	case "tee":
		text, known := "", in != nil && in.literal && !in.download
		if known {
			text = in.text
		}
		_, ops := operands(args, nil)
		for _, a := range ops {
			if !a.dyn {
				j.noteWritten(a.s, text, known)
			}
		}
	case "cp", "mv", "install":
		j.noteCopy(args)
	case "sed":
		opts, ops := operands(args, sedValues)
		inPlace, script := sedMode(opts)
		if script && len(ops) > 0 {
			ops = ops[1:]
		}
		for _, a := range ops {
			if inPlace && !a.dyn {
				j.noteWritten(a.s, "", false) // edited in place: no longer what is on disk
			}
		}
	case "dd":
		for _, a := range args {
			if p, ok := strings.CutPrefix(a.s, "of="); ok && !a.dyn {
				j.noteWritten(p, "", false)
			}
		}
	case "curl", "wget":
		for i, a := range args {
			next := ""
			if i+1 < len(args) {
				next = args[i+1].s
			}
			if o, ok := downloadOutputs[name](a.s, next); ok && o != "" && o != "-" {
				j.noteWritten(o, "", false)
			}
		}
	}
}

// noteCopy records cp/mv/install SRC DEST as DEST holding SRC's content.
func (j *judge) noteCopy(args []arg) {
	opts, ops := operands(args, set("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group"))
	dir, hasDir := optValue(opts, "-t", "--target-directory")
	if !hasDir && len(ops) < 2 {
		return
	}
	srcs, dest := ops, dir
	if !hasDir {
		srcs, dest = ops[:len(ops)-1], ops[len(ops)-1].s
	}
	for _, s := range srcs {
		target := dest
		if hasDir || len(srcs) > 1 || j.isDir(dest) {
			target = filepath.Join(dest, filepath.Base(s.s))
		}
		sp, ok := j.abs(s.s)
		if s.dyn || !ok {
			j.noteWritten(target, "", false)
			continue
		}
		if w := j.written[sp]; w != nil {
			j.noteWritten(target, w.text, w.known)
			j.written[mustAbs(j, target)].from = w.from
			continue
		}
		j.noteWritten(target, "", false)
		if tp, ok := j.abs(target); ok {
			j.written[tp] = &written{from: sp}
		}
	}
}

func mustAbs(j *judge, raw string) string {
	p, _ := j.abs(raw)
	return p
}

// readBounded reads a file of at most maxScriptBytes.
func readBounded(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScriptBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxScriptBytes {
		return "", errTooLarge
	}
	return string(b), nil
}

type tooLarge struct{}

func (tooLarge) Error() string { return "larger than the bound tollgate reads" }

var errTooLarge error = tooLarge{}

// scriptText returns the content of the script file named raw, as this call leaves it, and
// why not when tollgate cannot know it.
func (j *judge) scriptText(raw string) (text string, fromDisk bool, why string) {
	p, ok := j.abs(raw)
	if !ok {
		return "", false, "the working directory is unknown"
	}
	if q, ok := j.viaLink(p); ok {
		p = q
	}
	if w := j.written[p]; w != nil {
		switch {
		case w.from != "":
			p = w.from
		case w.known:
			return w.text, false, ""
		default:
			return "", false, "this command writes it with content tollgate cannot read"
		}
	}
	fi, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		return "", false, missingWhy
	case err != nil:
		return "", false, "tollgate cannot read it (" + oneLine(err.Error()) + ")"
	case fi.IsDir():
		return "", true, ""
	}
	text, err = readBounded(p)
	if err != nil {
		return "", false, "tollgate cannot read it (" + oneLine(err.Error()) + ")"
	}
	return text, true, ""
}

// runScript judges a shell script a command runs: bash x.sh and source x.sh (direct false)
// or ./x.sh (direct: its #! line says which interpreter runs it).
func (j *judge) runScript(raw, runner string, direct bool, params []arg) {
	if j.remote > 0 {
		return
	}
	if strings.Contains(raw, "://") || direct && !j.mayBeShellScript(raw) {
		return
	}
	text, fromDisk, why := j.scriptText(raw)
	if why != "" {
		if direct && why == missingWhy && j.built && !scriptExt.MatchString(raw) {
			return // go build -o app && ./app: a program this call builds first
		}
		j.add(Ask, "guard/unread-script", runner+" runs "+raw+", and "+why+"; a person must check what it does")
		return
	}
	if text == "" || isBinary(text) || !direct && !shellNames[runner] && runner != "source" && runner != "." {
		return // a program, or a fish or csh script: the project's own code
	}
	if direct && !shellShebang(text) {
		return // a script in another language: the project's own code
	}
	cwd, before := j.cwd, j.best
	restore := j.setParams(raw, params)
	if fromDisk {
		j.onDisk++
	}
	j.script(text)
	if fromDisk {
		j.onDisk--
	}
	restore()
	if runner != "source" && runner != "." {
		j.cwd = cwd // the script ran in its own process
	}
	if j.best != before {
		j.best.Reason = raw + " runs: " + j.best.Reason // say where the command is
	}
}

// setParams sets $0 and the positional parameters a script sees ($1..$9 when literal; others
// stay unknown) and returns what puts the caller's back.
func (j *judge) setParams(script string, params []arg) func() {
	if j.vars == nil {
		j.vars = map[string]string{}
	}
	saved := map[string]*string{}
	for k := 0; k <= 9; k++ {
		name := strconv.Itoa(k)
		if v, ok := j.vars[name]; ok {
			saved[name] = &v
		} else {
			saved[name] = nil
		}
		delete(j.vars, name)
		switch {
		case k == 0:
			j.vars[name] = script
		case k <= len(params) && !params[k-1].dyn:
			j.vars[name] = params[k-1].s
		}
	}
	prevParams := j.params
	j.params = nil // "$@" unknown unless every parameter is literal
	if len(params) <= 9 {
		literal := true
		for _, a := range params {
			literal = literal && !a.dyn
		}
		if literal {
			j.params = append([]arg{}, params...)
		}
	}
	return func() {
		j.params = prevParams
		for name, v := range saved {
			if v == nil {
				delete(j.vars, name)
			} else {
				j.vars[name] = *v
			}
		}
	}
}

// runWrittenCode judges a program file an interpreter runs when this call wrote it (a file
// already on disk is the project's own code).
func (j *judge) runWrittenCode(name, raw string) {
	p, ok := j.abs(raw)
	if !ok || j.written[p] == nil {
		return
	}
	text, _, why := j.scriptText(raw)
	if why != "" {
		j.add(Ask, "guard/unread-script", name+" runs "+raw+", and "+why+"; a person must check what it does")
		return
	}
	j.code(name, arg{s: text})
}

func isBinary(text string) bool {
	head := text[:min(len(text), 1024)]
	return strings.IndexByte(head, 0) >= 0 || strings.HasPrefix(head, "\x7fELF")
}

// shellShebang reports whether a file runs as shell when executed: a #! line naming a shell, or
// no #! line (the shell runs a text file that has none).
func shellShebang(text string) bool {
	if !strings.HasPrefix(text, "#!") {
		return true
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	name := cmdName(fields[0])
	if name == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				name = cmdName(f)
				break
			}
		}
	}
	return shellNames[name]
}

var shellNames = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox")

// mayBeShellScript looks at the head of a file run directly, before it is read whole: a
// program (a binary, a script in another language, a system command) is not read. A file this
// call writes, or one that does not exist, is left to scriptText.
func (j *judge) mayBeShellScript(raw string) bool {
	p, ok := j.abs(raw)
	if !ok {
		return true
	}
	if q, ok := j.viaLink(p); ok {
		p = q
	}
	if j.written[p] != nil {
		return true
	}
	if systemDirs[filepath.Dir(p)] {
		return false // /usr/bin/git, /bin/rm: the system's programs
	}
	f, err := os.Open(p)
	if err != nil {
		return true
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	text := string(head[:n])
	return !isBinary(text) && shellShebang(text)
}
