package main

import (
	"os"
	"path/filepath"

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
