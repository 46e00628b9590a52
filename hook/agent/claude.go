package agent

import "strings"

// claude is Claude Code's PreToolUse hook: stdin {session_id, cwd, hook_event_name, tool_name,
// tool_input}; answer {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "allow|deny|ask", "permissionDecisionReason": ...}} with exit 0.
type claude struct{}

func init() { register(claude{}) }

func (claude) Name() string { return "claude" }
func (claude) CanAsk() bool { return true }

func (claude) Parse(stdin []byte) (Call, error) {
	m, err := object(stdin)
	if err != nil {
		return Call{}, err
	}
	c := Call{Agent: "claude", Event: str(m, "hook_event_name"), Session: str(m, "session_id"), Cwd: str(m, "cwd"), Tool: str(m, "tool_name")}
	in, err := input(m, "tool_input", false)
	if err != nil {
		return c, err
	}
	c.Args = in
	switch c.Tool {
	case "Bash":
		c.Kind, c.Command = KindShell, str(in, "command")
	case "Read", "NotebookRead":
		c.Kind, c.Path = KindRead, str(in, "file_path", "notebook_path")
	case "Write":
		c.Kind, c.Path, c.Content = KindWrite, str(in, "file_path"), str(in, "content")
	case "Edit":
		c.Kind, c.Path, c.Content = KindEdit, str(in, "file_path"), str(in, "new_string")
	case "MultiEdit":
		c.Kind, c.Path = KindEdit, str(in, "file_path")
		edits, _ := in["edits"].([]any)
		var parts []string
		for _, e := range edits {
			if em, ok := e.(map[string]any); ok {
				parts = append(parts, str(em, "new_string"))
			}
		}
		c.Content = strings.Join(parts, "\n")
	case "NotebookEdit":
		c.Kind, c.Path, c.Content = KindEdit, str(in, "notebook_path"), str(in, "new_source")
	case "Grep", "Glob", "LS":
		c.Kind, c.Path = KindSearch, str(in, "path")
	case "WebFetch", "WebSearch", "Task", "TodoWrite", "ExitPlanMode", "BashOutput", "KillShell", "KillBash", "SlashCommand", "Skill", "AskUserQuestion":
		c.Kind = KindOther
	default:
		c.Kind = KindUnknown // MCP tools too: the guard reads their path and content arguments
	}
	return c, nil
}

func (claude) Render(d Decision) Output {
	if d.Verdict == None {
		return Output{}
	}
	return Output{Stdout: mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": string(d.Verdict), "permissionDecisionReason": "tollgate: " + d.Reason,
	}})}
}

func (claude) config() configSpec {
	return configSpec{
		project: ".claude/settings.json", user: ".claude/settings.json",
		install: groupedInstall("PreToolUse", HookTimeoutSeconds),
		entries: groupedEntries, remove: groupedRemove,
	}
}
