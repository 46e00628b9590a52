package agent

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseKinds(t *testing.T) {
	cases := []struct {
		agent, in       string
		kind, cmd, path string
		content         string
	}{
		{"claude", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, KindShell, "ls", "", ""},
		{"claude", `{"tool_name":"MultiEdit","tool_input":{"file_path":"a.go","edits":[{"new_string":"x"},{"new_string":"y"}]}}`, KindEdit, "", "a.go", "x\ny"},
		{"claude", `{"tool_name":"NotebookEdit","tool_input":{"notebook_path":"n.ipynb","new_source":"print(1)"}}`, KindEdit, "", "n.ipynb", "print(1)"},
		{"claude", `{"tool_name":"mcp__github__create_issue","tool_input":{}}`, KindUnknown, "", "", ""},
		{"claude", `{"tool_name":"Brand New","tool_input":{}}`, KindUnknown, "", "", ""},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":["bash","-lc","echo 'a b'"]}}`, KindShell, `bash -lc "echo 'a b'"`, "", ""},
		{"codex", `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`, KindPatch, "", "", "*** Begin Patch"},
		{"gemini", `{"tool_name":"replace","tool_input":{"file_path":"/p/a.go","old_string":"a","new_string":"b"}}`, KindEdit, "", "/p/a.go", "b"},
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"make"}}`, KindShell, "make", "", ""},
		{"cursor", `{"hook_event_name":"beforeShellExecution","command":"make","cwd":"/p"}`, KindShell, "make", "", ""},
		{"cursor", `{"hook_event_name":"beforeReadFile","file_path":"/p/.env","content":"A=1"}`, KindRead, "", "/p/.env", ""},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"x","command":"npx srv"}`, KindUnknown, "", "", ""},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":"{\"path\":\"a\"}","url":"http://localhost:1"}`, KindUnknown, "", "", ""},
		{"copilot", `{"toolName":"edit","toolArgs":"{\"path\":\"a.go\",\"old_str\":\"a\",\"new_str\":\"b\"}"}`, KindEdit, "", "a.go", "b"},
		{"copilot", `{"toolName":"bash","toolArgs":{"command":"ls"}}`, KindShell, "ls", "", ""},
	}
	for _, c := range cases {
		a, _ := Get(c.agent)
		call, err := a.Parse([]byte(c.in))
		if err != nil {
			t.Errorf("%s %s: %v", c.agent, c.in, err)
			continue
		}
		if call.Kind != c.kind || call.Command != c.cmd || call.Path != c.path || call.Content != c.content {
			t.Errorf("%s %s: got %+v", c.agent, c.in, call)
		}
	}
}

func TestAskBecomesDenyWhereAgentsCannotAsk(t *testing.T) {
	for _, name := range Names() {
		a, _ := Get(name)
		d := Effective(a, Decision{Verdict: Ask, Reason: "sudo"})
		out := string(a.Render(d).Stdout)
		if a.CanAsk() {
			if d.Verdict != Ask || !strings.Contains(out, "ask") {
				t.Errorf("%s: ask rendered as %s", name, out)
			}
			continue
		}
		if d.Verdict != Deny || !strings.Contains(out, "deny") || !strings.Contains(out, "needs a person") {
			t.Errorf("%s: ask rendered as %s", name, out)
		}
		if out := string(a.Render(Decision{}).Stdout); out != "" && out != "{}\n" {
			t.Errorf("%s: no objection printed %q", name, out)
		}
	}
}

// TestUserCommandQuoting runs the user-scope command through sh with a binary whose path holds
// spaces, quotes and dollars: the right binary runs; without it, exit 2 (Copilot: a deny on
// stdout and exit 0, since Copilot never blocks on a failing hook).
func TestUserCommandQuoting(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := filepath.Join(t.TempDir(), `we'ird $dir "x"`)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "tollgate")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"ran $1 $2 $3\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hook := func(name string) (string, error) {
		a, _ := Get(name)
		run := exec.Command(sh, "-c", UserCommand(a, bin))
		run.Env = []string{"PATH=/usr/bin:/bin"}
		out, err := run.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	for _, name := range Names() {
		a, _ := Get(name)
		if got := binaryOf(UserCommand(a, bin)); got != bin {
			t.Errorf("%s: binaryOf = %q, want %q", name, got, bin)
		}
		if out, err := hook(name); err != nil || out != "ran guard --agent "+name {
			t.Errorf("%s: %v %q", name, err, out)
		}
	}
	// the lean binary beside it runs instead
	lean := filepath.Join(dir, "tollgate-guard")
	if err := os.WriteFile(lean, []byte("#!/bin/sh\necho \"lean $1 $2 $3\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		if out, err := hook(name); err != nil || out != "lean guard --agent "+name {
			t.Errorf("%s with tollgate-guard beside: %v %q", name, err, out)
		}
	}
	os.Remove(lean)
	os.Remove(bin)
	for _, name := range Names() {
		out, err := hook(name)
		if name == "copilot" {
			if err != nil || !strings.Contains(out, `"permissionDecision":"deny"`) {
				t.Errorf("%s: missing binary gave %v %q", name, err, out)
			}
			continue
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 || !strings.Contains(out, "so this call is blocked") {
			t.Errorf("%s: missing binary gave %v %q", name, err, out)
		}
	}
}

func TestInstallKeepsForeignEntriesAndOrder(t *testing.T) {
	home := t.TempDir()
	a, _ := Get("gemini")
	user := Scope{User: true, Home: home}
	path := Path(a, user)
	orig := "{\n  \"theme\": \"dark\",\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\n        \"matcher\": \"write_file\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./mine.sh\",\n            \"timeout\": 1000\n          }\n        ]\n      }\n    ]\n  },\n  \"zz\": 1.50\n}\n"
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(orig), 0o600)
	if _, err := Install(a, user, "/opt/tollgate"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	s := string(data)
	if !strings.Contains(s, "./mine.sh") || strings.Index(s, "theme") > strings.Index(s, "zz") || !strings.Contains(s, "1.50") {
		t.Errorf("install rewrote foreign content:\n%s", s)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	if st := Status(a, user); st.Binary != "/opt/tollgate" {
		t.Errorf("status: %+v", st)
	}
	// a new binary path updates the entry in place
	Install(a, user, "/usr/local/bin/tollgate")
	data, _ = os.ReadFile(path)
	if strings.Count(string(data), "/"+marker+";") != 1 || !strings.Contains(string(data), "/usr/local/bin/tollgate") || strings.Contains(string(data), "/opt/tollgate") {
		t.Errorf("reinstall did not update in place:\n%s", data)
	}
	if _, err := Uninstall(a, user); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if string(data) != orig {
		t.Errorf("uninstall did not restore the file:\n%s\nwant\n%s", data, orig)
	}
}

// TestGroupedInstallOneEntryForEveryTool: in Claude Code, Codex and Gemini CLI, tollgate's
// entry matches every tool ("*": MCP tools and unknown tools included). An older install's two
// entries (split by tool) and a stray third become one, the user's own entry is kept, a second
// install changes nothing and uninstall leaves only the user's entry.
func TestGroupedInstallOneEntryForEveryTool(t *testing.T) {
	for _, c := range []struct{ name, event string }{
		{"claude", "PreToolUse"}, {"codex", "PreToolUse"}, {"gemini", "BeforeTool"},
	} {
		a, _ := Get(c.name)
		root := t.TempDir()
		path := Path(a, Scope{Root: root})
		os.MkdirAll(filepath.Dir(path), 0o755)
		old := `sh -c ': tollgate-guard; b="/old/tollgate"; "$b" guard --agent ` + c.name + `'`
		entry := func(m string) string {
			return `{"matcher": ` + strconv.Quote(m) + `, "hooks": [{"type": "command", "command": ` + strconv.Quote(old) + `}]}`
		}
		doc := `{"hooks": {"` + c.event + `": [` + entry("Bash|Read") + `, {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}, ` + entry("Write|Edit") + `, ` + entry("Y") + `]}}`
		os.WriteFile(path, []byte(doc), 0o644)
		if _, err := Install(a, Scope{Root: root}, "/new/tollgate"); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		var got struct {
			Hooks map[string][]struct {
				Matcher string
				Hooks   []struct{ Command string }
			}
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		groups := got.Hooks[c.event]
		var mine []string
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, marker) {
					mine = append(mine, g.Matcher)
					if h.Command != ProjectCommand(a) {
						t.Errorf("%s: entry %q, want the project command", c.name, h.Command)
					}
				}
			}
		}
		if strings.Join(mine, " ") != "*" || !strings.Contains(string(data), "./mine.sh") || len(groups) != 2 {
			t.Errorf("%s: tollgate's entries match %q (want one, *), user's kept: %v\n%s", c.name, mine, strings.Contains(string(data), "./mine.sh"), data)
		}
		if msg, _ := Install(a, Scope{Root: root}, "/new/tollgate"); !strings.Contains(msg, "already installed") {
			t.Errorf("%s: a second install said %q", c.name, msg)
		}
		if n, _ := Uninstall(a, Scope{Root: root}); !strings.Contains(n, "removed") {
			t.Errorf("%s: uninstall said %q", c.name, n)
		}
		if data, _ := os.ReadFile(path); strings.Contains(string(data), marker) || !strings.Contains(string(data), "./mine.sh") {
			t.Errorf("%s: uninstall left %s", c.name, data)
		}
	}
}

// A tool argument the guard reads that is not a string is an error (the caller answers ask, or
// deny where the agent cannot ask), never an empty command that passes.
func TestMalformedArgsAreErrors(t *testing.T) {
	bad := []struct{ agent, in string }{
		{"claude", `{"tool_name":"Bash","tool_input":{"command":42}}`},
		{"claude", `{"tool_name":"Bash","tool_input":{"command":["git","commit","-n"]}}`},
		{"claude", `{"tool_name":"Bash","tool_input":{"command":null}}`},
		{"claude", `{"tool_name":"Bash","tool_input":"git commit -n"}`},
		{"claude", `{"tool_name":"Write","tool_input":{"file_path":["a"],"content":"x"}}`},
		{"claude", `{"tool_name":"Write","tool_input":{"file_path":"a","content":{"x":1}}}`},
		{"claude", `{"tool_name":"Edit","tool_input":{"file_path":"a","new_string":true}}`},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":[1,2]}}`},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":[]}}`},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":7}}`},
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":null}}`},
		{"gemini", `{"tool_name":"write_file","tool_input":{"file_path":3,"content":"x"}}`},
		{"cursor", `{"hook_event_name":"beforeShellExecution","command":["rm","-rf","/"]}`},
		{"cursor", `{"hook_event_name":"beforeReadFile","file_path":null}`},
		{"copilot", `{"toolName":"bash","toolArgs":{"command":1}}`},
		{"copilot", `{"toolName":"bash","toolArgs":"{\"command\":[\"ls\"]}"}`},
		{"copilot", `{"toolName":"bash","toolArgs":7}`},
	}
	for _, c := range bad {
		a, _ := Get(c.agent)
		if call, err := a.Parse([]byte(c.in)); err == nil {
			t.Errorf("%s %s: parsed as %+v, want an error", c.agent, c.in, call)
		}
	}
}
