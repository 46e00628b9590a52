package rules

import (
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Request data evaluated as code (tollgate/eval-request-data): eval, exec (Python), Function
// (JS), instance_eval and the like (Ruby) given request data, either on the line itself
// (eval(request.args["x"]), exec("x = %s" % request.form["y"])) or through a variable assigned
// from it in the scope's earlier added lines, however formatted; a Flask/FastAPI route's path
// parameters are request data; eval or exec handed over as a function together with request
// data (loop.run_in_executor(None, exec, request.POST["code"])) runs it too.

// evalRule is the finding of request data on the line that evaluates it.
var evalRule = review.Rule{ID: "tollgate/eval-request-data", Severity: policy.Critical, CWE: []string{"CWE-95"},
	Description: "eval runs data that comes from a request",
	Catches:     example("calc.py", `result = eval(request.args.get("expr"))`),
	Leaves:      example("calc.py", `result = ast.literal_eval(text)`)}

// evalVarRule is the finding of request data reaching eval through a variable.
var evalVarRule = review.Rule{ID: "tollgate/eval-request-data", Severity: policy.Critical, CWE: []string{"CWE-95"},
	Description: "eval runs a value built from request data on an earlier line",
	Catches:     example("calc.py", "expr = request.form[\"expr\"]\nresult = eval(\"{} + 1\".format(expr))"),
	Leaves:      example("calc.py", "expr = \"1 + 1\"\nresult = eval(expr)")}

// requestData is a value that comes from the request (or the user running the program).
var requestData = lazyre.New(`\brequest\.|\breq\.(?:body|query|params|headers|cookies)\b|\$_(?:GET|POST|REQUEST|COOKIE|FILES)\b|\b(?:params|cookies)\[|\binput\s*\(|\bsys\.argv|\blocation\.(?:hash|search)|\bdocument\.cookie`)

// evalCall is a call that evaluates code (group 1), or eval/exec passed as a function (group 2).
var evalCall = lazyre.New(`(?:^|[^\w.$>:])(eval|exec|execfile|Function|instance_eval|class_eval|module_eval)\s*\(|[(,]\s*(eval|exec)\s*,`)

// evalNames are the evaluating functions of each language.
var evalNames = map[lang.Kind]map[string]bool{
	lang.Python: {"eval": true, "exec": true, "execfile": true},
	lang.JS:     {"eval": true, "Function": true},
	lang.PHP:    {"eval": true},
	lang.Ruby:   {"eval": true, "instance_eval": true, "class_eval": true, "module_eval": true},
}

// routeDecorator is a Python web route whose path names parameters (Flask <name>, FastAPI {name}).
var routeDecorator = lazyre.New(`^\s*@[\w.]*\.(?:route|get|post|put|patch|delete|api_route|websocket)\s*\(\s*[rf]?["']`)

// eval reports line i when it evaluates request data.
func (f *flow) eval(i int) {
	names := evalNames[f.k]
	l := f.lines[i]
	if names == nil || !strings.Contains(l.code, "eval") && !strings.Contains(l.code, "exec") && !strings.Contains(l.code, "Function") {
		return
	}
	for _, m := range evalCall.FindAllStringSubmatchIndex(l.code, 4) {
		name, args := "", ""
		switch {
		case m[2] >= 0:
			name = l.code[m[2]:m[3]]
			open := m[1] - 1
			args = l.code[open:closeParen(l.code, open)]
		default:
			name, args = l.code[m[4]:m[5]], l.code[m[5]:]
		}
		if !names[name] {
			continue
		}
		at := m[2]
		if at < 0 {
			at = m[4]
		}
		if requestData.MatchString(args) {
			f.emit(&evalRule, 0.9, l, at, "")
			return
		}
		vars, _ := exprParts(f.k, args)
		for vi, v := range vars {
			if vi >= 6 {
				break
			}
			if o, ok := f.requestTainted(v, i, 0); ok {
				f.emit(&evalVarRule, 0.85, l, at, " (line "+strconv.Itoa(o.n)+")", o.n)
				return
			}
		}
	}
}

// requestTainted reports whether variable name, when line i uses it, holds request data: its
// assignments in the scope (followed through other variables), or a route's path parameter.
func (f *flow) requestTainted(name string, i, depth int) (flowLine, bool) {
	return f.taintedBy(name, i, depth, requestData)
}

// taintedBy reports whether variable name, when line i uses it, holds data src matches: its
// assignments in the scope (followed through other variables), or a route's path parameter.
func (f *flow) taintedBy(name string, i, depth int, src *lazyre.RE) (flowLine, bool) {
	for j := i - 1; j >= 0 && f.spend(); j-- {
		code := f.lines[j].code
		if !strings.Contains(code, name) {
			continue
		}
		a, ok := parseAssign(code)
		if !ok || !a.has(name) {
			continue
		}
		rhs := f.joinRHS(j, a.rhs)
		if src.MatchString(rhs) {
			return f.lines[j], true
		}
		if depth < 3 {
			vars, _ := exprParts(f.k, rhs)
			for vi, v := range vars {
				if vi >= 6 {
					break
				}
				if v == name {
					continue
				}
				if o, ok := f.taintedBy(v, j, depth+1, src); ok {
					return o, true
				}
			}
		}
		if a.plain() {
			return flowLine{}, false
		}
	}
	return f.routeParam(name)
}

// routeParam reports whether name is a path parameter of the route the scope's function serves.
func (f *flow) routeParam(name string) (flowLine, bool) {
	if f.head == nil || f.k != lang.Python || !hasWord(f.head.code, name) {
		return flowLine{}, false
	}
	for _, d := range f.deco {
		if !routeDecorator.MatchString(d.code) {
			continue
		}
		for _, p := range []string{"<" + name + ">", ":" + name + ">", "{" + name + "}", "{" + name + ":"} {
			if strings.Contains(d.code, p) {
				return *f.head, true
			}
		}
	}
	return flowLine{}, false
}
