package rules

import (
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// SQL built from non-literal values (tollgate/sql-concatenation). A line that builds SQL text
// by concatenation, formatting or interpolation is a finding, unless every value it joins is
// known safe from the lines above it (a literal, a constant's name, a number, an escaped
// value, a parameter declared numeric). When the line assigns the SQL to a variable and a later
// added line of the scope runs that variable (execute, query, exec, raw, createQuery, ...),
// the one finding is reported where it runs; so is SQL text started in a variable and grown
// with a non-literal value (+=, .=, <<, append, concat, WriteString, a continued statement).

// sqlVerb starts a SQL statement (or a JPQL/HQL one: from Entity where); sqlJoin glues
// non-literal text to it.
const (
	sqlVerb = `(?:select\s.+\sfrom|select\s+from\s+\w+\s+where|insert\s+into|update\s+\w+\s+set|delete\s+from|from\s+\w+(?:\s+\w+)?\s+where)\b`
	sqlJoin = `(?:\+\s*[\w(]|%\s*[\w(]|\.\s*format\s*\(|\.\s*\$|\.\s*concat\s*\(\s*[\w$(]|<<\s*[\w$@(])`
)

var sqlRules = []lineRule{
	{
		Rule: review.Rule{ID: "tollgate/sql-concatenation", Severity: policy.High, CWE: []string{"CWE-89"},
			Description: "SQL is built by string concatenation or formatting, not parameters",
			Catches:     example("users.py", `cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")`),
			Leaves:      example("users.py", `cursor.execute("SELECT * FROM users WHERE name = %s", (name,))`)},
		kinds:   []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.PHP, lang.Ruby},
		anyFold: []string{"select", "insert", "update", "delete", "where"},
		re: lazyre.New(`(?i)(?:` +
			// "SELECT ... " + var  |  'SELECT ...' % var  |  "...".format(  |  f"SELECT ... {x}"
			`"\s*` + sqlVerb + `[^"]*"\s*` + sqlJoin + `|'\s*` + sqlVerb + `[^']*'\s*` + sqlJoin +
			`|\bf"` + sqlVerb + `[^"]*\{|\bf'` + sqlVerb + `[^']*\{` +
			"|`" + sqlVerb + "[^`]*\\$\\{" +
			`|\bSprintf\s*\(\s*"` + sqlVerb + `[^"]*%[sv]` +
			`|\b(?:String\.format|sprintf)\s*\(\s*"` + sqlVerb + `[^"]*%s` +
			`|\$@?"` + sqlVerb + `[^"]*\{[^{]` + // C# $"..."
			`)`),
		// formatting with nothing to format in ('SELECT ...'.format(), 'SELECT ...' % ())
		unless:     lazyre.New(`^[^+]*(?:\.format\s*\(\s*\)|['"]\s*%\s*\(\s*\))[^+]*$`),
		confidence: 0.75,
	},
	{
		Rule: review.Rule{ID: "tollgate/sql-concatenation", Severity: policy.High, CWE: []string{"CWE-89"},
			Description: "SQL is built by string interpolation (PHP \"...$var\", Ruby \"...#{}\"), not parameters",
			Catches:     example("users.php", `mysqli_query($db, "SELECT * FROM users WHERE id = $id");`),
			Leaves:      example("users.php", `$stmt = $db->prepare("SELECT * FROM users WHERE id = ?");`)},
		kinds:      []lang.Kind{lang.PHP, lang.Ruby},
		anyFold:    []string{"select", "insert", "update", "delete", "where"},
		re:         lazyre.New(`(?i)"\s*` + sqlVerb + `[^"]*(?:\$[A-Za-z_{]|#\{)`),
		confidence: 0.75,
	},
	{
		Rule: review.Rule{ID: "tollgate/sql-concatenation", Severity: policy.High, CWE: []string{"CWE-89"},
			Description: "an ActiveRecord query fragment interpolates a value (Ruby where/order/find_by_sql with #{})",
			Catches:     example("users.rb", `User.where("name = '#{params[:name]}'")`),
			Leaves:      example("users.rb", `User.where("name = ?", params[:name])`)},
		kinds:      []lang.Kind{lang.Ruby},
		hint:       "#{",
		re:         lazyre.New(`\.(?:where|order|reorder|group|having|joins|find_by_sql|exists\?|pluck|select|from|execute|exec_query|select_all|select_rows|select_value)\s*\(\s*"[^"]*#\{`),
		confidence: 0.75,
	},
}

// sqlRunRule is the finding where SQL built on an earlier line runs.
var sqlRunRule = review.Rule{ID: "tollgate/sql-concatenation", Severity: policy.High, CWE: []string{"CWE-89"},
	Description: "SQL built from non-literal values on an earlier line is run here",
	Catches:     example("users.py", "query = \"SELECT name FROM users WHERE age=\"\nquery += age\ncur.execute(query)"),
	Leaves:      example("users.py", "query = \"SELECT name FROM users WHERE age=\"\nquery += \"3\"\ncur.execute(query)")}

// sqlSink is a call that runs SQL text: the text is its first argument (Ruby: also without
// parentheses).
// (C#: new SqlCommand(sql, conn), cmd.CommandText = sql, Dapper's Query<T>(sql).)
var sqlSink = lazyre.New(`(?:\.|->|::)\s*(?:execute\w*|query\w*|Query\w*|exec\w*|Exec\w*|raw|createQuery|createNativeQuery|createSQLQuery|prepare\w*|Prepare\w*|queryFor\w+|update|select_\w+|find_by_sql|extra|FromSqlRaw|SqlQuery\w*)\s*(?:<[\w.,\s]*>\s*)?(?:\(|\s[A-Za-z_$@])|\.CommandText\s*=|\b(?:mysqli?_query|mysqli_real_query|pg_query\w*|pg_send_query|sqlite_query|db_query|RawSQL|\w*(?:Sql|Db)Command|SqlDataAdapter)\s*\(`)

var sqlSinkWords = []string{"exec", "Exec", "query", "Query", "raw", "prepare", "Prepare", "update", "select_", "find_by_sql", "RawSQL", "extra", "Command", "FromSql", "SqlQuery", "SqlDataAdapter"}

// sqlStart is a right-hand side that starts with SQL text (a builder made with it included).
var sqlStart = lazyre.New(`^\s*(?:new\s+)?(?:StringBuilder|StringBuffer)?\(?\s*[fFrRbBuU]{0,2}["'` + "`" + `]\s*(?i:select\s+(?:\*|distinct\s|count\s*\(|[\w.]+\s*(?:,|\bfrom\b|\bas\b|["'` + "`" + `]|$))|select\s*["'` + "`" + `]|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s|from\s+\w+(?:\s+\w+)?\s+where\s)`)

// sqlPending is an SQL finding of an assignment, held until the scope ends: a later line that
// runs the variable takes it over.
type sqlPending struct {
	rule     *lineRule
	line     flowLine
	focus    int
	consumed bool
}

// sql runs the SQL rules on line i of the scope; it reports whether the line had a finding.
func (f *flow) sql(i int) bool {
	l := f.lines[i]
	if l.code == "" {
		return false
	}
	var lower string
	for ri := range sqlRules {
		rule := &sqlRules[ri]
		if !rule.applies(f.k) || !rule.mayMatch(l.text, &lower) {
			continue
		}
		m := rule.match(l.code)
		if m == nil {
			continue
		}
		if f.safeExpr(operand(l.code[m[0]:]), i, 0) {
			return false // every value joined is a literal, a constant, a number or escaped
		}
		if a, ok := parseAssign(l.code); ok && a.plain() && len(a.targets) == 1 && a.rhsAt <= m[0] {
			f.pending = append(f.pending, sqlPending{rule: rule, line: l, focus: m[0]})
			return true
		}
		f.emit(&rule.Rule, rule.confidence, l, m[0], "")
		return true
	}
	return f.sqlRun(i)
}

// sqlRun reports line i when it runs a variable holding SQL built from non-literal values.
func (f *flow) sqlRun(i int) bool {
	l := f.lines[i]
	var args string
	at := -1
	if i > 0 && f.openSink != 0 && f.lines[i-1].n == f.openSink {
		args, at = l.code, len(l.code)-len(strings.TrimLeft(l.code, " \t"))
	}
	f.openSink = 0
	if at < 0 {
		if !containsAny(l.code, sqlSinkWords) {
			return false
		}
		m := sqlSink.FindStringIndex(l.code)
		if m == nil {
			return false
		}
		end := m[1]
		if l.code[end-1] != '(' {
			end-- // Ruby: con.exec query
		}
		args, at = l.code[end:], m[0]
		if strings.TrimSpace(args) == "" {
			f.openSink = l.n
			return false
		}
	}
	for vi, v := range runArgs(f.k, args) {
		if vi >= 6 {
			break
		}
		if o, ok := f.sqlTainted(v, i, 0); ok {
			f.consume(o.n)
			f.emit(&sqlRunRule, 0.75, l, at, " (built on line "+strconv.Itoa(o.n)+")", o.n)
			return true
		}
	}
	return false
}

// sqlTainted reports whether variable name, when line i uses it, holds SQL text built from a
// non-literal value in the scope, and the line where that happened.
func (f *flow) sqlTainted(name string, i, depth int) (flowLine, bool) {
	grown, builder := -1, false
	for j := i - 1; j >= 0 && f.spend(); j-- {
		code := f.lines[j].code
		if !strings.Contains(code, name) || !hasWord(code, name) {
			continue
		}
		if a, ok := parseAssign(code); ok && a.has(name) {
			rhs := f.joinRHS(j, a.rhs)
			if a.plain() {
				return f.sqlDef(j, rhs, grown, depth)
			}
			if !f.safeExpr(rhs, j, 0) {
				grown = j
			}
			continue
		}
		if x, ok := appended(code, name); ok {
			if sqlStart.MatchString(x) {
				builder = true
			} else if !f.safeExpr(x, j, 0) {
				grown = j
			}
		}
	}
	if builder && grown >= 0 {
		return f.lines[grown], true
	}
	return flowLine{}, false
}

// sqlDef judges the assignment on line j (rhs its right side) that defines a variable: SQL
// built from non-literal values, SQL text grown later (line grown), or a value made from
// another such variable.
func (f *flow) sqlDef(j int, rhs string, grown, depth int) (flowLine, bool) {
	if !strings.ContainsAny(rhs, "\"'`") {
		return f.sqlFrom(j, rhs, depth)
	}
	var lower string
	for ri := range sqlRules {
		rule := &sqlRules[ri]
		if !rule.applies(f.k) || !rule.mayMatch(rhs, &lower) {
			continue
		}
		if m := rule.match(rhs); m != nil && !f.safeExpr(operand(rhs[m[0]:]), j, 0) {
			return f.lines[j], true
		}
	}
	if sqlStart.MatchString(rhs) {
		lit := strings.IndexAny(rhs, "\"'`")
		for lit > 0 && strings.IndexByte("fFrRbBuU", rhs[lit-1]) >= 0 {
			lit-- // keep a string prefix: f"..." interpolates
		}
		if !f.safeExpr(rhs[lit:], j, 0) {
			return f.lines[j], true
		}
		if grown >= 0 {
			return f.lines[grown], true
		}
		return flowLine{}, false
	}
	return f.sqlFrom(j, rhs, depth)
}

// sqlFrom follows the variables of the right side rhs of line j: the first one that holds SQL
// built from non-literal values (sb.String(), text(q)).
func (f *flow) sqlFrom(j int, rhs string, depth int) (flowLine, bool) {
	if depth < 2 {
		vars, _ := exprParts(f.k, rhs)
		for vi, v := range vars {
			if vi >= 6 {
				break
			}
			if o, ok := f.sqlTainted(v, j, depth+1); ok {
				return o, true
			}
		}
	}
	return flowLine{}, false
}

// appended returns what a line appends to variable name (name.append(x), name.concat(x),
// name.WriteString(x), name << x), ok false if it appends nothing to it.
func appended(code, name string) (string, bool) {
	i := strings.Index(code, name)
	for i >= 0 {
		rest := strings.TrimLeft(code[i+len(name):], " \t")
		if i == 0 || !isWord(code[i-1]) && code[i-1] != '.' {
			for _, m := range []string{".append(", ".concat(", ".WriteString(", ".Append(", ".push(", "<<"} {
				if strings.HasPrefix(rest, m) {
					x := rest[len(m):]
					if m != "<<" {
						x = x[:max(0, closeParen("("+x, 0)-2)]
					}
					return x, true
				}
			}
		}
		next := strings.Index(code[i+len(name):], name)
		if next < 0 {
			break
		}
		i += len(name) + next
	}
	return "", false
}

// runArgs returns the variables the arguments of a call that runs SQL may hold the SQL in:
// those the arguments use, and objects whose methods they call (sb.toString()).
func runArgs(k lang.Kind, args string) []string {
	vars, _ := exprParts(k, args)
	for _, m := range chainHead.FindAllStringSubmatch(args, 4) {
		vars = append(vars, m[1])
	}
	return vars
}

// chainHead is a variable whose member is used (1: its name).
var chainHead = lazyre.New(`(?:^|[^\w.$>])(\$?[A-Za-z_]\w*)(?:\.|->)[A-Za-z_]`)

// operand cuts an expression that starts a call's argument (or a statement's right side) at
// its end: a comma, closing bracket or semicolon at its own depth.
func operand(s string) string {
	end, _ := walkBrackets(s, func(c byte, depth int) bool {
		return depth == 0 && (c == ')' || c == ']' || c == '}' || c == ',' || c == ';')
	})
	return s[:end]
}

// walkBrackets steps through s outside string literals, counting bracket depth. It stops at
// the first byte for which stop (given the depth before that byte) is true, and returns that
// byte's index (len(s) when none) and the depth there.
func walkBrackets(s string, stop func(c byte, depth int) bool) (int, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if stop != nil && stop(c, depth) {
			return i, depth
		}
		switch c {
		case '"', '\'', '`':
			i = stringEnd(s, i) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return len(s), depth
}

// consume marks the pending finding of line n as reported where its SQL runs.
func (f *flow) consume(n int) {
	for pi := range f.pending {
		if f.pending[pi].line.n == n {
			f.pending[pi].consumed = true
		}
	}
}

// flush reports the pending SQL findings no later line took over, at their own lines.
func (f *flow) flush() { f.flushBefore(int(^uint(0) >> 1)) }

// flushBefore reports (and forgets) the pending findings of lines before n.
func (f *flow) flushBefore(n int) {
	kept := f.pending[:0]
	for _, p := range f.pending {
		switch {
		case p.line.n >= n:
			kept = append(kept, p)
		case !p.consumed:
			f.emit(&p.rule.Rule, p.rule.confidence, p.line, p.focus, "")
		}
	}
	f.pending = kept
}
