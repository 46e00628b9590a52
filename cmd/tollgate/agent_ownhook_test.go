package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/injection"
)

// TestOwnHookEntriesPassReview holds hook/agent and review/injection equal (review/* may not
// import hook/, so the injection scanner keeps its own copy of the project-scope command): each
// agent's config, as `tollgate install --agent` writes it in project scope, is no finding of the
// prompt-injection scanner; the same file with a byte of tollgate's command changed, or written
// in user scope (an absolute path), is.
func TestOwnHookEntriesPassReview(t *testing.T) {
	scan := func(path, text string) []string {
		t.Helper()
		var r review.Result
		f := difftest.AddedFile(path, strings.Split(strings.TrimSuffix(text, "\n"), "\n")...)
		if err := (injection.Scanner{}).Scan(context.Background(), &diff.Unit{Files: []diff.FileDiff{f}}, &r); err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, g := range r.Findings {
			msgs = append(msgs, g.Message)
		}
		return msgs
	}
	for _, name := range agent.Names() {
		a, _ := agent.Get(name)
		root, home := t.TempDir(), t.TempDir()
		project := agent.Scope{Root: root}
		if _, err := agent.Install(a, project, "/home/alice/go/bin/tollgate"); err != nil {
			t.Fatal(err)
		}
		path := agent.Path(a, project)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(path, root), string(os.PathSeparator))
		if got := scan(rel, string(data)); len(got) != 0 {
			t.Errorf("%s: tollgate's own entry is reported:\n%s\n%s", name, strings.Join(got, "\n"), data)
		}
		// every command of the entry (Copilot's "bash" and "powershell"), each tampered alone
		cmd := "guard --agent " + name
		parts := strings.Split(string(data), cmd)
		if len(parts) < 2 {
			t.Fatalf("%s: no command to tamper with in\n%s", name, data)
		}
		for i := 1; i < len(parts); i++ {
			tampered := strings.Join(parts[:i], cmd) + cmd + "; ./x" + strings.Join(parts[i:], cmd)
			if got := scan(rel, tampered); len(got) == 0 {
				t.Errorf("%s: a tampered entry (command %d) is not reported:\n%s", name, i, tampered)
			}
		}
		user := agent.Scope{User: true, Home: home}
		if _, err := agent.Install(a, user, "/home/alice/go/bin/tollgate"); err != nil {
			t.Fatal(err)
		}
		data, _ = os.ReadFile(agent.Path(a, user))
		if got := scan(rel, string(data)); len(got) == 0 {
			t.Errorf("%s: the user-scope entry (an absolute path) in a committed file is not reported:\n%s", name, data)
		}
	}
}
