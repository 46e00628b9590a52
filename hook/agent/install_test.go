package agent

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectCommand runs each agent's project-scope command through sh: it holds no machine
// path, runs tollgate-guard from PATH (or tollgate when only that is there), and fails closed
// when neither is on PATH or the guard fails: exit 2 with a message, or for Copilot, which
// never blocks on a failing hook, a deny in its JSON.
func TestProjectCommand(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	both, only := t.TempDir(), t.TempDir()
	write := func(dir, name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(both, "tollgate-guard", `echo "lean $*"`)
	write(both, "tollgate", `echo "full $*"`)
	write(only, "tollgate", `echo "full $*"`)
	crash := t.TempDir()
	write(crash, "tollgate-guard", `echo boom >&2; exit 1`)
	run := func(a Agent, path string) (string, int) {
		cmd := exec.Command(sh, "-c", ProjectCommand(a))
		cmd.Env = []string{"PATH=" + path}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out)), code
	}
	for _, name := range Names() {
		a, _ := Get(name)
		c := ProjectCommand(a)
		if strings.Contains(c, both) || strings.Contains(c, "/bin") || strings.Contains(c, "/home") || len(c) > 360 {
			t.Errorf("%s: not a short, path-free command (%d bytes): %s", name, len(c), c)
		}
		if out, code := run(a, both+":/usr/bin:/bin"); code != 0 || out != "lean guard --agent "+name {
			t.Errorf("%s: with both on PATH: %d %q", name, code, out)
		}
		if out, code := run(a, only+":/usr/bin:/bin"); code != 0 || out != "full guard --agent "+name {
			t.Errorf("%s: with only tollgate on PATH: %d %q", name, code, out)
		}
		for _, path := range []string{"/usr/bin:/bin", crash + ":/usr/bin:/bin"} {
			out, code := run(a, path)
			if name == "copilot" {
				if code != 0 || !strings.Contains(out, `{"permissionDecision":"deny"`) || !strings.Contains(out, "so this call is blocked") {
					t.Errorf("%s: PATH %s: %d %q", name, path, code, out)
				}
				continue
			}
			if code != 2 || !strings.Contains(out, "tollgate: error: ") || !strings.Contains(out, "so this call is blocked") {
				t.Errorf("%s: PATH %s: %d %q", name, path, code, out)
			}
		}
	}
}

// TestUninstallRemovesWhatInstallCreated: uninstall removes the files and directories install
// created (no {} or {"version":1} stub, no empty .github/hooks/), and keeps a file the user had
// before, even one that held only {}; a file the user added to after install stays too.
func TestUninstallRemovesWhatInstallCreated(t *testing.T) {
	for _, c := range []struct {
		agent, before string // before: "" no file
		stays         bool
	}{
		{"claude", "", false}, {"codex", "", false}, {"gemini", "", false}, {"cursor", "", false}, {"copilot", "", false},
		{"claude", "{}\n", true}, {"codex", "{}\n", true}, {"gemini", "{}\n", true},
		{"cursor", "{\"version\": 1}\n", true},
		{"gemini", "{\"theme\": \"dark\"}\n", true},
	} {
		root, state := t.TempDir(), t.TempDir()
		s := Scope{Root: root, State: state}
		a, _ := Get(c.agent)
		path := Path(a, s)
		if c.before != "" {
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(c.before), 0o644)
		}
		if _, err := Install(a, s, "/x/tollgate"); err != nil {
			t.Fatal(err)
		}
		if _, err := Install(a, s, "/x/tollgate"); err != nil { // twice: still created by install
			t.Fatal(err)
		}
		if _, err := Uninstall(a, s); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if !c.stays {
			if err == nil {
				t.Errorf("%s: uninstall left %s: %s", c.agent, path, data)
			}
			left, _ := os.ReadDir(root)
			if len(left) != 0 {
				t.Errorf("%s: uninstall left %v in the project", c.agent, left)
			}
			continue
		}
		if err != nil || strings.Contains(string(data), marker) {
			t.Errorf("%s: the user's file is gone or still holds the guard: %v %s", c.agent, err, data)
		}
	}
	// the record is gone once nothing is left to remove
	root, state := t.TempDir(), t.TempDir()
	s := Scope{Root: root, State: state}
	a, _ := Get("claude")
	Install(a, s, "/x/tollgate")
	if _, err := os.Stat(filepath.Join(state, createdFile)); err != nil {
		t.Fatalf("install recorded nothing: %v", err)
	}
	// the user adds a key: the file is theirs now and stays
	path := Path(a, s)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "{", "{\n  \"model\": \"opus\",", 1)), 0o644)
	Uninstall(a, s)
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "opus") || strings.Contains(string(data), marker) {
		t.Errorf("the user's addition was lost: %v %s", err, data)
	}
	if _, err := os.Stat(filepath.Join(state, createdFile)); err == nil {
		t.Errorf("the record outlived the files it names")
	}
}

// TestFlatInstallUpgrades: Cursor's and Copilot's entries are updated in place, a duplicate of
// tollgate's entry is removed, and Cursor gets beforeMCPExecution too.
func TestFlatInstallUpgrades(t *testing.T) {
	root := t.TempDir()
	a, _ := Get("cursor")
	path := Path(a, Scope{Root: root})
	os.MkdirAll(filepath.Dir(path), 0o755)
	old := `{"command": "sh -c ': tollgate-guard; b=\"/old\"'"}`
	os.WriteFile(path, []byte(`{"version": 1, "hooks": {"beforeShellExecution": [`+old+`, {"command": "./audit.sh"}, `+old+`]}}`), 0o644)
	if _, err := Install(a, Scope{Root: root}, "/x"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	s := string(data)
	if strings.Count(s, marker) != 3 || strings.Contains(s, "/old") || !strings.Contains(s, "./audit.sh") || !strings.Contains(s, `"beforeMCPExecution"`) || strings.Count(s, `"failClosed": true`) != 3 {
		t.Errorf("upgrade gave\n%s", s)
	}
	if msg, _ := Install(a, Scope{Root: root}, "/x"); !strings.Contains(msg, "already installed") {
		t.Errorf("a second install said %q", msg)
	}
}

// FuzzParse: no hook input makes any agent's parser panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"beforeMCPExecution","tool_name":"x","tool_input":"{\"path\":1}"}`,
		`{"hook_event_name":"beforeMCPExecution","tool_input":"[1]"}`,
		`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
		`{"tool_name":"Bash","tool_input":{"command":["git","-n"]}}`,
		`null`, `[]`, `{"tool_input":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, name := range Names() {
			a, _ := Get(name)
			a.Parse([]byte(in))
		}
	})
}

// TestSharedGroupKeepsTheUsersMatcher: an older tollgate entry that shares its group with the
// user's own hook is moved out (the group's matcher is the user's), not widened to "*".
func TestSharedGroupKeepsTheUsersMatcher(t *testing.T) {
	root := t.TempDir()
	a, _ := Get("claude")
	path := Path(a, Scope{Root: root})
	os.MkdirAll(filepath.Dir(path), 0o755)
	old := `{"type": "command", "command": "sh -c ': tollgate-guard; b=\"/old\"'"}`
	os.WriteFile(path, []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [`+old+`, {"type": "command", "command": "./mine.sh"}]}]}}`), 0o644)
	if _, err := Install(a, Scope{Root: root}, "/x"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	s := string(data)
	if !strings.Contains(s, `"matcher": "Bash"`) || strings.Count(s, marker) != 1 || strings.Contains(s, "/old") ||
		strings.Index(s, "./mine.sh") > strings.Index(s, `"matcher": "*"`) {
		t.Errorf("install gave\n%s", s)
	}
	if msg, _ := Install(a, Scope{Root: root}, "/x"); !strings.Contains(msg, "already installed") {
		t.Errorf("a second install said %q", msg)
	}
}
