package guard

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// Shell commands an interpreter one-liner hands to the shell as literal strings: python's
// os.system, os.popen and subprocess calls, perl's and ruby's system(), backticks, qx{} and
// %x(), node's child_process exec and execSync, awk's system(), its getline and print pipes
// and its print redirections. Each is judged as the shell command (or the file write) it is, and
// removed from the code; what remains is read as before, so a one-liner that does anything
// else tollgate cannot read is still asked about. A call whose command is not one plain
// literal is left in place (and asked about).

// pyShellCall is one python call handing a literal command to the shell or to exec: a string
// or a list of strings, optionally followed by keyword flags that change nothing judged here.
var pyShellCall = lazyre.New(`\b(?:os\.(?:system|popen)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\(\s*(` +
	pyStrExpr + `|\[\s*(?:(?:` + pyStrExpr + `)\s*,\s*)*(?:` + pyStrExpr + `)?\s*\])\s*(?:,\s*(?:shell|check|text|capture_output|universal_newlines)\s*=\s*(?:True|False)\s*)*\)`)

const pyStrExpr = `"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`

var pyStr = lazyre.New(pyStrExpr)

// pyShellStrings judges python's literal shell calls in src and returns src without them, and
// whether any was found.
func (j *judge) pyShellStrings(name, src string) (string, bool) {
	found := false
	rest := pyShellCall.Get().ReplaceAllStringFunc(src, func(call string) string {
		m := pyShellCall.FindStringSubmatch(call)
		if m == nil {
			return call
		}
		found = true
		what := name + " one-liner's " + call[:strings.IndexByte(call, '(')]
		if lit := m[1]; strings.HasPrefix(lit, "[") {
			var words []string
			for _, s := range pyStr.FindAllString(lit, -1) {
				words = append(words, shellword.Quote(unquotePy(s)))
			}
			j.payload(arg{s: strings.Join(words, " ")}, what)
		} else {
			j.payload(arg{s: unquotePy(lit)}, what)
		}
		return "None"
	})
	return rest, found
}

// scriptShellCalls are, per language, the calls handing one literal command to the shell: perl
// and ruby's system("cmd") and backticks (perl's qx{cmd}, ruby's %x(cmd)), node's
// child_process exec and execSync. A string that interpolates ("$x", "#{x}", `${x}`) is not
// literal and stays unread.
var scriptShellCalls = map[string]*lazyre.RE{
	"perl": lazyre.New(`\b(?:system|exec)\s*\(?\s*(` + plainStr + `)\s*\)?|(` + "`[^`$@\\\\\n]*`" + `)|\bqx\s*(\{[^}$@\n]*\}|\([^)$@\n]*\))`),
	"ruby": lazyre.New(`\b(?:system|exec)\s*\(?\s*(` + plainStr + `)\s*\)?|(` + "`[^`#\\\\\n]*`" + `)|%x\s*(\([^)#\n]*\)|\{[^}#\n]*\})`),
	"js":   lazyre.New(`(?:require\(\s*['"](?:node:)?child_process['"]\s*\)\s*\.\s*)?\b(?:execSync|exec)\(\s*(` + plainStr + `)\s*[,)]`),
}

// plainStr is a quoted string without escapes or interpolation.
const plainStr = `"[^"$@#\\\n` + "`" + `]*"|'[^'\\\n]*'`

// scriptShellStrings judges the literal shell calls of a perl, ruby or node one-liner and
// returns the code without them, and whether any was found.
func (j *judge) scriptShellStrings(lang, name, src string) (string, bool) {
	re := scriptShellCalls[lang]
	if re == nil {
		return src, false
	}
	found := false
	rest := re.Get().ReplaceAllStringFunc(src, func(call string) string {
		m := re.FindStringSubmatch(call)
		for _, lit := range m[1:] {
			if len(lit) >= 2 {
				found = true
				j.payload(arg{s: lit[1 : len(lit)-1]}, name+" one-liner's shell call")
				break
			}
		}
		return "0"
	})
	return rest, found
}

// unquotePy reads one python or awk string literal: its one-letter escapes, octal \ooo and
// hex \xhh (system("rm\040-rf\040/") is rm -rf /).
func unquotePy(s string) string {
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if v, n := numericEscape(s[i+1:]); n > 0 {
			b.WriteByte(v)
			i += n
			continue
		}
		b.WriteString(ansiReplacer.Replace(s[i : i+2]))
		i++
	}
	return b.String()
}

// numericEscape reads the digits after a backslash: up to three octal digits, or x and up to
// two hex digits; n is how many bytes it read (0: none).
func numericEscape(s string) (v byte, n int) {
	if len(s) > 1 && s[0] == 'x' {
		for n = 1; n < 3 && n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0; n++ {
			v = v*16 + hexVal(s[n])
		}
		if n == 1 {
			return 0, 0
		}
		return v, n
	}
	for n < 3 && n < len(s) && s[n] >= '0' && s[n] <= '7' {
		v = v*8 + s[n] - '0'
		n++
	}
	return v, n
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// awkShell are awk's literal hand-overs: system("cmd"), "cmd" | getline, print ... | "cmd",
// print ... > "file" (and >>).
var (
	awkSystem  = lazyre.New(`\bsystem\s*\(\s*("(?:[^"\\\n]|\\.)*")\s*\)`)
	awkGetline = lazyre.New(`("(?:[^"\\\n]|\\.)*")\s*\|\s*getline\b`)
	awkPipeTo  = lazyre.New(`\|\s*("(?:[^"\\\n]|\\.)*")`)
	awkString  = lazyre.New(`"(?:[^"\\\n]|\\.)*"`)
	awkWriteTo = lazyre.New(`(\bprintf?\b[^;}|]*?)>>?\s*("(?:[^"\\\n]|\\.)*")`)
)

// awkShellStrings judges awk's literal hand-overs in prog and returns prog without them.
func (j *judge) awkShellStrings(prog string) string {
	handOver := func(re *lazyre.RE, keep func(m []string) string, do func(m []string)) {
		prog = re.Get().ReplaceAllStringFunc(prog, func(s string) string {
			m := re.FindStringSubmatch(s)
			if m == nil {
				return s
			}
			do(m)
			return keep(m)
		})
	}
	none := func([]string) string { return `""` }
	handOver(awkSystem, none, func(m []string) { j.payload(arg{s: unquotePy(m[1])}, "the awk program's system()") })
	handOver(awkGetline, func([]string) string { return "getline" }, func(m []string) {
		j.payload(arg{s: unquotePy(m[1])}, "the awk program's getline")
	})
	handOver(awkWriteTo, func(m []string) string { return m[1] }, func(m []string) {
		j.writePath(unquotePy(m[2]), "writing", false)
	})
	handOver(awkPipeTo, none, func(m []string) { j.payload(arg{s: unquotePy(m[1])}, "the awk program's print pipe") })
	return prog
}

// inPlaceEdits judges the files perl -i or ruby -i edit in place (the operands after the
// code) as writes: perl -pi -e 's/x/y/' .git/hooks/pre-commit writes a hook.
func (j *judge) inPlaceEdits(lang string, args []arg, i int, code arg) {
	if lang != "perl" && lang != "ruby" {
		return
	}
	inPlace := false
	for _, a := range args[:i+1] {
		if s := a.s; len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s[1:], 'i') {
			inPlace = true
		}
	}
	if !inPlace {
		return
	}
	start := i + 1 // the code stuck to its flag (-e'code'), or the next word
	if start < len(args) && args[start].s == code.s && args[start].w == code.w {
		start++
	}
	for _, a := range args[start:] {
		if !strings.HasPrefix(a.s, "-") || a.dyn {
			j.target(a, "editing", false)
		}
	}
}
