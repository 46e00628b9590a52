package rules

import (
	"iter"
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// When a finding is reported at low (visible, not blocking): the one rule every family of this
// package follows, so that a finding at medium or above means "probably real".
//   - Where it is: test code, fixtures and testdata (lang.IsTestPath), documentation and
//     examples (lang.IsDocPath). A value with a provider's shape (a bot token) that does not
//     look like a sample (redact.LooksLikeSample) keeps its severity there.
//   - For the shell and deserialisation rules that need it (lineRule.needsInput): no evidence
//     that outside data reaches the sink. Evidence is request or command-line data, a network
//     read (outsideInput) in the call or in a variable assigned from it in the scope's added
//     lines, or a command string built from the function's own parameter.
//   - For yaml.load: PyYAML's FullLoader (safe from arbitrary objects since PyYAML 5.4).
//   - For TLS verification turned off: the caller's explicit opt-out, an enclosing condition
//     or a conditional expression that names the option (if verify is False:, if
//     args.insecure:, verify=False if no_verify_ssl else True).
//   - For SQL: the values joined into the statement are names (after FROM, JOIN, INTO,
//     UPDATE, TABLE, AS, BY), SQL fragments or quoted identifiers ($where, $this->wrap(...)) or
//     numbers, not values, and no outside data is in sight (sql_calm.go).
//   - For world-writable: os.umask(0) read into a variable (the read-and-restore idiom), a mode
//     with the umask taken off (0777 - umask()).

// outsideInput is data from outside the program: a request, the command line, a network read.
var outsideInput = lazyre.New(`\brequest\.|\breq\.(?:body|query|params|headers|cookies)\b|\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER)\b|\b(?:params|cookies)\[|\binput\s*\(|\bsys\.argv|\bargv\[|\bargs\.\w|\boptions\.\w|\.recv(?:from|_into|msg)?\s*\(|\burlopen\s*\(|\b(?:requests|httpx|session|client)\.(?:get|post|put|request)\s*\(|\.(?:content|json\(\)|text)\b.*\b(?:requests|httpx)\b|\bsocket\b|\bflask\.request\b|\bself\.rfile\b|\bstdin\b`)

// placeSeverity lowers a finding in test code or in documentation to low and says so.
func placeSeverity(p string, sev policy.Severity, msg string) (policy.Severity, string) {
	if sev <= policy.Low {
		return sev, msg
	}
	switch {
	case lang.IsTestPath(p):
		return policy.Low, msg + " (in test code: lowered to low)"
	case lang.IsDocPath(p):
		return policy.Low, msg + " (in documentation or an example: lowered to low)"
	}
	return sev, msg
}

// lowerFor lowers sev to low, why saying why ("" keeps it).
func lowerFor(sev policy.Severity, msg, why string) (policy.Severity, string) {
	if why == "" || sev <= policy.Low {
		return sev, msg
	}
	return policy.Low, msg + " (" + why + ": lowered to low)"
}

// noInputWhy is the reason a sink with no evidence of outside data is low.
const noInputWhy = "no outside data seen reaching it (request, command line, network, a parameter built into the command)"

// sinkArgs returns the text of the call a match m on code sits in: from the match to its
// closing parenthesis, or, for a keyword argument (shell=True), the line up to the match and
// the added line above it when the call opened there.
func sinkArgs(f *flow, code string, m []int, before bool) string {
	if !before {
		open := strings.IndexByte(code[m[0]:], '(')
		if open < 0 {
			return code[m[0]:]
		}
		open += m[0]
		return code[open:closeParen(code, open)]
	}
	args := code[:m[1]]
	if !strings.Contains(args, "(") && f != nil && len(f.lines) > 1 {
		args = f.lines[len(f.lines)-2].code + " " + args
	}
	return args
}

// inputReaches reports evidence that outside data reaches a sink whose call text is args, on
// the scope's last line (f nil: the line alone).
func inputReaches(f *flow, k lang.Kind, args string) bool {
	if outsideInput.MatchString(args) {
		return true
	}
	if f == nil || len(f.lines) == 0 {
		return false
	}
	i := len(f.lines) - 1
	built := buildsString(args)
	vars, _ := exprParts(k, args)
	if k == lang.PHP {
		vars = append(vars, phpVar.FindAllString(args, 6)...) // in backticks and "..." too
	}
	f.budget = flowBudget
	for vi, v := range vars {
		if vi >= 6 {
			break
		}
		if built && f.param(v) {
			return true
		}
		if _, ok := f.taintedBy(v, i, 0, outsideInput); ok || f.everAssigned(v, i, outsideInput) {
			return true
		}
		if f.builtFromParam(v, i) {
			return true
		}
	}
	return false
}

// phpVar is a PHP variable's name.
var phpVar = lazyre.New(`\$[A-Za-z_]\w*`)

// everAssigned reports whether any assignment to name in the scope's added lines before line
// i takes data src matches, on whatever branch: evidence only raises a finding, so a value
// that is outside data on one path (user_obj = request.cookies.get(...), then reassigned
// under an if) counts.
func (f *flow) everAssigned(name string, i int, src *lazyre.RE) bool {
	for _, a := range f.assignsBefore(name, i) {
		if src.MatchString(a.rhs) {
			return true
		}
	}
	return false
}

// buildsString reports a string built from values: an f-string or template with a field,
// % or .format formatting, or concatenation with a name.
var stringBuild = lazyre.New(`\bf["'][^"']*\{|["']\s*%\s*[\w(]|\.format\s*\(|["']\s*\+\s*[\w(]|[\w)]\s*\+\s*[rbf]?["']|\$\{|#\{`)

func buildsString(s string) bool { return stringBuild.MatchString(s) }

// param reports whether name is a parameter of the scope's function (its head line names it,
// and it is not the function's own name).
func (f *flow) param(name string) bool {
	if f.head == nil || name == "self" || name == "cls" || name == "this" {
		return false
	}
	h := f.head.code
	open := strings.IndexByte(h, '(')
	if open < 0 {
		return false
	}
	return hasWord(h[open:], name)
}

// builtFromParam reports whether variable name, used on line i, was last assigned (in the
// scope's added lines) a string built from a parameter of the function.
func (f *flow) builtFromParam(name string, i int) bool {
	for j, a := range f.assignsBefore(name, i) {
		rhs := f.joinRHS(j, a.rhs)
		if !buildsString(rhs) {
			return false
		}
		vars, _ := exprParts(f.k, rhs)
		return slices.ContainsFunc(vars, f.param)
	}
	return false
}

// assignsBefore yields the assignments to name in the scope's added lines before line i, the
// nearest first, with their line index (within the look-back budget).
func (f *flow) assignsBefore(name string, i int) iter.Seq2[int, assignment] {
	return func(yield func(int, assignment) bool) {
		for j := i - 1; j >= 0 && f.spend(); j-- {
			code := f.lines[j].code
			if !strings.Contains(code, name) {
				continue
			}
			if a, ok := parseAssign(code); ok && a.has(name) && !yield(j, a) {
				return
			}
		}
	}
}

// noInput is a lineRule's calm check for a sink that needs evidence of outside data.
func noInput(before bool) func(f *flow, k lang.Kind, code string, m []int) string {
	return func(f *flow, k lang.Kind, code string, m []int) string {
		if inputReaches(f, k, sinkArgs(f, code, m, before)) {
			return ""
		}
		return noInputWhy
	}
}

// yamlCalm is the calm check of yaml.load: PyYAML's FullLoader (yaml.full_load,
// Loader=FullLoader) constructs no arbitrary objects since PyYAML 5.4 (CVE-2020-14343 fixed),
// so it is low whatever it reads; any other loader needs evidence of outside data (noInput).
func yamlCalm(f *flow, k lang.Kind, code string, m []int) string {
	if strings.Contains(code[m[0]:m[1]], "full_load") || fullLoader.MatchString(sinkArgs(f, code, m, false)) {
		return "PyYAML's FullLoader builds no arbitrary objects since 5.4"
	}
	return noInput(false)(f, k, code, m)
}

var fullLoader = lazyre.New(`Loader\s*=\s*(?:yaml\.)?FullLoader\b`)

// optOutWord names an option to turn verification off (or on): the caller's choice.
var optOutWord = lazyre.New(`(?i)verif|insecure|unverified|skip_?tls|tls_?skip|(?:check|validate)_?(?:cert|ssl|host)|(?:cert|ssl)_?(?:check|valid)|(?:disable|ignore|no)_?(?:ssl|tls|cert)|allow_?(?:insecure|self_?signed)|self_?signed`)

// condHead is a line that opens a condition: if, elif, else if, unless, when, case.
var condHead = lazyre.New(`^\s*(?:\}\s*)?(?:if|elif|else\s+if|unless|when|case)\b`)

// callerOptOut is the calm check of the TLS rules: the setting is the caller's explicit
// opt-out when a conditional expression on the line or the nearest enclosing condition above
// it (a less indented if line of the scope's added lines) names an option to skip
// verification.
func callerOptOut(f *flow, _ lang.Kind, code string, m []int) string {
	rest := code[m[1]:]
	if i := strings.Index(rest, " if "); i >= 0 && optOutWord.MatchString(rest[i:]) {
		return "the caller's explicit opt-out (a conditional expression)"
	}
	if i := strings.Index(code[:m[0]], "?"); i >= 0 && optOutWord.MatchString(code[:i]) {
		return "the caller's explicit opt-out (a conditional expression)"
	}
	if f == nil || len(f.lines) < 2 {
		return ""
	}
	ind := indent(code)
	for j := len(f.lines) - 2; j >= 0 && j >= len(f.lines)-40; j-- {
		c := f.lines[j].code
		if strings.TrimSpace(c) == "" {
			continue
		}
		if indent(c) >= ind {
			continue
		}
		if condHead.MatchString(c) && optOutWord.MatchString(c) {
			return "the caller's explicit opt-out (under " + strings.TrimSpace(c) + ")"
		}
		if !strings.HasPrefix(strings.TrimSpace(c), "else") {
			return ""
		}
		ind = indent(c)
	}
	return ""
}

// indent is the width of a line's leading blanks (a tab counts as one).
func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// umaskOff follows a mode that has the umask taken off.
var umaskOff = lazyre.New(`^\s*(?:-|&\s*~|&\^)\s*\(?\s*(?:[\w.$]+(?:->|::|\.))?(?:umask\s*\(|umask\b)`)

// umaskRead is the calm check of the world-writable rule: os.umask(0) whose result is kept
// (old = os.umask(0)) reads the umask to restore it, the only way Python has to read it.
// A mode with the umask taken off (0777 - umask(), 0o777 & ~umask) is the process's default
// mode, what mkdir would give: the umask decides, not the code.
func umaskRead(_ *flow, _ lang.Kind, code string, m []int) string {
	if umaskOff.MatchString(code[m[1]:]) {
		return "the umask is taken off the mode"
	}
	if !strings.Contains(code[m[0]:m[1]], "umask") {
		return ""
	}
	if a, ok := parseAssign(code); ok && a.rhsAt <= m[0] {
		return "the umask is read to be restored"
	}
	return ""
}

// boundParam is a bound parameter's placeholder in SQL text: ?, :name, $1, %(name)s, @name.
var boundParam = lazyre.New(`[=(,\s](?:\?|:[A-Za-z_]\w*|\$\d+|%\(\w+\)s|@[A-Za-z_]\w*)(?:[\s,)"'` + "`" + `]|$)`)

// docBlock follows a Python file's documentation strings: a docstring (a line that starts
// with a triple quote) and a module's documentation constants (EXAMPLES = r and a triple quote,
// DOCUMENTATION, RETURN, USAGE: an automation module's examples). A triple-quoted string that
// is code (SQL passed to execute) is not one.
type docBlock struct {
	quote string // the open triple-quoted string's quote, "" outside one
	doc   bool   // the open string is documentation
}

// docOpen starts a documentation string: a bare triple quote or a documentation constant.
var docOpen = lazyre.New(`^\s*(?:(?:[A-Z_]*(?:EXAMPLES?|DOCUMENTATION|RETURN|USAGE|HELP|DOCS?)[A-Z_]*)\s*=\s*)?[rRuUbB]{0,2}(?:"""|\x27\x27\x27)`)

// inside reads the next line and reports whether it is documentation: inside a documentation
// string, or the line that opens or closes one. Every triple-quoted string is followed, so
// the line that closes code's string (""" % message) is never taken for a docstring's start.
func (d *docBlock) inside(line string) bool {
	if d.quote != "" {
		doc := d.doc
		if strings.Contains(line, d.quote) {
			d.quote, d.doc = "", false
		}
		return doc
	}
	i := strings.Index(line, `"""`)
	if j := strings.Index(line, "\x27\x27\x27"); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return false
	}
	q := line[i : i+3]
	doc := docOpen.MatchString(line)
	if !strings.Contains(line[i+3:], q) {
		d.quote, d.doc = q, doc
	}
	return doc
}

// lowerSince lowers the findings r holds from index n on (one line's) to low, why saying why.
func lowerSince(r *review.Result, n int, why string) {
	for i := n; i < len(r.Findings); i++ {
		f := &r.Findings[i]
		f.Severity, f.Message = lowerFor(f.Severity, f.Message, why)
	}
}
