package serve

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/redact/lite"
	"github.com/tollgate-dev/tollgate/review/guard"
)

const token = "ghp_" + "Zq8vK2mW9xR4tL7pN3sB6yH1cF5jD0gA2eQ8"

// env gives each test its own project, state directory and user config.
func env(t *testing.T, userConfig string) (project, config string) {
	t.Helper()
	dir := t.TempDir()
	project = filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		t.Setenv(v, "")
	}
	config = filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte(userConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return project, config
}

func claudeInput(project, tool, input string) []byte {
	return []byte(`{"session_id":"s","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + input + `}`)
}

func full(t *testing.T) Extras {
	t.Helper()
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Extras{Detector: func() (guard.Detector, error) { return det, nil }}
}

func auditLines(t *testing.T) int {
	data, err := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "tollgate", "guard.jsonl"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestJudgeLeanAgreesOrHandsOff: without extras, a call is either answered exactly as with the
// detector, or handed off (and then not audited); content is never answered unscanned.
func TestJudgeLeanAgreesOrHandsOff(t *testing.T) {
	project, config := env(t, "")
	a, _ := agent.Get("claude")
	cases := []struct {
		tool, input string
		handoff     bool
	}{
		{"Bash", `{"command":"git commit --no-verify -m x"}`, false},
		{"Bash", `{"command":"git status && go test ./..."}`, false},
		{"Bash", `{"command":"sudo rm -rf /"}`, false},
		{"Bash", `{"command":"echo 'token=` + token + `' > app.env"}`, true},
		{"Read", `{"file_path":"` + project + `/.env"}`, false},
		{"Write", `{"file_path":"` + project + `/a.py","content":"T = '` + token + `'\n"}`, true},
		{"Write", `{"file_path":"` + project + `/a.py","content":"print(1)\n"}`, true},
		{"Edit", `{"file_path":"` + project + `/.git/hooks/pre-commit","old_string":"a","new_string":"exit 0"}`, true},
	}
	for _, c := range cases {
		in := claudeInput(project, c.tool, c.input)
		before := auditLines(t)
		lean, handoff := Judge(context.Background(), a, in, nil, config, Extras{}, &bytes.Buffer{})
		if handoff != c.handoff {
			t.Errorf("%s %s: handoff = %v, want %v", c.tool, c.input, handoff, c.handoff)
		}
		if handoff {
			if len(lean.Stdout) != 0 || auditLines(t) != before {
				t.Errorf("%s %s: a handed-off call was answered or audited: %s", c.tool, c.input, lean.Stdout)
			}
			continue
		}
		want, _ := Judge(context.Background(), a, in, nil, config, full(t), &bytes.Buffer{})
		if string(lean.Stdout) != string(want.Stdout) || lean.Exit != want.Exit {
			t.Errorf("%s %s: lean answered %s, the full guard %s", c.tool, c.input, lean.Stdout, want.Stdout)
		}
	}
}

// TestJudgeNoFullAsksAndAudits: with no full tollgate to take it (Extras.NoFull), a call with
// content is answered Ask here, named, and audited; never handed off, never passed.
func TestJudgeNoFullAsksAndAudits(t *testing.T) {
	project, config := env(t, "")
	a, _ := agent.Get("claude")
	in := claudeInput(project, "Write", `{"file_path":"`+project+`/a.py","content":"T = '`+token+`'\n"}`)
	before := auditLines(t)
	out, handoff := Judge(context.Background(), a, in, nil, config, Extras{NoFull: errors.New("no tollgate beside it")}, &bytes.Buffer{})
	got := string(out.Stdout)
	if handoff || !strings.Contains(got, `"permissionDecision":"ask"`) || !strings.Contains(got, "guard/no-full-binary") || !strings.Contains(got, "no tollgate beside it") {
		t.Errorf("handoff=%v out=%s", handoff, got)
	}
	if auditLines(t) != before+1 {
		t.Errorf("the answer was not audited")
	}
}

// TestJudgeModelAskHandsOff: an Ask the configured model would consult on is not answered
// without the model; with it, the model's answer is used.
func TestJudgeModelAskHandsOff(t *testing.T) {
	project, config := env(t, "[guard]\nmodel = true\n")
	a, _ := agent.Get("claude")
	in := claudeInput(project, "Bash", `{"command":"sudo apt-get install jq"}`)
	if _, handoff := Judge(context.Background(), a, in, nil, config, Extras{}, &bytes.Buffer{}); !handoff {
		t.Fatal("an Ask with guard.model was answered without the model")
	}
	called := false
	x := Extras{Model: func(_ context.Context, _ guard.Call, _ string, ans guard.Answer, _ policy.Config, _ guard.Options, _ string) (guard.Answer, string) {
		called = true
		return guard.Answer{Verdict: guard.Deny, Rule: ans.Rule, Reason: "the model says no"}, "model"
	}}
	out, handoff := Judge(context.Background(), a, in, nil, config, x, &bytes.Buffer{})
	if handoff || !called || !strings.Contains(string(out.Stdout), "the model says no") {
		t.Errorf("with a model: handoff=%v called=%v out=%s", handoff, called, out.Stdout)
	}
}

// TestJudgeBadInputIsAnswered: unreadable input is an explicit answer, never a handoff.
func TestJudgeBadInputIsAnswered(t *testing.T) {
	_, config := env(t, "")
	for _, name := range agent.Names() {
		a, _ := agent.Get(name)
		out, handoff := Judge(context.Background(), a, []byte("{not json"), nil, config, Extras{}, &bytes.Buffer{})
		if handoff || (len(out.Stdout) == 0 && out.Exit == 0) {
			t.Errorf("%s: bad input gave handoff=%v %+v", name, handoff, out)
		}
	}
}

func TestMaskCommand(t *testing.T) {
	for _, c := range []string{
		"curl -H 'Authorization: Bearer " + token + "' https://api.example.com",
		"psql postgres://app:S3cr3tPassw0rd@db.internal/app",
		"export API_KEY=" + token,
		"mysql --password=hunter2hunter2 -u root",
	} {
		got := maskCommand(c)
		for _, secret := range []string{token, "S3cr3tPassw0rd", "hunter2hunter2"} {
			if strings.Contains(got, secret) {
				t.Errorf("maskCommand(%q) = %q keeps a secret", c, got)
			}
		}
	}
	if got := maskCommand("git status && go test ./..."); got != "git status && go test ./..." {
		t.Errorf("a plain command was changed: %q", got)
	}
}

// TestAuditMasksPasswords: the command-line passwords of issue 26 §7 are masked in the audit
// line, the password itself and not only its flag; plain commands are kept whole.
func TestAuditMasksPasswords(t *testing.T) {
	const pw = "Zq8mK2vR9x"
	for _, c := range []string{
		"git push https://" + token + "@github.com/acme/app.git main",
		"git push https://x-access-token:" + pw + "@github.com/acme/app.git",
		"mysql -uroot -p" + pw + " shop",
		"curl -u admin:" + pw + " https://api.prod/",
		"docker login -p " + pw + " -u ci registry.example.com",
		"htpasswd -b -c .htpasswd admin " + pw,
		"sshpass -p '" + pw + "' ssh deploy@prod",
		"redis-cli -u redis://:" + pw + "@cache.prod:6379",
		"mysql -h db -p" + pw + " && sshpass -p " + pw + "x ssh h",
	} {
		got := maskCommand(c)
		if strings.Contains(got, pw) || strings.Contains(got, token[4:]) {
			t.Errorf("maskCommand(%q) = %q keeps a secret", c, got)
		}
		if strings.HasPrefix(c, "sshpass") && !strings.HasPrefix(got, "sshpass -p ") {
			t.Errorf("maskCommand(%q) = %q: the flag was masked, not the password", c, got)
		}
	}
	for _, c := range []string{"git status && go test ./...", `mysql -uroot -p"$MYSQL_PWD" shop`, "curl -u admin https://x/"} {
		if got := maskCommand(c); got != c {
			t.Errorf("a command with no secret was changed: %q -> %q", c, got)
		}
	}
}

// TestAuditUsesDetector: with the full binary's detector every field is masked by it too, and
// a field it could not check is withheld.
func TestAuditUsesDetector(t *testing.T) {
	am := auditMasker{secrets: func(text string) ([]string, error) {
		if strings.Contains(text, "opaque-secret-value") {
			return []string{"opaque-secret-value"}, nil
		}
		return nil, nil
	}}
	got := auditCall(agent.Call{Kind: "read", Path: "/tmp/opaque-secret-value.txt", Command: "cat /tmp/opaque-secret-value.txt"}, am)
	for k, v := range got {
		if s, ok := v.(string); ok && strings.Contains(s, "opaque-secret-value") {
			t.Errorf("field %s keeps the secret: %q", k, s)
		}
	}
	failing := auditMasker{secrets: func(string) ([]string, error) { return nil, errors.New("no rules") }}
	if got := failing.mask("export API_TOKEN_X=1"); got != withheldField {
		t.Errorf("a field the detector could not check: %q", got)
	}
}

// FuzzAuditMask: no field makes the audit masker panic, and a credential it finds never
// survives in its output.
func FuzzAuditMask(f *testing.F) {
	for _, s := range []string{"mysql -pZq8mK2vR9x", "sshpass -p 'x1y2z3w4'", "curl -u a:b9c8d7e6", "git push https://" + token + "@h/x", "htpasswd -b -c f admin Pw0rd123"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out := maskCommand(text)
		for _, v := range lite.CredentialValues(text) {
			if lite.Leaks(out, v) {
				t.Fatalf("maskCommand(%q) = %q leaks %q", text, out, v)
			}
		}
	})
}

// The backstop: a decision that overruns its limit where the shell budget cannot reach (a slow
// content check) is answered ask.
func TestDecideWithinAsksOnTimeout(t *testing.T) {
	slow := func(path, content string) []guard.Hit { time.Sleep(300 * time.Millisecond); return nil }
	opts := guard.Options{Project: t.TempDir(), Content: slow, Detector: func() (guard.Detector, error) { return redact.New(redact.Options{}) }}
	call := guard.Call{Tool: "Write", Kind: guard.Write, Path: "a.txt", Content: "hello"}
	if ans := decideWithin(call, opts, 20*time.Millisecond); ans.Verdict != guard.Ask || ans.Rule != "guard/timeout" {
		t.Errorf("got %s (%s), want ask (guard/timeout)", ans.Verdict, ans.Rule)
	}
	if ans := decideWithin(call, opts, 5*time.Second); ans.Verdict != guard.NoObjection {
		t.Errorf("within the limit: got %s (%s: %s)", ans.Verdict, ans.Rule, ans.Reason)
	}
}
