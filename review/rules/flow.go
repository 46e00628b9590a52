package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// flow reads a file's added lines in order, hunk by hunk, for the code rules one line cannot
// decide: SQL built on one line and run on a later one (code_sql.go), request data that reaches
// eval through a variable (code_eval.go), a pickle module imported under another name and a
// ruamel.yaml instance (code_deser.go).
//
// It keeps the added lines of the current scope (from the last function head: def, func,
// function, a Java/PHP method, at most flowKeep lines) and looks back through them only when a
// line needs it (a sink, an SQL string); most lines cost one append. A hunk's end or a new
// scope forgets the lines (module aliases stay for the file). What it decides is deterministic
// and never reaches past the change: a value assigned outside the added lines is unknown.
type flow struct {
	u *diff.Unit
	p string
	k lang.Kind
	r *review.Result

	lines   []flowLine // the current scope's added lines, its head first when it has one
	head    *flowLine  // the scope's head (the def/func line), nil if none was added
	deco    []flowLine // the decorators just above the head (Python: @app.route)
	pending []sqlPending

	mods     map[string]string // Python names bound to an unsafe loader module or function (code_deser.go)
	ruamel   map[string]bool   // Python names bound to a ruamel.yaml YAML() instance (code_deser.go)
	openSink int               // line number of an SQL sink whose arguments start on the next line
	budget   int               // lines the current line may still look back through
	callSafe func(string) bool // the calls whose value is safe for the question asked (nil: safeCall, SQL)
}

// flowLine is one added line of the scope.
type flowLine struct {
	n    int    // new-file line number
	text string // the whole line
	code string // its code part (comments stripped)
}

// flowKeep bounds the lines looked back through: a longer scope keeps its last flowKeep/2.
// flowBudget bounds the lines one line's questions may look back through in all (following
// variables through variables): past it, a value is unknown (no finding, none dropped).
const (
	flowKeep   = 512
	flowBudget = flowKeep
)

// spend takes one line from the current line's look-back budget; false once it is spent.
func (f *flow) spend() bool {
	f.budget--
	return f.budget >= 0
}

// newFlow returns the cross-line reader for a file of kind k, nil for kinds it does not read.
func newFlow(u *diff.Unit, p string, k lang.Kind, r *review.Result) *flow {
	switch k {
	case lang.Go, lang.Python, lang.JS, lang.Java, lang.PHP, lang.Ruby:
		return &flow{u: u, p: p, k: k, r: r}
	}
	return nil
}

// hunk starts a new hunk: what the last one said about its variables no longer holds.
func (f *flow) hunk() {
	f.flush()
	f.lines, f.head, f.deco, f.openSink = f.lines[:0], nil, nil, 0
}

// done ends the file.
func (f *flow) done() { f.flush() }

// add reads one added line (code is its code part) and runs the cross-line rules on it.
func (f *flow) add(l diff.Line, code string) {
	fl := flowLine{n: l.New, text: l.Text, code: code}
	if scopeHead(code) {
		f.flush()
		f.deco = f.deco[:0]
		for i := len(f.lines) - 1; i >= 0 && strings.HasPrefix(strings.TrimSpace(f.lines[i].code), "@"); i-- {
			f.deco = append(f.deco, f.lines[i])
		}
		f.lines = f.lines[:0]
		f.head = &fl
	} else if len(f.lines) >= flowKeep {
		keep := f.lines[len(f.lines)-flowKeep/2:]
		f.flushBefore(keep[0].n)
		f.lines = append(f.lines[:0], keep...)
	}
	f.lines = append(f.lines, fl)
	f.budget = flowBudget
	i := len(f.lines) - 1
	if f.k == lang.Python {
		f.deser(i)
	}
	if f.sql(i) {
		return
	}
	f.eval(i)
}

// emit reports a finding of rule on line l, the match at byte focus of its text.
func (f *flow) emit(rule *review.Rule, confidence float64, l flowLine, focus int, detail string) {
	sev, msg := testSeverity(f.p, rule.Severity, rule.Description+detail)
	f.r.Add(review.Finding{
		RuleID: rule.ID, Severity: sev, Confidence: confidence, CWE: rule.CWE,
		Path: f.p, Line: l.n, EndLine: l.n, Message: msg + review.InCommit(f.u), Source: "builtin",
	}.LineEvidence(l.text, focus))
}

// scopeHead reports whether a line starts a function (or a class): what a variable meant
// before it is forgotten.
func scopeHead(code string) bool {
	t := strings.TrimLeft(code, " \t")
	for _, p := range scopeWords {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

var scopeWords = []string{"def ", "async def ", "func ", "function ", "async function ", "public ",
	"private ", "protected ", "static ", "class ", "fn "}

// assignment is one assignment statement: its targets, operator and right-hand side.
type assignment struct {
	lhs     string // the left side as written (String sql, int id)
	targets []string
	op      string // "=", ":=", "+=", ".=", "||=", "<<="
	rhs     string
	rhsAt   int // byte offset of rhs in the line
}

func (a assignment) has(name string) bool {
	for _, t := range a.targets {
		if t == name {
			return true
		}
	}
	return false
}

// plain reports whether the assignment replaces the value (not += and the like).
func (a assignment) plain() bool { return a.op == "=" || a.op == ":=" }

// parseAssign splits code into an assignment when it is one: a left side of names (with
// declarations and types: `String sql`, `let q`, `query: str`, `id, _`) and an operator at
// bracket depth 0, outside strings.
func parseAssign(code string) (assignment, bool) {
	at, op := assignOp(code)
	if at < 0 || !declaration(code[:at]) {
		return assignment{}, false
	}
	targets := targetsOf(code[:at])
	if len(targets) == 0 {
		return assignment{}, false
	}
	return assignment{lhs: code[:at], targets: targets, op: op, rhs: code[at+len(op):], rhsAt: at + len(op)}, true
}

// declaration reports whether lhs holds nothing but names, types and separators: no call, no
// string, no operator of an expression.
func declaration(lhs string) bool {
	for i := 0; i < len(lhs); i++ {
		if c := lhs[i]; !isWord(c) && strings.IndexByte("$. \t,<>[]:?*&|", c) < 0 {
			return false
		}
	}
	return true
}

// targetsOf returns the names a declaration assigns: the last word of each comma-separated
// part (String sql, let q, id, _), without a Python annotation (query: str) or generics.
func targetsOf(lhs string) []string {
	if i := strings.IndexByte(lhs, ':'); i >= 0 {
		lhs = lhs[:i]
	}
	var targets []string
	for _, part := range strings.Split(stripGenerics(lhs), ",") {
		if fields := strings.Fields(part); len(fields) > 0 {
			targets = append(targets, fields[len(fields)-1])
		}
	}
	return targets
}

// assignOp finds an assignment operator at depth 0 outside strings: its offset and spelling.
func assignOp(code string) (int, string) {
	depth := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch c {
		case '"', '\'', '`':
			return -1, "" // a string before any operator: no assignment statement
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '=':
			if depth != 0 || (i+1 < len(code) && (code[i+1] == '=' || code[i+1] == '>' || code[i+1] == '~')) {
				return -1, ""
			}
			return opBefore(code, i)
		}
	}
	return -1, ""
}

// opBefore spells the assignment operator whose '=' is at i.
func opBefore(code string, i int) (int, string) {
	if i == 0 {
		return -1, ""
	}
	switch code[i-1] {
	case ':', '+', '.':
		return i - 1, code[i-1 : i+1]
	case '|', '<':
		if i >= 2 && code[i-2] == code[i-1] {
			return i - 2, code[i-2 : i+1]
		}
		return -1, "" // <= and |= are no string assignment
	case '!', '>', '=', '-', '*', '/', '%', '&', '^':
		return -1, ""
	}
	return i, "="
}

// stripGenerics removes <...> from a declaration (Map<String, Object> rows).
func stripGenerics(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
			if depth == 0 {
				b.WriteByte(' ')
			}
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// joinRHS is an assignment's right side with the lines that continue its statement (an open
// bracket or string, a trailing operator, a next line starting with one), at most 8.
func (f *flow) joinRHS(i int, rhs string) string {
	s := rhs
	for j := i + 1; j < len(f.lines) && j <= i+8; j++ {
		next := strings.TrimSpace(f.lines[j].code)
		if !continues(s, next) {
			break
		}
		s += " " + next
	}
	return s
}

// continues reports whether next continues the statement so far.
func continues(s, next string) bool {
	if next == "" {
		return false
	}
	if open(s) {
		return true
	}
	t := strings.TrimRight(s, " \t")
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case '+', '.', ',', '(', '\\', '%', '|', '&', '[', '{':
		return true
	}
	switch next[0] {
	case '+', '.', '%', '|':
		return !strings.HasPrefix(next, "...")
	}
	return false
}

// open reports whether s leaves a bracket or a triple-quoted string open.
func open(s string) bool {
	if strings.Count(s, `"""`)%2 == 1 || strings.Count(s, `'''`)%2 == 1 {
		return true
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'', '`':
			i = stringEnd(s, i) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return depth > 0
}

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

// allCaps reports whether a name is spelled like a constant (TABLE, MAX_ROWS).
// A PHP variable ($_GET) is never a constant.
func allCaps(name string) bool {
	if strings.HasPrefix(name, "$") {
		return false
	}
	upper := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' {
			return false
		}
		upper = upper || c >= 'A' && c <= 'Z'
	}
	return upper && len(name) > 1
}

// safeVar reports whether a variable holds a value that cannot carry SQL or code when line i
// uses it: a constant's name, a parameter declared numeric in the scope's head, or a last
// assignment (before i, in the scope) of a literal, a number or an escaped value.
func (f *flow) safeVar(name string, i, depth int) bool {
	if keyword[name] || allCaps(name) || f.numericParam(name) {
		return true
	}
	for j := i - 1; j >= 0 && f.spend(); j-- {
		code := f.lines[j].code
		if !strings.Contains(code, name) {
			continue
		}
		a, ok := parseAssign(code)
		if !ok || !a.has(name) {
			if mutated(code, name) {
				return false // clauses.append(...) after clauses = []: its value is unknown
			}
			continue
		}
		if len(a.targets) == 1 && numericType[lastWord(strings.TrimSuffix(strings.TrimSpace(a.lhs), name))] {
			return true // int id = ...: a number whatever the right side
		}
		if !a.plain() || depth >= 2 {
			return false
		}
		return f.safeExpr(f.joinRHS(j, a.rhs), j, depth+1)
	}
	return false
}

// mutated reports whether a line may change the value of variable name in place: a method
// called on it, an element set, an append (name.append(x), name[k] = v, name << x).
func mutated(code, name string) bool {
	for off := 0; ; {
		i := strings.Index(code[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		off = end
		if i > 0 && (isWord(code[i-1]) || code[i-1] == '.') || end < len(code) && isWord(code[end]) {
			continue
		}
		rest := strings.TrimLeft(code[end:], " \t")
		if strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "<<") || strings.HasPrefix(rest, "->") {
			return true
		}
	}
}

// safeExpr reports whether an expression used at line i calls nothing unknown and uses only
// safe variables.
func (f *flow) safeExpr(s string, i, depth int) bool {
	if comparison(s) {
		return true
	}
	safe := f.callSafe
	if safe == nil {
		safe = safeCall
	}
	vars, call := exprPartsWith(f.k, s, safe)
	if call {
		return false
	}
	for _, v := range vars {
		if !f.safeVar(v, i, depth) {
			return false
		}
	}
	return true
}

// comparison reports whether s is one parenthesised comparison, a boolean: (id != 3).
func comparison(s string) bool {
	t := strings.TrimRight(strings.TrimSpace(s), ";")
	if len(t) < 2 || t[0] != '(' || closeParen(t, 0) != len(t) {
		return false
	}
	return strings.Contains(t, "==") || strings.Contains(t, "!=") || strings.Contains(t, "<=") || strings.Contains(t, ">=")
}

// numericParam reports whether the scope's head declares name with a numeric or boolean type
// (Go `id int`, Java `int id`, Python `id: int`).
func (f *flow) numericParam(name string) bool {
	if f.head == nil {
		return false
	}
	h := f.head.code
	for off := 0; ; {
		i := strings.Index(h[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		off = end
		if i > 0 && isWord(h[i-1]) || end < len(h) && isWord(h[end]) {
			continue
		}
		if numericType[lastWord(h[:i])] || numericType[firstWord(strings.TrimLeft(h[end:], " :"))] {
			return true
		}
	}
}

var numericType = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "long": true, "Long": true, "Integer": true, "short": true,
	"float": true, "float32": true, "float64": true, "double": true, "bool": true, "boolean": true,
	"decimal": true, "Int32": true, "Int64": true,
}

func lastWord(s string) string {
	s = strings.TrimRight(s, " \t")
	j := len(s)
	for j > 0 && isWord(s[j-1]) {
		j--
	}
	return s[j:]
}

func firstWord(s string) string {
	j := 0
	for j < len(s) && isWord(s[j]) {
		j++
	}
	return s[:j]
}

// hasWord reports whether name occurs in s as a whole word.
func hasWord(s, name string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isWord(s[i-1]) && s[i-1] != '.') && (end == len(s) || !isWord(s[end])) {
			return true
		}
		off = end
	}
}
