package guard

import (
	"encoding/base64"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell commands that write text into a file by other means than cat/tee/echo/printf: what
// lands in the file is scanned as a file tool's content (content.go), not the command's words.

// sedWrites scans the text an in-place sed writes: the replacement of each s command and the
// text of a, i and c commands (a token in the pattern, being removed, is no objection).
// ops are sed's operands: the script first when script is true (no -e gave it), then files.
func (j *judge) sedWrites(opts []string, ops []arg, script bool) {
	if j.remote > 0 {
		return
	}
	var scripts []string
	for i, o := range opts {
		switch {
		case (o == "-e" || o == "--expression") && i+1 < len(opts):
			scripts = append(scripts, strings.TrimPrefix(opts[i+1], "=")) // operands marks a value with =
		case strings.HasPrefix(o, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(o, "--expression="))
		}
	}
	files := ops
	if script && len(ops) > 0 {
		if !ops[0].dyn {
			scripts = append(scripts, ops[0].s)
		}
		files = ops[1:]
	}
	var text []string
	for _, s := range scripts {
		text = append(text, sedInserted(s)...)
	}
	var targets []string
	for _, f := range files {
		if !f.dyn {
			targets = append(targets, f.s)
		}
	}
	if len(text) > 0 && len(targets) > 0 {
		j.writtenText(strings.Join(text, "\n"), targets)
	}
}

// sedInserted returns the text a sed script puts into the file: s replacements (any
// delimiter, escapes kept as written) and the text of a\, i\ and c\ commands.
func sedInserted(script string) []string {
	var out []string
	for k := 0; k < len(script); k++ {
		c := script[k]
		switch {
		case c == 's' && k+1 < len(script) && script[k+1] != '\n' && script[k+1] != '\\' && (k == 0 || strings.ContainsRune(";{} \t\n0123456789$/!", rune(script[k-1]))):
			d := script[k+1]
			parts, end := sedSplit(script, k+2, d, 2)
			if len(parts) == 2 {
				out = append(out, parts[1])
			}
			k = end
		case (c == 'a' || c == 'i' || c == 'c') && (k == 0 || strings.ContainsRune(";{} \t\n0123456789$!/", rune(script[k-1]))) && k+1 < len(script) && (script[k+1] == '\\' || script[k+1] == ' '):
			rest := strings.TrimLeft(script[k+1:], "\\ \n")
			if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[:nl]
			}
			out = append(out, rest)
			return out
		}
	}
	return out
}

// sedSplit reads n fields delimited by d from i (a backslash escapes the delimiter) and returns
// them and the index of the last delimiter.
func sedSplit(s string, i int, d byte, n int) ([]string, int) {
	var parts []string
	var b strings.Builder
	for ; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] != d {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i+1])
			i++
		case s[i] == d:
			parts = append(parts, b.String())
			b.Reset()
			if len(parts) == n {
				return parts, i
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return parts, i
}

// decodedWrite scans what `echo <base64> | base64 -d > f` (or base64 -d <<< ...) writes: the
// decoded text, when the encoded text is literal.
func (j *judge) decodedWrite(st *syntax.Stmt, stdin map[*syntax.CallExpr]*stdinSrc) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || j.remote > 0 {
		return
	}
	name, rest := unwrap(j.words(ce.Args))
	if name != "base64" && name != "gbase64" && name != "openssl" {
		return
	}
	decode := false
	for _, a := range rest {
		decode = decode || a.s == "-d" || a.s == "--decode" || a.s == "-D" || (name == "openssl" && a.s == "-d")
	}
	src := stdin[ce]
	if !decode || src == nil || !src.literal {
		return
	}
	_, targets := j.heredocWrites(st.Redirs)
	if len(targets) == 0 {
		return
	}
	enc := strings.Join(strings.Fields(src.text), "")
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if dec, err := e.DecodeString(enc); err == nil {
			j.writtenText(string(dec), targets)
			return
		}
	}
}
