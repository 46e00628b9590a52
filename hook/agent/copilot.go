package agent

import (
	"encoding/json"
	"fmt"
)

// copilot is Copilot CLI's preToolUse hook: stdin {sessionId, timestamp, cwd, toolName,
// toolArgs} with toolArgs a JSON string; answer {"permissionDecision": "allow|deny|ask",
// "permissionDecisionReason"}. Copilot never blocks on a failing hook, so the fail-closed
// command prints a deny on stdout as well.
type copilot struct{}

func init() { register(copilot{}) }

func (copilot) Name() string { return "copilot" }
func (copilot) CanAsk() bool { return true }

func (copilot) Parse(stdin []byte) (Call, error) {
	m, err := object(stdin)
	if err != nil {
		return Call{}, err
	}
	c := Call{Agent: "copilot", Event: "preToolUse", Session: str(m, "sessionId", "session_id"), Cwd: str(m, "cwd"), Tool: str(m, "toolName")}
	in, err := copilotArgs(m)
	if err != nil {
		return c, err
	}
	c.Args = in
	switch c.Tool {
	case "bash", "shell":
		c.Kind, c.Command = KindShell, str(in, "command")
	case "view", "read":
		c.Kind, c.Path = KindRead, str(in, "path", "file_path")
	case "create":
		c.Kind, c.Path, c.Content = KindWrite, str(in, "path", "file_path"), str(in, "file_text", "content")
	case "edit", "str_replace", "str_replace_editor":
		c.Kind, c.Path, c.Content = KindEdit, str(in, "path", "file_path"), str(in, "new_str", "new_string", "file_text")
	case "glob", "grep":
		c.Kind, c.Path = KindSearch, str(in, "path")
	case "web_fetch", "report_intent", "think", "update_todo", "task":
		c.Kind = KindOther
	default:
		c.Kind = KindUnknown
	}
	return c, nil
}

func (copilot) Render(d Decision) Output {
	if d.Verdict == None {
		return Output{}
	}
	return Output{Stdout: mustJSON(map[string]any{"permissionDecision": string(d.Verdict), "permissionDecisionReason": "tollgate: " + d.Reason})}
}

func (copilot) config() configSpec {
	return configSpec{
		project: ".github/hooks/tollgate.json", user: ".copilot/hooks/tollgate.json",
		install: flatInstall("bash", []string{"preToolUse"}, func(e *obj) {
			if _, ok := e.get("type"); !ok {
				e.keys = append([]string{"type"}, e.keys...)
				e.vals["type"] = "command"
			}
			e.set("timeoutSec", HookTimeoutSeconds)
		}),
		powershell: copilotPowerShell,
		entries:    flatEntries("bash"), remove: flatRemove("bash"),
		ownFile: true,
	}
}

// copilotArgs decodes toolArgs (a JSON string, or an object) and checks the arguments the guard
// reads; a missing toolArgs is no arguments, anything else that is not an object an error.
func copilotArgs(m map[string]any) (map[string]any, error) {
	var in map[string]any
	switch a := m["toolArgs"].(type) {
	case string:
		if a != "" {
			if err := json.Unmarshal([]byte(a), &in); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		in = a
	case nil:
		if _, present := m["toolArgs"]; present {
			return nil, fmt.Errorf("failed to read the tool input: \"toolArgs\" is null")
		}
	default:
		return nil, fmt.Errorf("failed to read the tool input: \"toolArgs\" is %s", jsonType(a))
	}
	if in == nil {
		return map[string]any{}, nil
	}
	return in, checkArgs(in, false)
}
