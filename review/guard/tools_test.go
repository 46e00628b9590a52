package guard

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// fakePAT builds a GitHub token at run time, so that this repository's own review does not
// see one in its sources.
func fakePAT() string { return "ghp_" + strings.Repeat("Zq8vK2mW9x", 3) + "R4tL7p" }

// TestUnknownToolsByArguments: a tool the guard does not know (MCP tools, new built-ins) is
// judged by its arguments' names, whatever the tool is called.
func TestUnknownToolsByArguments(t *testing.T) {
	o := testOptions()
	o.Detector = testDetector(t)
	tok := fakePAT()
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name string
		tool string
		args map[string]any
		want Verdict
		rule string
	}{
		// catches
		{"fs write into the hooks", "mcp__fs__write_file", obj("path", "/home/u/project/.git/hooks/pre-commit", "content", "exit 0"), Deny, "guard/protected-file"},
		{"fs write of a secret", "mcp__fs__write_file", obj("path", "/home/u/project/app.py", "content", "T = \""+tok+"\"\n"), Deny, "secrets/github-pat"},
		{"fs write outside the project", "mcp__filesystem__write_file", obj("path", "/home/u/other/a.txt", "content", "hello"), Ask, "guard/outside-write"},
		{"fs move onto tollgate's config", "mcp__fs__move_file", obj("source", "a.toml", "destination", ".tollgate.toml"), Deny, "guard/protected-file"},
		{"fs edit with camelCase path", "mcp__fs__edit_file", obj("filePath", ".git/config", "edits", []any{obj("oldText", "a", "newText", "b")}), Deny, "guard/protected-file"},
		{"fs read of a key", "mcp__fs__read_file", obj("path", "~/.ssh/id_ed25519"), Ask, "guard/secret-read"},
		{"fs read of several, one a secret", "mcp__fs__read_multiple_files", obj("paths", []any{"README.md", ".env"}), Ask, "guard/secret-read"},
		{"github push", "mcp__github__push_files", obj("owner", "o", "repo", "r", "branch", "main", "files", []any{obj("path", "src/a.go", "content", "package a\n")}, "message", "x"), Ask, "guard/remote-write"},
		{"github push of a secret", "mcp__github__push_files", obj("files", []any{obj("path", "src/a.py", "content", "T = '"+tok+"'\n")}), Deny, "secrets/github-pat"},
		{"github create or update file", "mcp__github__create_or_update_file", obj("path", "README.md", "content", "hi", "sha", "abc"), Ask, "guard/remote-write"},
		{"github merge", "mcp__github__merge_pull_request", obj("owner", "o", "repo", "r", "pull_number", 3), Ask, "guard/remote-write"},
		{"github release", "mcp__github__create_release", obj("tag_name", "v1", "body", "notes"), Ask, "guard/remote-write"},
		{"gitlab push of a key file", "mcp__gitlab__push_files", obj("files", []any{obj("file_path", "deploy/id_rsa", "content", "x")}), Ask, "guard/remote-write"},
		{"secret in a message sent anywhere", "mcp__slack__post_message", obj("channel", "c", "text", "here: "+tok), Deny, "secrets/github-pat"},
		{"a command run by a shell server", "mcp__desktop-commander__start_process", obj("command", "git commit --no-verify -m x"), Deny, "guard/hook-bypass"},
		{"nested deep arguments", "mcp__x__do", obj("a", obj("b", []any{obj("target_file", ".git/hooks/pre-push", "code_edit", "exit 0")})), Deny, "guard/protected-file"},
		{"unknown verb naming the hooks", "mcp__x__frobnicate", obj("path", ".git/hooks/pre-commit"), Ask, "guard/protected-file"},
		{"file URI", "mcp__fs__write_file", obj("uri", "file:///home/u/project/.git/hooks/commit-msg", "text", "exit 0"), Deny, "guard/protected-file"},
		{"cursor-style new tool", "edit_file", obj("target_file", "/home/u/project/.husky/pre-commit", "code_edit", "exit 0"), Deny, "guard/protected-file"},
		// leave-alones
		{"fs read of the README", "mcp__fs__read_file", obj("path", "/home/u/project/README.md"), NoObjection, ""},
		{"search with a query", "mcp__search__query", obj("query", "x"), NoObjection, ""},
		{"unknown tool, no recognisable arguments", "mcp__x__thing", obj("query", "x", "limit", 3), NoObjection, ""},
		{"fs write of ordinary code", "mcp__fs__write_file", obj("path", "/home/u/project/main.go", "content", "package main\n"), NoObjection, ""},
		{"github read", "mcp__github__get_file_contents", obj("owner", "o", "repo", "r", "path", ".env"), Ask, "guard/secret-read"},
		{"github issue listing", "mcp__github__list_issues", obj("owner", "o", "repo", "r"), NoObjection, ""},
		{"web url is no path", "mcp__fetch__fetch", obj("url", "https://example.com/.git/hooks/pre-commit"), NoObjection, ""},
		{"a harmless command", "mcp__shell__run_command", obj("command", "go test ./..."), NoObjection, ""},
		{"no input at all", "mcp__x__ping", nil, NoObjection, ""},
		{"a git server's commit", "mcp__git__git_commit", obj("repo_path", "/home/u/project", "message", "x"), Ask, "guard/tool-commit"},
		{"a git server's log", "mcp__git__git_log", obj("repo_path", "/home/u/project"), NoObjection, ""},
	}
	for _, c := range cases {
		ans := Decide(Call{Kind: Unknown, Tool: c.tool, Args: c.args}, o)
		if ans.Verdict != c.want || (c.rule != "" && ans.Rule != c.rule) {
			t.Errorf("%s: got %s %s (%s), want %s %s", c.name, ans.Verdict, ans.Rule, ans.Reason, c.want, c.rule)
		}
		if strings.Contains(ans.Reason, tok) {
			t.Errorf("%s: the answer shows the secret: %s", c.name, ans.Reason)
		}
	}
}

// TestUnknownToolContentUnscanned: without a detector, content in an unknown tool's arguments
// is never passed: the call asks and goes to a full tollgate.
func TestUnknownToolContentUnscanned(t *testing.T) {
	ans := Decide(Call{Kind: Unknown, Tool: "mcp__fs__write_file", Args: map[string]any{"path": "a.txt", "content": "x"}}, testOptions())
	if ans.Verdict != Ask || !ans.Unscanned {
		t.Errorf("got %s unscanned=%v, want ask and unscanned", ans.Verdict, ans.Unscanned)
	}
	ans = Decide(Call{Kind: Unknown, Tool: "mcp__fs__read_file", Args: map[string]any{"path": "a.txt"}}, testOptions())
	if ans.Verdict != NoObjection || ans.Unscanned {
		t.Errorf("a read: got %s unscanned=%v, want no objection", ans.Verdict, ans.Unscanned)
	}
}

func TestClassifyToolNames(t *testing.T) {
	for name, want := range map[string]toolClass{
		"mcp__github__push_files":             classRemote,
		"mcp__github__create_or_update_file":  classRemote,
		"mcp__github__merge_pull_request":     classRemote,
		"mcp__github__get_file_contents":      classRead,
		"mcp__github__create_issue":           classWrite,
		"mcp__fs__write_file":                 classWrite,
		"mcp__fs__delete_file":                classDelete,
		"mcp__filesystem__list_directory":     classRead,
		"mcp__plugin_x_srv__readFile":         classRead,
		"mcp__desktop-commander__exec":        classExec,
		"mcp__x__frobnicate":                  classUnknown,
		"mcp__npm__publish":                   classRemote,
		"mcp__github__list_releases":          classRead,
		"mcp__gitea__delete_branch":           classRemote,
		"mcp_github_create_or_update_file":    classRemote,
		"mcp__github__search_code":            classRead,
		"mcp__memory__create_entities":        classWrite,
		"mcp__playwright__browser_navigate":   classUnknown,
		"mcp__context7__get-library-docs":     classRead,
		"mcp__filesystem__read_text_file":     classRead,
		"mcp__filesystem__move_file":          classWrite,
		"mcp__filesystem__create_directory":   classWrite,
		"mcp__github__create_pull_request":    classWrite,
		"mcp__github__update_pull_request":    classWrite,
		"mcp__bitbucket__createCommit":        classRemote,
		"mcp__git__git_commit":                classUnknown,
		"mcp__sentry__upload_source_maps":     classRemote,
		"mcp__gitlab__create_or_update_file":  classRemote,
		"mcp__github__delete_file":            classRemote,
		"mcp__github__create_branch":          classRemote,
		"mcp__github__fork_repository":        classRemote,
		"mcp__github__create_repository":      classRemote,
		"mcp__github__add_issue_comment":      classWrite,
		"mcp__github__update_issue":           classWrite,
		"mcp__github__get_pull_request_files": classRead,
	} {
		if got := classify(name); got != want {
			t.Errorf("classify(%q) = %d, want %d", name, got, want)
		}
	}
}

// FuzzToolArgs: any tool input (JSON, nested) is judged without a panic and within the
// budget; content is never passed unscanned without a detector.
func FuzzToolArgs(f *testing.F) {
	f.Add("mcp__fs__write_file", `{"path":".git/hooks/x","content":"exit 0"}`)
	f.Add("mcp__github__push_files", `{"files":[{"path":"a","content":"b"}]}`)
	f.Add("x", `{"a":{"b":[[[[[[[[[{"path":"/"}]]]]]]]]]}}`)
	f.Add("mcp__shell__run", `{"command":"git commit -n"}`)
	f.Fuzz(func(t *testing.T, tool, input string) {
		var args map[string]any
		if json.Unmarshal([]byte(input), &args) != nil {
			return
		}
		start := time.Now()
		ans := Decide(Call{Kind: Unknown, Tool: tool, Args: args}, testOptions())
		if took := time.Since(start); took > Budget+time.Second {
			t.Fatalf("took %v for %q", took, input)
		}
		if ans.Rule == "guard/internal-error" {
			t.Fatalf("panicked on %q: %s", input, ans.Reason)
		}
		list, _ := collectArgs(args)
		for _, a := range list {
			if a.kind == 'c' && ans.Verdict < Ask {
				t.Fatalf("content passed unscanned (%s) for %q", ans.Verdict, input)
			}
		}
	})
}

// TestUnparsedBypassDenied: a command left with an open quote runs nothing (no objection);
// one that also spells a hook bypass is denied.
func TestUnparsedBypassDenied(t *testing.T) {
	o := testOptions()
	for cmd, want := range map[string]Verdict{
		"git commit --no-verify -m 'unclosed":  Deny,
		"git commit -n -m 'test":               Deny,
		"HUSKY=0 git commit -m \"wip":          Deny,
		"git -c core.hooksPath=/dev/null 'x":   Deny,
		"echo 'unterminated":                   NoObjection,
		"git commit -m 'it":                    NoObjection,
		"git commit -am \"wont":                NoObjection,
		"git commit -m 'docs: no --no-verify'": NoObjection,
	} {
		if got := Decide(Call{Kind: Shell, Command: cmd}, o); got.Verdict != want {
			t.Errorf("%s: got %s %s, want %s", cmd, got.Verdict, got.Rule, want)
		}
	}
}
