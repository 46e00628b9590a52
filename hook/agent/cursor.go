package agent

import (
	"encoding/json"
	"fmt"
)

// cursor is Cursor's beforeShellExecution / beforeReadFile / beforeMCPExecution hook: stdin
// {command, cwd}, {file_path, content} or {tool_name, tool_input, url|command} (the MCP
// server's own command, not one to run), with hook_event_name; answer {"permission":
// "allow|deny|ask", "user_message", "agent_message"}; no objection is {} (Cursor refuses a
// silent hook when failClosed is set). tollgate's entries carry failClosed: true, so a hook that cannot run blocks.
type cursor struct{}

func init() { register(cursor{}) }

func (cursor) Name() string { return "cursor" }
func (cursor) CanAsk() bool { return true }

func (cursor) Parse(stdin []byte) (Call, error) {
	m, err := object(stdin)
	if err != nil {
		return Call{}, err
	}
	if err := checkArgs(m, false); err != nil && str(m, "hook_event_name") != "beforeMCPExecution" {
		return Call{}, err
	}
	c := Call{Agent: "cursor", Event: str(m, "hook_event_name"), Session: str(m, "conversation_id", "session_id"), Cwd: str(m, "cwd")}
	if roots, ok := m["workspace_roots"].([]any); ok && c.Cwd == "" && len(roots) > 0 {
		c.Cwd, _ = roots[0].(string)
	}
	switch {
	case c.Event == "beforeMCPExecution":
		// {tool_name, tool_input (a JSON string or an object), url | command}: the server's
		// command is how Cursor starts it, not a shell command the agent runs
		c.Tool, c.Kind = str(m, "tool_name"), KindUnknown
		if c.Tool == "" {
			c.Tool = c.Event
		}
		c.Args, err = cursorToolInput(m["tool_input"])
		if err != nil {
			return c, err
		}
	case c.Event == "beforeShellExecution" || (c.Event == "" && m["command"] != nil):
		c.Tool, c.Kind, c.Command = "shell", KindShell, str(m, "command")
	case c.Event == "beforeReadFile" || (c.Event == "" && m["file_path"] != nil):
		c.Tool, c.Kind, c.Path = "read_file", KindRead, str(m, "file_path")
	default:
		c.Tool, c.Kind = c.Event, KindUnknown
	}
	return c, nil
}

func (cursor) Render(d Decision) Output {
	if d.Verdict == None {
		// Cursor refuses a hook that prints nothing when failClosed is set: an empty object
		// is a valid answer that decides nothing, so Cursor's own permissions apply.
		return Output{Stdout: []byte("{}\n")}
	}
	msg := "tollgate: " + d.Reason
	return Output{Stdout: mustJSON(map[string]any{"permission": string(d.Verdict), "user_message": msg, "agent_message": msg})}
}

func (cursor) config() configSpec {
	return configSpec{
		project: ".cursor/hooks.json", user: ".cursor/hooks.json",
		install: flatInstall("command", []string{"beforeShellExecution", "beforeReadFile", "beforeMCPExecution"}, func(e *obj) { e.set("failClosed", true) }),
		entries: flatEntries("command"), remove: flatRemove("command"),
	}
}

// cursorToolInput decodes beforeMCPExecution's tool_input (a JSON string or an object; absent
// is no arguments) and checks the arguments the guard reads.
func cursorToolInput(v any) (map[string]any, error) {
	var in map[string]any
	switch a := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		in = a
	case string:
		if a == "" {
			return map[string]any{}, nil
		}
		if err := json.Unmarshal([]byte(a), &in); err != nil || in == nil {
			return nil, fmt.Errorf("failed to read the tool input: \"tool_input\" is not a JSON object")
		}
	default:
		return nil, fmt.Errorf("failed to read the tool input: \"tool_input\" is %s", jsonType(a))
	}
	return in, checkArgs(in, false)
}
