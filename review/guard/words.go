package guard

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Rendering one shell word as the shell sees it before running: quotes removed, escapes
// decoded, the parameters and substitutions tollgate knows filled in (resolve.go turns words
// into argv: braces, splitting, globs).

// words resolves a command's words into its argv (resolve.go): braces, field splitting,
// globs and the substitutions tollgate can know.
func (j *judge) words(ws []*syntax.Word) []arg {
	args := make([]arg, 0, len(ws))
	for _, w := range ws {
		if len(args) > maxArgv {
			return append(args, arg{s: "$(…)", dyn: true, opt: true, w: w}) // the rest is not read
		}
		args = append(args, j.fields(w)...)
	}
	return args
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
		s, known := j.param(p)
		*dyn = *dyn || !known
		b.WriteString(s)
	case *syntax.CmdSubst:
		if j.shallow || j.tick() {
			*dyn = true
			b.WriteString("$(…)")
			return
		}
		if text, ok := j.substitute(p); ok {
			b.WriteString(text) // $(echo --no-verify) is --no-verify, $(pwd) the working directory
			return
		}
		*dyn = true
		b.WriteString("$(…)")
	default:
		*dyn = true
		b.WriteString("$(…)")
	}
}

// param renders a parameter expansion: $HOME is kept for path resolution, the temp dir, PWD
// and variables assigned earlier in the call resolve; anything else is only known at run time
// (false).
func (j *judge) param(p *syntax.ParamExp) (string, bool) {
	name, simple := simpleParam(p)
	if !simple {
		if v, ok := j.tempDefault(p); ok {
			return v, true
		}
		return "$" + name, false
	}
	if v, ok := j.vars[name]; ok && (name == "HOME" || name == "TMPDIR" || name == "PWD") {
		return v, true // set earlier in this call
	}
	switch {
	case j.unknownVars[name]:
		return "$" + name, false // set earlier in this call to a value known only at run time
	case name == "HOME":
		return "$HOME", true
	case (name == "TMPDIR" || name == "TMP" || name == "TEMP") && len(j.o.Temp) > 0:
		return j.o.Temp[0], true
	case name == "PWD" && j.cwd != "":
		return j.cwd, true
	}
	if v, ok := j.vars[name]; ok {
		return v, true
	}
	if v, ok := j.cmdEnv[name]; ok && !strings.Contains(v, "$") {
		return v, true // the environment this shell was started with (FOO=x sh -c '$FOO')
	}
	if (name == "@" || name == "*") && j.params != nil {
		s, dyn := joinArgs(j.params)
		return s, !dyn
	}
	return "$" + name, false
}

// tempDefault resolves ${TMPDIR:-/tmp} (and ${TMPDIR-...}, TMP, TEMP) whose default is itself a
// temp dir: set or not, the word names a temp dir, the one tollgate was given first.
func (j *judge) tempDefault(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Exp == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || len(j.o.Temp) == 0 {
		return "", false
	}
	if name := p.Param.Value; name != "TMPDIR" && name != "TMP" && name != "TEMP" || j.unknownVars[name] {
		return "", false
	}
	if _, set := j.vars[p.Param.Value]; set || (p.Exp.Op != syntax.DefaultUnsetOrNull && p.Exp.Op != syntax.DefaultUnset) || p.Exp.Word == nil {
		return "", false
	}
	if d := j.word(p.Exp.Word); d.dyn || !j.tempRoot(filepath.Clean(d.s)) {
		return "", false
	}
	return j.o.Temp[0], true
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
