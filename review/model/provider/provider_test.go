package provider

import "testing"

// TestIdentity: the identity a verdict is cached under changes with the endpoint and with the
// agent CLI's arguments, and is stable otherwise.
func TestIdentity(t *testing.T) {
	oa := &openAI{model: "m", base: "http://127.0.0.1:1/v1"}
	if Identity(oa) != Identity(&openAI{model: "m", base: "http://127.0.0.1:1/v1"}) {
		t.Fatal("the identity is not stable")
	}
	if Identity(oa) == Identity(&openAI{model: "m", base: "http://127.0.0.1:2/v1"}) {
		t.Error("the identity does not change with the base URL")
	}
	cli := &agentCLI{kind: "claude-cli", cli: claudeCLI{}, bin: "claude", model: "s"}
	withArgs := &agentCLI{kind: "claude-cli", cli: claudeCLI{}, bin: "claude", model: "s", args: []string{"--max-turns", "3"}}
	if Identity(cli) == Identity(withArgs) {
		t.Error("the identity does not change with the agent CLI's arguments")
	}
}

// TestReadOnlyFlagsLast: whatever the user passes, tollgate's read-only flags come last.
func TestReadOnlyFlagsLast(t *testing.T) {
	for kind, last := range map[string]string{"claude-cli": "default", "codex-cli": "-", "gemini-cli": "Review the material given on standard input, as the instructions in it say."} {
		a := (&agentCLI{kind: kind, cli: cliKinds[kind], args: []string{"--model", "x"}, model: "m"}).argv()
		if a[len(a)-1] != last {
			t.Errorf("%s: argv ends with %q, want %q: %q", kind, a[len(a)-1], last, a)
		}
	}
	if err := checkCLIArgs("claude-cli", []string{"--dangerously-skip-permissions"}, false); err == nil {
		t.Error("an unsafe flag is accepted")
	}
	if err := checkCLIArgs("codex-cli", []string{"-m", "o3"}, false); err != nil {
		t.Errorf("a safe flag is refused: %v", err)
	}
}
