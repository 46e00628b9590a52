package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell functions, traps and subshells, judged where and as bash runs them:
//   - A function's body runs where the function is called, with that call's arguments as its
//     positional parameters; a definition alone runs nothing. A call reached through another
//     program (time, nice, xargs, env) finds no function: a program cannot run one. The one
//     function bash calls by itself, command_not_found_handle, is judged where it is defined.
//   - A trap's action is shell the shell runs later (on exit, on a signal): judged as such.
//   - A subshell, a command substitution and a process substitution run in a copy of the
//     shell: a cd, a variable or a function set inside them does not reach what follows.

// funcState is what the judge tracks of functions (functions.go).
type funcState struct {
	funcs      map[string]*syntax.FuncDecl // functions defined so far, by name
	inFunc     map[string]bool             // functions being judged (no recursion)
	viaProgram bool                        // the command being judged is started by another program
}

// defineFunc records a function; its body is judged where it is called.
func (j *judge) defineFunc(fn *syntax.FuncDecl) {
	if fn.Name == nil {
		return
	}
	if fn.Name.Value == "command_not_found_handle" {
		j.walk(fn.Body, map[*syntax.CallExpr]*stdinSrc{}) // bash calls it for any unknown command
	}
	if j.funcs == nil {
		j.funcs = map[string]*syntax.FuncDecl{}
	}
	j.funcs[fn.Name.Value] = fn
}

// callFunc judges a call of a function defined earlier: its body with the call's arguments as
// $1... and "$@". It reports false when name is no function the call can reach.
func (j *judge) callFunc(name string, args []arg, via bool) bool {
	fn, ok := j.funcs[name]
	if !ok || via || j.inFunc[name] {
		return false
	}
	if j.inFunc == nil {
		j.inFunc = map[string]bool{}
	}
	j.inFunc[name] = true
	before := j.best
	restore := j.setParams(j.vars["0"], args)
	j.walk(fn.Body, map[*syntax.CallExpr]*stdinSrc{})
	restore()
	delete(j.inFunc, name)
	if j.best != before {
		j.best.Reason = "the function " + name + " runs: " + j.best.Reason // say where it is
	}
	return true
}

// scoped judges fn in a copy of the shell's state (a subshell): the working directory,
// variables and functions it changes are put back after.
func (j *judge) scoped(fn func()) {
	cwd, vars, unknown, funcs := j.cwd, cloneMap(j.vars), cloneMap(j.unknownVars), cloneMap(j.funcs)
	fn()
	j.cwd, j.vars, j.unknownVars, j.funcs = cwd, vars, unknown, funcs
}

func cloneMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// subshell judges the statements of a subshell or a command or process substitution in a copy
// of the shell's state.
func (j *judge) subshell(stmts []*syntax.Stmt, stdin map[*syntax.CallExpr]*stdinSrc) {
	j.scoped(func() {
		for _, st := range stmts {
			j.walk(st, stdin)
		}
	})
}

// hTrap judges a trap's action as the shell it runs later: trap 'rm -rf "$tmp"' EXIT. trap -p,
// trap -l, trap - SIG (a reset), trap ” SIG (ignore) and trap N SIG (POSIX reset) set none.
func hTrap(j *judge, _ string, args []arg, _ *stdinSrc) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && len(args[i].s) > 1 && !args[i].dyn {
		if args[i].s == "--" {
			i++
			break
		}
		if args[i].s == "-p" || args[i].s == "-l" || args[i].s == "-P" {
			return
		}
		i++
	}
	if i >= len(args)-1 { // no signal named: trap ACTION alone prints, or is an error
		return
	}
	action := args[i]
	if !action.dyn && (action.s == "-" || strings.TrimSpace(action.s) == "" || isUnsigned(action.s)) {
		return
	}
	j.payload(action, "trap")
}

func isUnsigned(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
