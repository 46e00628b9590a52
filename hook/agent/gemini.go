package agent

// gemini is Gemini CLI's BeforeTool hook: stdin {session_id, cwd, hook_event_name, tool_name,
// tool_input}; answer {"decision": "allow|deny", "reason": ...}. ask is undocumented, so it is
// rendered as deny with a reason saying a person must approve.
type gemini struct{}

func init() { register(gemini{}) }

func (gemini) Name() string { return "gemini" }
func (gemini) CanAsk() bool { return false }

// geminiMatcher are the tools tollgate-guard judges itself; geminiContent those that write
// content, whose entry runs tollgate directly.
const (
	geminiMatcher = "run_shell_command|read_file|read_many_files|glob|search_file_content|list_directory"
	geminiContent = "write_file|replace"
)

func (gemini) Parse(stdin []byte) (Call, error) {
	m, err := object(stdin)
	if err != nil {
		return Call{}, err
	}
	c := Call{Agent: "gemini", Event: str(m, "hook_event_name"), Session: str(m, "session_id"), Cwd: str(m, "cwd"), Tool: str(m, "tool_name")}
	in, err := input(m, "tool_input", false)
	if err != nil {
		return c, err
	}
	c.Args = in
	switch c.Tool {
	case "run_shell_command":
		c.Kind, c.Command = KindShell, str(in, "command")
		if d := str(in, "dir_path", "directory"); d != "" {
			c.Cwd = joinDir(c.Cwd, d)
		}
	case "read_file":
		c.Kind, c.Path = KindRead, str(in, "file_path", "absolute_path", "path")
	case "write_file":
		c.Kind, c.Path, c.Content = KindWrite, str(in, "file_path", "absolute_path", "path"), str(in, "content")
	case "replace":
		c.Kind, c.Path, c.Content = KindEdit, str(in, "file_path", "absolute_path", "path"), str(in, "new_string")
	case "read_many_files", "glob", "search_file_content", "list_directory":
		c.Kind, c.Path = KindSearch, str(in, "path", "dir_path")
	case "web_fetch", "google_web_search", "save_memory", "write_todos":
		c.Kind = KindOther
	default:
		c.Kind = KindUnknown
	}
	return c, nil
}

func joinDir(cwd, dir string) string {
	if cwd == "" || (len(dir) > 0 && dir[0] == '/') {
		return dir
	}
	return cwd + "/" + dir
}

func (gemini) Render(d Decision) Output {
	switch d.Verdict {
	case Deny, Ask:
		return Output{Stdout: mustJSON(map[string]any{"decision": "deny", "reason": "tollgate: " + d.Reason})}
	case Allow:
		return Output{Stdout: mustJSON(map[string]any{"decision": "allow", "reason": "tollgate: " + d.Reason})}
	}
	return Output{}
}

func (gemini) config() configSpec {
	return configSpec{
		project: ".gemini/settings.json", user: ".gemini/settings.json",
		install: groupedInstall("BeforeTool", []hookGroup{{geminiMatcher, true}, {geminiContent, false}}, HookTimeoutSeconds*1000),
		entries: groupedEntries, remove: groupedRemove,
	}
}
