package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// flow reads a file's added lines in order, hunk by hunk, for the code rules one line cannot
// decide: SQL built on one line and run on a later one (code_sql.go), request data that reaches
// eval through a variable (code_eval.go), a pickle module imported under another name and a
// ruamel.yaml instance (code_deser.go), a PHP shell command of escaped values (code.go).
// Expressions are read by flow_expr.go.
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
		head := fl // a copy: taking fl's address moved every line's flowLine to the heap
		f.head = &head
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
func (f *flow) emit(rule *review.Rule, confidence float64, l flowLine, focus int, detail string, origins ...int) {
	sev, msg := placeSeverity(f.p, rule.Severity, rule.Description+detail)
	sev, msg = lowerFor(sev, msg, f.calm(rule, l, focus, origins))
	f.r.Add(review.Finding{
		RuleID: rule.ID, Severity: sev, Confidence: confidence, CWE: rule.CWE,
		Path: f.p, Line: l.n, EndLine: l.n, Message: msg + review.InCommit(f.u), Source: "builtin",
		Origins: origins,
	}.LineEvidence(l.text, focus))
}

// calm says why a cross-line finding is reported at low ("" keeps its severity): SQL whose
// joined values only name tables or columns (on the line, or where it was built), a
// pickle-family loader under another name with no outside data reaching it.
func (f *flow) calm(rule *review.Rule, l flowLine, focus int, origins []int) string {
	switch rule.ID {
	case sqlRunRule.ID:
		at := []int{f.lineIndex(l.n)}
		for _, o := range origins {
			if j := f.lineIndex(o); j >= 0 {
				at = append(at, j)
			}
		}
		for _, j := range at[min(len(at)-1, 1):] {
			code := l.code
			if j >= 0 {
				code = f.lines[j].code
			}
			if !f.sqlNamesOnly(code, j) {
				return ""
			}
		}
		return "only names, SQL fragments or numbers are joined into the SQL"
	case deserAliasRule.ID:
		if len(f.lines) == 0 || f.lines[len(f.lines)-1].n != l.n {
			return ""
		}
		return noInput(false)(f, f.k, l.code, []int{focus, focus})
	}
	return ""
}

// lineIndex is the index in the scope's lines of line number n, -1 if the scope does not hold it.
func (f *flow) lineIndex(n int) int {
	for j := len(f.lines) - 1; j >= 0; j-- {
		if f.lines[j].n == n {
			return j
		}
	}
	return -1
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
	return strings.HasPrefix(next, "->") // PHP: a method chain continued
}

// open reports whether s leaves a bracket or a triple-quoted string open.
func open(s string) bool {
	if strings.Count(s, `"""`)%2 == 1 || strings.Count(s, `'''`)%2 == 1 {
		return true
	}
	_, depth := walkBrackets(s, nil)
	return depth > 0
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
		if depth >= 2 {
			return false
		}
		if !a.plain() {
			if (a.op == "+=" || a.op == ".=") && f.safeExpr(f.joinRHS(j, a.rhs), j, depth+1) {
				continue // grown by a safe value: the value before decides
			}
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
	if comparison(s) || numericCast.MatchString(s) {
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

// numericCast is one term cast to a number: PHP's, Java's and C#'s (int) $x, (long) n.
var numericCast = lazyre.New(`^\s*\((?:int|integer|float|double|bool|boolean|long|short)\)\s*\$?[A-Za-z_]\w*(?:(?:->|::|\.)\w+|\[[^\]]*\])*\s*;?\s*$`)

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
