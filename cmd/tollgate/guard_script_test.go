package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdGuardFixture: guardfixture AGENT NAME copies testdata/guard/AGENT/NAME.in.json and
// NAME.out.json (the agent's real hook input and tollgate's answer) into $WORK/guard/, with
// $WORK and other variables expanded.
func cmdGuardFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: guardfixture AGENT NAME")
	}
	dst := filepath.Join(ts.Getenv("WORK"), "guard")
	ts.Check(os.MkdirAll(dst, 0o755))
	for _, ext := range []string{".in.json", ".out.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "guard", args[0], args[1]+ext))
		ts.Check(err)
		out := os.Expand(string(data), ts.Getenv)
		ts.Check(os.WriteFile(filepath.Join(dst, args[1]+ext), []byte(out), 0o644))
	}
}

// cmdGuardHook: guardhook CONFIG DST writes the (POSIX shell) hook command tollgate installed in the agent
// config CONFIG (the string holding its marker) to DST as a shell script, so a script can run
// it the way the agent does.
func cmdGuardHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: guardhook CONFIG DST")
	}
	var doc any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	var found string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if k != "powershell" { // Copilot's Windows command; bash runs the others
					walk(e)
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			if strings.Contains(v, "tollgate-guard") {
				found = v
			}
		}
	}
	walk(doc)
	if found == "" {
		ts.Fatalf("no tollgate hook command in %s", args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(found+"\n"), 0o644))
}
