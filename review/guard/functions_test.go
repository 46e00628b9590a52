package guard

import (
	"strings"
	"testing"
)

// Functions run where they are called; traps run their action later; subshells keep what they
// change to themselves.
var functionsTable = []tableRow{
	// a definition alone runs nothing
	{"N", `cleanup() { rm -rf ../outside; }`},
	{"A", `cleanup() { rm -rf ../outside; }; cleanup`},
	{"A", `cleanup() { rm -rf ../outside; }; time cleanup`},
	{"A", `cleanup() { rm -rf ../outside; }; trap cleanup EXIT`},
	{"A", `cleanup() { rm -rf ../outside; }; eval cleanup`},
	{"A", `cleanup() { rm -rf ../outside; }; time -p -- ! cleanup`},
	{"A", `cleanup() { rm -rf ../outside; }; time -- cleanup`},
	// defined in a subshell, redefined, or reached through a program: not the body that runs
	{"N", `( cleanup() { rm -rf ../outside; } ); cleanup`},
	{"N", `cleanup() { rm -rf ../outside; }; cleanup() { rm -rf build; }; cleanup`},
	{"N", `cleanup() { rm -rf ../outside; }; X=1 time cleanup`},
	{"N", `cleanup() { rm -rf ../outside; }; nice cleanup`},
	{"N", `cleanup() { rm -rf ../outside; }; X=1 ! cleanup`},
	// arguments are the body's positional parameters
	{"N", `f() { rm -rf "$1"; }; f build`},
	{"A", `f() { rm -rf "$1"; }; f /`},
	{"A", `f() { rm -rf "$1"; }; f "$X"`},
	{"D", `git() { command git "$@" --no-verify; }; git commit -m x`},
	{"D", `c() { git commit "$@"; }; c --no-verify -m x`},
	// bash calls command_not_found_handle by itself
	{"D", `command_not_found_handle() { git commit --no-verify; }; zzz`},
	// recursion is judged once
	{"N", `loop() { loop; }; loop`},
	{"A", `:(){ :|:& };:`},
	// traps
	{"A", `trap 'rm -rf /' EXIT`},
	{"D", `trap 'git commit --no-verify -m x' EXIT`},
	{"D", `trap -- 'git push --no-verify' INT TERM`},
	{"A", `trap "$CMD" EXIT`},
	{"A", `trap 'rm -rf "$tmp"' EXIT`},
	{"N", `tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT`},
	{"N", `d=$(mktemp -d /tmp/x.XXXX); trap "rm -rf $d" EXIT`},
	{"A", `d=$(mktemp -d -p /etc); trap "rm -rf $d" EXIT`},
	{"A", `d=$(mktemp -d ~/x.XXXX); rm -rf "$d"`},
	{"N", `trap - EXIT`},
	{"N", `trap '' INT`},
	{"N", `trap -p`},
	// subshells and substitutions keep their cd, variables and functions
	{"A", `(cd /tmp/x); rm -rf ./*`},
	{"A", `echo $(cd /tmp/x); rm -rf ./*`},
	{"N", `(cd build && rm -rf ./*)`},
	{"N", `(export TMPDIR=/Users); rm -rf $TMPDIR/build`},
	{"N", `echo $(export TMPDIR=/Users); rm -rf $TMPDIR/build`},
	{"A", `export TMPDIR=/Users; rm -rf $TMPDIR/build`},
}

func TestFunctionsTable(t *testing.T) { checkRows(t, functionsTable, testOptions(), "") }

// A function's name is put in the reason only when its body changed the answer.
func TestFunctionReasonNamesTheBody(t *testing.T) {
	ans := Decide(Call{Kind: Shell, Command: `rm -rf /; f() { ls; }; f`}, testOptions())
	if ans.Verdict != Ask || strings.Contains(ans.Reason, "function f") {
		t.Errorf("an answer from before the call: got %s %q", ans.Verdict, ans.Reason)
	}
	ans = Decide(Call{Kind: Shell, Command: `f() { rm -rf /; }; f`}, testOptions())
	if !strings.Contains(ans.Reason, "the function f runs") {
		t.Errorf("an answer from the body: got %s %q", ans.Verdict, ans.Reason)
	}
}
