package guard

import (
	"path/filepath"
	"strings"
)

// A token can be written so that no rule's pattern sees it while it is whole to anyone who
// reads or runs the file: split into string literals joined by + (or PHP's .), or with a
// zero-width character inside. joinedVariant returns the text as it reads joined, keeping only
// the lines that change (the others empty, so line numbers stay), for a second scan.

// joinedVariant returns text with quoted literals joined across + and . (on one line, or a
// line ending in `" +` and the next starting with a quote) and invisible characters removed;
// ok is false when no line changes.
func joinedVariant(text string) (string, bool) {
	if !strings.ContainsAny(text, "\"'`") && isASCII(text) {
		return "", false
	}
	lines := strings.Split(text, "\n")
	out := make([]string, len(lines))
	changed := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		joined := stripZeroWidth(line)
		// a literal continued on the next line: "abc" +\n "def"
		for n := 0; n < 8 && i+1 < len(lines) && endsInJoin(joined); n++ {
			next := strings.TrimLeft(stripZeroWidth(lines[i+1]), " \t")
			if next == "" || !isQuote(next[0]) {
				break
			}
			joined = strings.TrimRight(joined, " \t") + " " + next
			i++
		}
		joined = joinLiterals(joined)
		if joined != line {
			out[i] = joined
			changed = true
		}
	}
	if !changed {
		return "", false
	}
	return strings.Join(out, "\n"), true
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// endsInJoin: the line ends with a quote followed by + or . (a literal continued below).
func endsInJoin(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	if t == "" || (t[len(t)-1] != '+' && t[len(t)-1] != '.') {
		return false
	}
	t = strings.TrimRight(t[:len(t)-1], " \t")
	return t != "" && isQuote(t[len(t)-1])
}

// joinLiterals removes `" + "` (any quotes, + or ., spaces around) between two literals, and
// the spaces between two adjacent literals of the same quote (Python's and C's implicit
// concatenation: "ghp_ab" "cd...").
func joinLiterals(line string) string {
	if !strings.ContainsAny(line, "+.\"'") {
		return line
	}
	var b strings.Builder
	from := 0 // line[from:i] is kept, not yet written (a line with nothing to drop is not copied)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !isQuote(c) {
			continue
		}
		k := i + 1
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k > i+1 && k+1 < len(line) && line[k] == c && c != '`' && isWordByte(line[k+1]) && i > 0 && isWordByte(line[i-1]) {
			b.WriteString(line[from:i])
			i, from = k, k+1 // "ab" "cd": drop closing quote, spaces and opening quote
			continue
		}
		if k < len(line) && (line[k] == '+' || line[k] == '.') {
			m := k + 1
			for m < len(line) && (line[m] == ' ' || line[m] == '\t') {
				m++
			}
			if m < len(line) && isQuote(line[m]) && m > k {
				b.WriteString(line[from:i])
				i, from = m, m+1 // drop closing quote, operator and opening quote
				continue
			}
		}
	}
	if from == 0 {
		return line
	}
	b.WriteString(line[from:])
	return b.String()
}

// zeroWidth are the characters that break a token without showing: zero-width space, joiners,
// word joiner, BOM, soft hyphen, Mongolian vowel separator, bidi controls.
func zeroWidth(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x2069, r == 0xFEFF, r == 0x00AD, r == 0x180E:
		return true
	}
	return false
}

func stripZeroWidth(s string) string {
	if isASCII(s) || strings.IndexFunc(s, zeroWidth) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if zeroWidth(r) {
			return -1
		}
		return r
	}, s)
}

// baseName is the last element of a slash path, invisible characters removed.
func baseName(p string) string {
	if p == "" || p == "." {
		return ""
	}
	return stripZeroWidth(filepath.Base(filepath.FromSlash(p)))
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
