package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// When SQL built from non-literal values is low (evidence.go states the rule): every value
// joined into the statement is one of
//   - a table or column name: it stands where SQL takes a name (after FROM, JOIN, INTO, UPDATE,
//     TABLE, AS, BY, a qualifier's dot, FROM's subquery parenthesis);
//   - an SQL fragment or a quoted identifier: a value named for SQL text ($sql, $where,
//     $selectSql, $columns) or made by a call that quotes names or compiles SQL ($this->wrap(...),
//     columnize, parameterize, compileSelect), directly or through a variable assigned so in
//     the scope's added lines (a query builder's grammar composing its statement);
//   - a number (a numeric conversion or cast);
//
// and no request, command-line or network data is in sight. A name taken from a parameter of
// the function keeps the finding unless the statement binds its values (a placeholder) or
// composes fragments: 'SELECT * FROM {}'.format(user_input) is not internal. A value in a
// value's place (WHERE name = ' + name, IN ( + ids) keeps it.

// sqlJoined is one value joined into SQL text: the SQL text before it (the literals' contents
// so far) and its expression ("" when a format's argument could not be matched to it).
type sqlJoined struct {
	before, expr string
}

// sqlJoins reads the SQL statement on a line: from its first string literal that holds SQL,
// the values joined into it by concatenation (+, PHP's .), interpolation ({x}, ${x}, #{x},
// PHP's $x) and formatting (%s, {} filled by .format(...), % (...), Sprintf's arguments), up to
// the end of the statement (a ; , or closing bracket at its own depth, PHP's =>).
func sqlJoins(k lang.Kind, code string) []sqlJoined {
	start := firstSQLLiteral(code)
	if start < 0 {
		return nil
	}
	sc := sqlScan{k: k, code: code, open: -1, formatCall: formatsBefore.MatchString(code[:start])}
	depth := 0
	for i := start; i < len(code); {
		c := code[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = sc.literal(i)
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return sc.out
			}
			i++
		case depth != 0:
			i++
		case c == ';' || strings.HasPrefix(code[i:], "=>") || c == ',' && !sc.formatCall:
			return sc.out
		default:
			i = sc.operator(i)
		}
	}
	return sc.out
}

// sqlScan is sqlJoins' state: the values read so far, the SQL text so far and the first
// format slot whose argument is not read yet (-1: none).
type sqlScan struct {
	k          lang.Kind
	code       string
	out        []sqlJoined
	text       strings.Builder
	open       int
	formatCall bool // the SQL literal is a formatting call's first argument
}

// literal reads the string literal at i and returns the offset past it.
func (sc *sqlScan) literal(i int) int {
	j := stringEnd(sc.code, i)
	n := len(sc.out)
	sc.out = litJoins(sc.k, sc.code, i, j, &sc.text, sc.out)
	if sc.open < 0 && len(sc.out) > n && sc.out[n].expr == "" {
		sc.open = n
	}
	return j
}

// operator reads what follows an operator at depth 0 at i (a joined operand, a format's
// arguments) and returns where reading goes on.
func (sc *sqlScan) operator(i int) int {
	code, c := sc.code, sc.code[i]
	switch {
	case c == ',': // a formatting call's next argument
		s := skipSpace(code, i+1)
		e := readTerm(sc.k, code, s)
		sc.fill(code[s:e])
		return max(e, i+1)
	case c == '+' || sc.k == lang.PHP && c == '.' && !strings.HasPrefix(code[i:], "..."):
		s := skipSpace(code, i+1)
		if s < len(code) && (code[s] == '"' || code[s] == '\'' || code[s] == '`') {
			return s
		}
		e := readTerm(sc.k, code, s)
		if e > s {
			sc.out = append(sc.out, sqlJoined{before: sc.text.String(), expr: strings.TrimSpace(code[s:e])})
		}
		return max(e, s+1)
	case strings.HasPrefix(code[i:], ".format("):
		return sc.args(i + len(".format"))
	case c == '%' && sc.k == lang.Python:
		s := skipSpace(code, i+1)
		if s < len(code) && code[s] == '(' {
			return sc.args(s)
		}
		e := readTerm(sc.k, code, s)
		sc.fill(code[s:e])
		return max(e, s+1)
	}
	return i + 1
}

// args fills the format slots with the arguments of the parenthesis at p and returns the
// offset past it.
func (sc *sqlScan) args(p int) int {
	end := closeParen(sc.code, p)
	for _, a := range splitArgs(sc.code[p+1 : max(p+1, end-1)]) {
		sc.fill(a)
	}
	return end
}

// fill gives the first open format slot its argument a.
func (sc *sqlScan) fill(a string) { sc.open = fillSlot(sc.out, sc.open, a) }

// firstSQLLiteral is the offset of the line's first string literal that holds SQL words (or
// its first literal when none does: a fragment's text), -1 if it has none.
func firstSQLLiteral(code string) int {
	first := -1
	for i := 0; i < len(code); i++ {
		if c := code[i]; c == '"' || c == '\'' || c == '`' {
			j := stringEnd(code, i)
			if sqlWords.MatchString(code[i:j]) {
				return i
			}
			if first < 0 {
				first = i
			}
			i = j - 1
		}
	}
	return first
}

var sqlWords = lazyre.New(`(?i)\b(?:select|insert|update|delete|from|where|into|values|having)\b`)

// formatsBefore is a formatting call whose first argument is the SQL literal: its other
// arguments fill the literal's verbs.
var formatsBefore = lazyre.New(`(?:Sprintf|sprintf|String\.format|printf|format)\s*\(\s*[fFrRbBuU$@]{0,2}$`)

// litJoins appends the values a string literal (code[i:j]) joins into the SQL: its
// interpolations, and a slot ("" expression) for each format verb; text grows by the
// literal's own characters.
func litJoins(k lang.Kind, code string, i, j int, text *strings.Builder, out []sqlJoined) []sqlJoined {
	lit := code[i:j]
	inner := lit[1:max(1, len(lit)-1)]
	if interpolates(k, code, i) {
		return interpolatedJoins(k, inner, text, out)
	}
	for p := 0; p < len(inner); p++ {
		c := inner[p]
		if c == '%' && p+1 < len(inner) {
			switch inner[p+1] {
			case 's', 'v', 'q', 'r':
				out = append(out, sqlJoined{before: text.String()})
				p++
				continue
			case 'd', 'i', 'f':
				out = append(out, sqlJoined{before: text.String(), expr: "0"}) // a number
				p++
				continue
			case '%':
				p++
			}
		}
		if k == lang.Python && c == '{' && p+1 < len(inner) && inner[p+1] != '{' {
			if e := strings.IndexByte(inner[p:], '}'); e > 0 {
				out = append(out, sqlJoined{before: text.String()})
				p += e
				continue
			}
		}
		text.WriteByte(c)
	}
	return out
}

// interpolatedJoins appends the values an interpolating literal's text (inner, without its
// quotes) puts into the SQL.
func interpolatedJoins(k lang.Kind, inner string, text *strings.Builder, out []sqlJoined) []sqlJoined {
	quoted := "\"" + inner + "\""
	for p := 0; p < len(inner); p++ {
		c := inner[p]
		switch {
		case c == '\\':
			p++
			continue
		case k == lang.PHP && c == '$' && p+1 < len(inner) && (inner[p+1] == '_' || isLetter(inner[p+1])):
			e := phpVarEnd(inner, p+1)
			out = append(out, sqlJoined{before: text.String(), expr: inner[p:e]})
			p = e - 1
			continue
		case opensInterpolation(k, quoted, p+1):
			expr, end := braced(k, quoted, p+1)
			if end < 0 {
				return out
			}
			expr = strings.TrimSpace(expr)
			if k != lang.PHP {
				expr = strings.TrimPrefix(expr, "$") // JS ${x}: x; PHP {$x}: keep $x
			}
			out = append(out, sqlJoined{before: text.String(), expr: expr})
			p = end - 1
			continue
		}
		text.WriteByte(c)
	}
	return out
}

// phpVarEnd returns the end of the PHP variable (and its ->members) whose name starts at e
// in an interpolating string ("$table->name").
func phpVarEnd(s string, e int) int {
	for e < len(s) {
		switch {
		case isWord(s[e]):
			e++
		case strings.HasPrefix(s[e:], "->") && e+2 < len(s) && isLetter(s[e+2]):
			e += 2
		default:
			return e
		}
	}
	return e
}

// fillSlot gives the format slot at open (if any) its argument a, and returns the next slot
// still open (-1 if none).
func fillSlot(out []sqlJoined, open int, a string) int {
	if open < 0 || open >= len(out) {
		return -1
	}
	if out[open].expr == "" {
		out[open].expr = strings.TrimSpace(a)
	}
	for n := open + 1; n < len(out); n++ {
		if out[n].expr == "" {
			return n
		}
	}
	return -1
}

// splitArgs splits a call's argument text at its commas of depth 0.
func splitArgs(s string) []string {
	var args []string
	for {
		end, _ := walkBrackets(s, func(c byte, depth int) bool { return depth == 0 && c == ',' })
		if a := strings.TrimSpace(s[:end]); a != "" {
			args = append(args, a)
		}
		if end >= len(s) {
			return args
		}
		s = s[end+1:]
	}
}

// readTerm returns where the operand that starts at i ends: at a joining operator, comma,
// semicolon or closing bracket of its own depth, or a string literal that follows it.
func readTerm(k lang.Kind, code string, i int) int {
	end, _ := walkBrackets(code[i:], func(c byte, depth int) bool {
		if depth != 0 {
			return false
		}
		switch c {
		case ',', ';', ')', ']', '}', '+', '?', '"', '\'', '`':
			return true
		case '.':
			return k == lang.PHP
		}
		return false
	})
	return i + end
}

// identPlace is SQL text that ends where a table or column name (or FROM's subquery) goes.
var identPlace = lazyre.New(`(?i)(?:\b(?:from|join|into|update|table|exists|only|as|by)|[}\w*]\.|\bfrom\s*\()\s*["'` + "`" + `\[]?$`)

// fragmentName is the name of a variable (or member) that holds SQL text: $sql, $selectSql,
// $where, $wheres, $whereClause, $columns, $joins, $subquery.
var fragmentName = lazyre.New(`(?i)^\$?(?:\w*sql|where(?:s|_?clause|_?sql)?|clauses?|sub_?query|sub_?select|columns|cols|joins)$`)

// fragmentCall is the name of a call that quotes identifiers or compiles SQL: a query
// builder's $this->wrap(...), wrapTable, columnize, parameterize, compileSelect, quote_ident.
var fragmentCall = lazyre.New(`(?i)^(?:wrap\w*|compile\w*|columni[sz]e|parameteri[sz]e|placeholders?|quote_?(?:ident\w*|name|column|table)|escape_?(?:ident\w*|name|column|table))$`)

// callName finds a call's name in code: a name followed by its parenthesis (1: the name).
var callName = lazyre.New(`([A-Za-z_]\w*)\s*\(`)

// fragment reports an expression named for SQL text or a quoted identifier: a variable or
// member spelled like one (fragmentName), or a call that makes one (fragmentCall).
func fragment(e string) bool {
	code := codeNames(e)
	for _, m := range callName.FindAllStringSubmatch(code, 8) {
		if fragmentCall.MatchString(m[1]) {
			return true
		}
	}
	t := strings.TrimSpace(code)
	if t == "" || strings.ContainsAny(t, "( +") {
		return false
	}
	if i := strings.LastIndexAny(t, ">.:"); i >= 0 {
		t = t[i+1:] // $this->sql, $query->wheres
	}
	return fragmentName.MatchString(t)
}

// sqlNamesOnly reports SQL text on line i of the scope (code its code part) whose every joined
// value is a name, an SQL fragment or a number, as the comment at the top of this file says.
func (f *flow) sqlNamesOnly(code string, i int) bool {
	if outsideInput.MatchString(code) {
		return false
	}
	f.budget = flowBudget
	return f.sqlComposed(code, i, 0)
}

// sqlComposed is sqlNamesOnly without the outside-data check, depth counting the variables
// followed.
func (f *flow) sqlComposed(code string, i, depth int) bool {
	js := sqlJoins(f.k, code)
	if len(js) == 0 {
		return false
	}
	composed := false
	var names []string
	for _, j := range js {
		if f.outsideReaches(j.expr, i) {
			return false
		}
		switch {
		case j.expr != "" && f.sqlPart(j.expr, i, depth):
			composed = true
		case identPlace.MatchString(strings.TrimRight(j.before, " \t")):
			names = append(names, j.expr)
		case j.expr != "" && f.safeExpr(j.expr, i, 0):
		default:
			return false
		}
	}
	if composed || boundParam.MatchString(code) {
		return true
	}
	for _, n := range names {
		vars, _ := exprParts(f.k, n)
		if n == "" {
			vars, _ = exprParts(f.k, code)
		}
		for _, v := range vars {
			if f.param(v) {
				return false
			}
		}
	}
	return true
}

// outsideReaches reports whether expression e, used on line i, holds a variable the scope's
// added lines assign request, command-line or network data (where = request.args.get("q")).
func (f *flow) outsideReaches(e string, i int) bool {
	if e == "" || i < 0 {
		return false
	}
	vars, _ := exprParts(f.k, e)
	for vi, v := range vars {
		if vi >= 4 {
			break
		}
		if _, ok := f.taintedBy(v, i, 0, outsideInput); ok || f.everAssigned(v, i, outsideInput) {
			return true
		}
	}
	return false
}

// sqlPart reports whether expression e (used on line i) is an SQL fragment or a quoted
// identifier: named for one, or a variable last assigned one in the scope's added lines (its
// growth, .= and +=, included).
func (f *flow) sqlPart(e string, i, depth int) bool {
	if fragment(e) {
		return true
	}
	name, chain, end := readChain(e, 0)
	if name == "" || chain != name || strings.TrimSpace(e[end:]) != "" || depth >= 2 {
		return false
	}
	for j, a := range f.assignsBefore(name, i) {
		rhs := strings.TrimRight(strings.TrimSpace(f.joinRHS(j, a.rhs)), ";")
		ok := fragment(rhs) || f.sqlComposed(rhs, j, depth+1)
		if !ok || a.plain() {
			return ok
		}
	}
	return false
}

// codeNames is the code of expression e outside its string literals.
func codeNames(e string) string {
	if !strings.ContainsAny(e, "\"'`") {
		return e
	}
	var b strings.Builder
	for i := 0; i < len(e); i++ {
		if c := e[i]; c == '"' || c == '\'' || c == '`' {
			i = stringEnd(e, i) - 1
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(e[i])
	}
	return b.String()
}
