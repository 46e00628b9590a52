package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContentJudgedOnTheResult: content checks look at what the file holds after the call,
// not at the fragment: an edit completing a token already half in the file, a token split by
// string concatenation or a zero-width character, a token used as a file name. A secret in a
// file git ignores is asked about, never denied.
func TestContentJudgedOnTheResult(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Project: dir, Home: "/home/u", Temp: []string{"/tmp"}, Detector: testDetector(t)}
	tok := fakePAT()
	head, tail := tok[:20], tok[20:]
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("half.py", "import os\n\nTOKEN = \""+head+"PLACEHOLDER\"\n\ndef main():\n    pass\n")
	write("old.py", "# fixture\nKNOWN = \""+tok+"\"\nx = 1\n")
	write("cont.js", "const t = \""+head+"\" +\n  \"PLACEHOLDER\";\n")
	write("plain.go", "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	write(".gitignore", "node_modules/\n.env\n*.local\n/secrets/\n")
	write("sub/.gitignore", "conf.ini\n")
	write("neg/.gitignore", "*.env\n!keep.env\n")
	edit := func(path, old, nw string) Call {
		return Call{Kind: Edit, Path: path, Content: nw, Args: map[string]any{"file_path": path, "old_string": old, "new_string": nw}}
	}
	env := "GITHUB_TOKEN=" + tok + "\n"
	zw := tok[:10] + "\u200b" + tok[10:]
	cases := []struct {
		name string
		call Call
		want Verdict
		rule string
	}{
		// catches
		{"edit completes a half token", edit("half.py", "PLACEHOLDER", tail), Deny, "secrets/github-pat"},
		{"multi-edit completes a half token", Call{Kind: Edit, Path: "half.py", Content: tail, Args: map[string]any{"file_path": "half.py",
			"edits": []any{map[string]any{"old_string": "pass", "new_string": "return 0"}, map[string]any{"old_string": "PLACEHOLDER", "new_string": tail}}}}, Deny, "secrets/github-pat"},
		{"copilot edit completes a half token", Call{Kind: Edit, Path: "half.py", Content: tail, Args: map[string]any{"path": "half.py", "old_str": "PLACEHOLDER", "new_str": tail}}, Deny, "secrets/github-pat"},
		{"MCP edit_file completes a half token", Call{Kind: Unknown, Tool: "mcp__filesystem__edit_file", Args: map[string]any{"path": "half.py",
			"edits": []any{map[string]any{"oldText": "PLACEHOLDER", "newText": tail}}}}, Deny, "secrets/github-pat"},
		{"token split by +", Call{Kind: Write, Path: "a.js", Content: "const t = \"" + head + "\" + \"" + tail + "\";\n"}, Deny, "secrets/github-pat"},
		{"token split by + across lines", Call{Kind: Write, Path: "a.ts", Content: "const t = '" + head + "' +\n  '" + tail + "';\n"}, Deny, "secrets/github-pat"},
		{"token split by Python's implicit concatenation", Call{Kind: Write, Path: "a.py", Content: "T = (\"" + head + "\" \"" + tail + "\")\n"}, Deny, "secrets/github-pat"},
		{"token split by PHP's .", Call{Kind: Write, Path: "a.php", Content: "<?php $t = '" + head + "' . '" + tail + "';\n"}, Deny, "secrets/github-pat"},
		{"token split by a zero-width space", Call{Kind: Write, Path: "a.py", Content: "T = \"" + zw + "\"\n"}, Deny, "secrets/github-pat"},
		{"token as the file name", Call{Kind: Write, Path: "notes/" + tok + ".txt", Content: "x\n"}, Deny, "secrets/github-pat"},
		{"secret into a tracked-looking .env", Call{Kind: Write, Path: "neg/keep.env", Content: env}, Deny, "secrets/github-pat"},
		{"secret into config not ignored", Call{Kind: Write, Path: "config/app.env", Content: env}, Deny, "secrets/github-pat"},
		{"apply_patch completes a token split across lines", Call{Kind: Patch, Content: "*** Begin Patch\n*** Update File: cont.js\n@@\n const t = \"" + head + "\" +\n-  \"PLACEHOLDER\";\n+  \"" + tail + "\";\n*** End Patch"}, Deny, "secrets/github-pat"},
		{"apply_patch hunk of added lines only", Call{Kind: Patch, Content: "*** Begin Patch\n*** Update File: plain.go\n@@\n+const t = \"" + tok + "\"\n*** End Patch"}, Deny, "secrets/github-pat"},
		// asks: a local secrets file git ignores
		{"secret into an ignored .env", Call{Kind: Write, Path: ".env", Content: env}, Ask, "guard/secret-in-ignored-file"},
		{"secret into an ignored *.local", Call{Kind: Write, Path: "settings.local", Content: env}, Ask, "guard/secret-in-ignored-file"},
		{"secret under an ignored dir", Call{Kind: Write, Path: "secrets/gh.txt", Content: env}, Ask, "guard/secret-in-ignored-file"},
		{"secret into a nested ignore", Call{Kind: Write, Path: "sub/conf.ini", Content: "[gh]\ntoken = " + tok + "\n"}, Ask, "guard/secret-in-ignored-file"},
		{"password into an ignored .env", Call{Kind: Write, Path: ".env", Content: "DB_PASSWORD=s3cr3t-Pr0d-pw\n"}, Ask, "guard/secret-in-ignored-file"},
		// leave-alones
		{"MCP edit_file adding ordinary code", Call{Kind: Unknown, Tool: "mcp__filesystem__edit_file", Args: map[string]any{"path": "plain.go",
			"edits": []any{map[string]any{"oldText": "hi", "newText": "hello"}}}}, NoObjection, ""},
		{"edit adding ordinary code", edit("plain.go", "println(\"hi\")", "println(\"hello\")"), NoObjection, ""},
		{"edit beside a secret already there", edit("old.py", "x = 1", "x = 2"), NoObjection, ""},
		{"edit whose old text is gone: the fragment", edit("plain.go", "nothing like this", "y := 2"), NoObjection, ""},
		{"edit of a new file: the fragment", edit("new.go", "a", "package b"), NoObjection, ""},
		{"apply_patch beside a secret already there", Call{Kind: Patch, Content: "*** Begin Patch\n*** Update File: old.py\n@@\n-x = 1\n+x = 2\n*** End Patch"}, NoObjection, ""},
		{"apply_patch whose context is gone", Call{Kind: Patch, Content: "*** Begin Patch\n*** Update File: plain.go\n@@\n-nothing like this\n+y := 2\n*** End Patch"}, NoObjection, ""},
		{"concatenation of ordinary strings", Call{Kind: Write, Path: "b.js", Content: "const s = \"Hello, \" + \"world\" + '!';\n"}, NoObjection, ""},
		{"adjacent ordinary literals", Call{Kind: Write, Path: "c.py", Content: "print(\"a\" \"b\", 'x' 'y')\necho \"$A\" \"$B\"\n"}, NoObjection, ""},
		{"zero-width in ordinary text", Call{Kind: Write, Path: "b.md", Content: "a\u200bb\n"}, NoObjection, ""},
		{"a long ordinary file name", Call{Kind: Write, Path: "docs/architecture-decision-records-0001.md", Content: "x\n"}, NoObjection, ""},
		{"ignored file without a secret", Call{Kind: Write, Path: ".env", Content: "DEBUG=1\n"}, NoObjection, ""},
	}
	for _, c := range cases {
		ans := Decide(c.call, o)
		if ans.Verdict != c.want || (c.rule != "" && ans.Rule != c.rule) {
			t.Errorf("%s: got %s %s (%s), want %s %s", c.name, ans.Verdict, ans.Rule, ans.Reason, c.want, c.rule)
		}
		if strings.Contains(ans.Reason, tok) || strings.Contains(ans.Reason, tail) {
			t.Errorf("%s: the answer shows the secret: %s", c.name, ans.Reason)
		}
	}
}

func TestIgnoreMatch(t *testing.T) {
	for _, c := range []struct {
		pat, rel string
		want     bool
	}{
		{".env", ".env", true},
		{".env", "app/.env", true},
		{"/.env", "app/.env", false},
		{"*.local", "a/b.local", true},
		{"secrets/", "secrets/a", true},
		{"secrets/", "secrets", false},
		{"config/*.env", "config/a.env", true},
		{"config/*.env", "x/config/a.env", false},
		{"**/build", "a/b/build/x", true},
		{"logs/**", "logs/a/b", true},
		{"a/**/b", "a/x/b", false}, // not read: never ignored
		{".env.*", ".env.local", true},
		{".env", ".envrc", false},
	} {
		if got := ignoreMatch(c.pat, c.rel); got != c.want {
			t.Errorf("ignoreMatch(%q, %q) = %v, want %v", c.pat, c.rel, got, c.want)
		}
	}
}

func TestChangedWindow(t *testing.T) {
	var lines []string
	for i := 1; i <= 100; i++ {
		lines = append(lines, "line")
	}
	before := strings.Join(lines, "\n") + "\n"
	after := before[:5*50] + "NEW\n" + before[5*50:] // after line 50
	w, start := changedWindow(before, after)
	if !strings.Contains(w, "NEW") || start > 51-editContext || start < 51-editContext-2 || strings.Count(w, "\n") > 2*editContext+3 {
		t.Errorf("window from line %d with %d lines: %q", start, strings.Count(w, "\n"), w)
	}
}
