package lang

import "strings"

// CodePart returns the part of a line that is code: it drops a whole-line comment and a
// trailing comment outside string literals, by the kind's syntax. Block comments are handled
// per line: a line that starts inside one ("*" or "/*") is treated as comment. A kind with no
// syntax (Other, prose) keeps the whole line.
func CodePart(k Kind, line string) string {
	syn := k.Syntax()
	t := strings.TrimSpace(line)
	if t == "" {
		return ""
	}
	if syn.Block && blockLine(t) {
		return ""
	}
	if (k == XML || k == Markdown) && strings.HasPrefix(t, "<!--") {
		return ""
	}
	if len(syn.Line) == 0 && !syn.Block {
		return line
	}
	return line[:codeEnd(line, syn, k.quotesStrings())]
}

// codeEnd returns where the first comment outside string literals starts (quotes: the kind's
// quotes delimit strings), or len(line).
func codeEnd(line string, syn Syntax, quotes bool) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			if quotes {
				quote = c
			}
		case commentAt(line, i, syn):
			return i
		}
	}
	return len(line)
}

// blockLine reports a trimmed line that starts inside a block comment.
func blockLine(t string) bool {
	if strings.HasPrefix(t, "/*") {
		return true
	}
	return strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "*/") && !strings.HasPrefix(t, "**=")
}

// commentAt reports a comment starting at byte i of line.
func commentAt(line string, i int, syn Syntax) bool {
	if syn.Block && strings.HasPrefix(line[i:], "/*") {
		return true
	}
	for _, tok := range syn.Line {
		if strings.HasPrefix(line[i:], tok) && markerOK(line, i, tok) {
			return true
		}
	}
	return false
}

// markerOK tells a comment marker from the same characters inside code: "#", ";", "!", "--",
// "%" and "'" must start the line or follow a space or tab (values like a#b, URLs#x); "//"
// must not be part of a URL.
func markerOK(s string, i int, tok string) bool {
	if tok == "//" {
		return i == 0 || s[i-1] != ':'
	}
	return i == 0 || s[i-1] == ' ' || s[i-1] == '\t'
}
