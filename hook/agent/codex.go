package agent

// codex is Codex CLI's PreToolUse hook: stdin {session_id, cwd, hook_event_name, model, turn_id,
// tool_name, tool_input}; tool_name Bash ({command}, a string or an argv array) or apply_patch
// ({command} holding the patch). Codex has no working ask and fails open on anything but an
// explicit deny, so ask is rendered as deny with a non-empty reason.
type codex struct{}

func init() { register(codex{}) }

func (codex) Name() string { return "codex" }
func (codex) CanAsk() bool { return false }

func (codex) Parse(stdin []byte) (Call, error) {
	m, err := object(stdin)
	if err != nil {
		return Call{}, err
	}
	c := Call{Agent: "codex", Event: str(m, "hook_event_name"), Session: str(m, "session_id"), Cwd: str(m, "cwd"), Tool: str(m, "tool_name")}
	in, err := input(m, "tool_input", true)
	if err != nil {
		return c, err
	}
	c.Args = in
	text := str(in, "command", "patch", "input")
	if argv, ok := in["command"].([]any); ok {
		text = shellJoin(argv)
	}
	switch c.Tool {
	case "Bash", "shell", "local_shell", "exec_command", "container.exec":
		c.Kind, c.Command = KindShell, text
		if wd := str(in, "workdir", "cwd"); wd != "" {
			c.Cwd = wd
		}
	case "apply_patch":
		c.Kind, c.Content = KindPatch, text
	default:
		c.Kind = KindUnknown // MCP tools too: the guard reads their path and content arguments
	}
	return c, nil
}

func (codex) Render(d Decision) Output {
	switch d.Verdict {
	case Deny, Ask:
		return Output{Stdout: mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "tollgate: " + d.Reason,
		}})}
	}
	return Output{} // allow without updatedInput fails open anyway: print nothing
}

func (codex) config() configSpec {
	return configSpec{
		project: ".codex/hooks.json", user: ".codex/hooks.json",
		install: groupedInstall("PreToolUse", HookTimeoutSeconds),
		entries: groupedEntries, remove: groupedRemove,
	}
}
