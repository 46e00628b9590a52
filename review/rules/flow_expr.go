package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review/lang"
)

// Reading an expression for the cross-line rules: which variables it uses (outside string
// literals, and those interpolated into one), which calls it makes, and which of those return
// a value that is safe whatever their arguments.

// stringEnd returns the offset just past the string literal that starts at i (the line's end
// if it is not closed on the line).
func stringEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

// exprParts reads an expression: the variables it uses (outside string literals, and those
// interpolated into one), and whether it calls anything not known to return a safe value.
// A member name (x.name) is not a variable of its own; a call's name is no variable; the
// arguments of a numeric conversion or an SQL escape (int(...), strconv.Atoi(...),
// mysqli_real_escape_string(...)) are not read.
func exprParts(k lang.Kind, s string) (vars []string, call bool) {
	return exprPartsWith(k, s, safeCall)
}

// exprPartsWith is exprParts with safe telling the calls whose value is safe.
func exprPartsWith(k lang.Kind, s string, safe func(chain string) bool) (vars []string, call bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := stringEnd(s, i)
			if interpolates(k, s, i) {
				v, cl := interpolated(k, s[i:j], safe)
				vars, call = append(vars, v...), call || cl
			}
			i = j
		case c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			var v string
			var cl bool
			v, cl, i = exprName(k, s, i, safe)
			if v != "" {
				vars = append(vars, v)
			}
			call = call || cl
		default:
			i++
		}
	}
	return vars, call
}

// exprName reads the name at i of an expression: the variable it is (if any), whether it is
// a call of unknown value, and where reading goes on (a safe call's arguments are skipped, any
// other call's are read).
func exprName(k lang.Kind, s string, i int, safe func(string) bool) (v string, call bool, next int) {
	if member(k, s, i) {
		return "", false, i + 1
	}
	name, chain, j := readChain(s, i)
	if k == lang.Python && j < len(s) && (s[j] == '"' || s[j] == '\'') && j-i <= 2 {
		return "", false, j // a string prefix: f"...", rb'...'
	}
	if p := skipSpace(s, j); p < len(s) && s[p] == '(' {
		if safe(chain) {
			return "", false, closeParen(s, p)
		}
		return "", !transparentCall(chain), p + 1
	}
	if keyword[name] || name == "$" {
		return "", false, j
	}
	return name, false, j
}

// member reports whether the name at i is a member (x.name, x->name, X::name) or the rest of
// a word; PHP's '.' joins strings, it names no member.
func member(k lang.Kind, s string, i int) bool {
	if i == 0 {
		return false
	}
	switch p := s[i-1]; {
	case isWord(p), p == ':':
		return true
	case p == '.':
		return k != lang.PHP
	case p == '>':
		return i > 1 && s[i-2] == '-'
	}
	return false
}

// readChain reads a name and its members (a.b->c::d) from i: the first name, the whole chain
// and where it ends. Indexing between members (a["x"].b) ends the chain.
func readChain(s string, i int) (name, chain string, end int) {
	j := i
	if s[j] == '$' {
		j++
	}
	for j < len(s) && isWord(s[j]) {
		j++
	}
	name = s[i:j]
	for {
		k := j
		switch {
		case k < len(s) && s[k] == '.':
			k++
		case k+1 < len(s) && (s[k:k+2] == "->" || s[k:k+2] == "::"):
			k += 2
		default:
			return name, s[i:j], j
		}
		m := k
		for m < len(s) && isWord(s[m]) {
			m++
		}
		if m == k {
			return name, s[i:j], j
		}
		j = m
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// closeParen returns the offset past the parenthesis that closes the one at i.
func closeParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '"', '\'', '`':
			j = stringEnd(s, j) - 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// interpolates reports whether the string literal at i puts values into its text: PHP and
// Ruby double quotes, JS template literals, Python f-strings.
func interpolates(k lang.Kind, s string, i int) bool {
	switch k {
	case lang.PHP, lang.Ruby:
		return s[i] == '"'
	case lang.JS:
		return s[i] == '`'
	case lang.Python:
		return prefixed(s, i, "fF", "rR")
	case lang.Java: // C# $"..." and $@"..."
		return s[i] == '"' && prefixed(s, i, "$", "@")
	}
	return false
}

// prefixed reports whether the string literal at i has a prefix of one of the letters of p,
// alone or before one of the letters of q (f"...", rf"...", $@"...").
func prefixed(s string, i int, p, q string) bool {
	if i > 0 && strings.IndexByte(p, s[i-1]) >= 0 {
		return true
	}
	return i > 1 && strings.IndexByte(q, s[i-1]) >= 0 && strings.IndexByte(p, s[i-2]) >= 0
}

// interpolated reads the values an interpolating string literal puts into its text.
func interpolated(k lang.Kind, lit string, safe func(string) bool) (vars []string, call bool) {
	for i := 1; i < len(lit)-1; i++ {
		if lit[i] == '\\' {
			i++
			continue
		}
		var inner string
		var end int
		switch {
		case k == lang.PHP && lit[i] == '$' && i+1 < len(lit) && (lit[i+1] == '_' || isLetter(lit[i+1])):
			end = i + 1
			for end < len(lit) && isWord(lit[end]) {
				end++
			}
			vars, i = append(vars, lit[i:end]), end-1
			continue
		case opensInterpolation(k, lit, i):
			inner, end = braced(k, lit, i)
		default:
			continue
		}
		if end < 0 {
			break
		}
		v, cl := exprPartsWith(k, inner, safe)
		vars, call, i = append(vars, v...), call || cl, end
	}
	return vars, call
}

// opensInterpolation reports whether an interpolation starts at lit[i]: Python {x} (not {{),
// PHP {$x}, JS ${x}, Ruby #{x}.
func opensInterpolation(k lang.Kind, lit string, i int) bool {
	if i+1 >= len(lit) {
		return false
	}
	c, d := lit[i], lit[i+1]
	switch k {
	case lang.Python, lang.Java:
		return c == '{' && d != '{' && (i == 0 || lit[i-1] != '{')
	case lang.PHP:
		return c == '{' && d == '$'
	case lang.JS:
		return c == '$' && d == '{'
	case lang.Ruby:
		return c == '#' && d == '{'
	}
	return false
}

// braced returns the expression of the interpolation that starts at lit[i] and the offset of
// its closing brace (-1 if it does not close).
func braced(k lang.Kind, lit string, i int) (string, int) {
	end := strings.IndexByte(lit[i:], '}')
	if end < 0 {
		return "", -1
	}
	inner := strings.TrimLeft(lit[i+1:i+end], "{")
	if k == lang.Python || k == lang.Java {
		if c := strings.IndexAny(inner, "!:,"); c >= 0 {
			inner = inner[:c] // {x!r}, {x:>10}, C# {x,8}
		}
	}
	return inner, i + end
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// keyword holds the words an expression may hold that are no variable.
var keyword = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true,
	"None": true, "True": true, "False": true, "null": true, "nil": true, "true": true, "false": true,
	"undefined": true, "new": true, "return": true, "await": true, "typeof": true, "instanceof": true,
	"as": true, "var": true, "let": true, "const": true, "lambda": true, "NULL": true,
}

// safeCall reports whether a call returns a value that cannot carry SQL or code of its own: a
// number, or a value escaped for SQL.
func safeCall(chain string) bool {
	name := chain
	if i := strings.LastIndexAny(chain, ".:>"); i >= 0 {
		name = chain[i+1:]
	}
	switch name {
	case "int", "float", "bool", "len", "Atoi", "Itoa", "ParseInt", "ParseUint", "ParseFloat", "ParseBool",
		"FormatInt", "parseInt", "parseFloat", "Number", "intval", "floatval", "parseLong", "parseDouble",
		"mysqli_real_escape_string", "mysql_real_escape_string", "real_escape_string", "escape_string",
		"pg_escape_string", "pg_escape_literal", "pg_escape_identifier", "quote", "quote_ident",
		"quote_literal", "escapeId", "escapeLiteral", "escapeIdentifier", "Identifier":
		return true
	case "valueOf":
		return strings.HasPrefix(chain, "Integer.") || strings.HasPrefix(chain, "Long.")
	case "Parse":
		return numericType[strings.TrimSuffix(chain, ".Parse")] || strings.HasPrefix(chain, "Int") || strings.HasPrefix(chain, "Guid.")
	}
	return false
}

// transparentCall reports whether a call's value is made of its arguments only: a conversion
// to text or a formatting call (str(x), fmt.Sprintf, String.format, sprintf).
func transparentCall(chain string) bool {
	switch chain {
	case "str", "String", "string", "String.valueOf", "strval", "fmt.Sprintf", "String.format", "Sprintf", "sprintf", "format":
		return true
	}
	return false
}
