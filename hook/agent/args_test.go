package agent

import "testing"

// TestParseKeepsToolInput: every agent hands the decoded tool input on as Call.Args (the guard
// judges unknown and MCP tools by it); Cursor's beforeMCPExecution sends it as a JSON string or
// an object, and anything else there is an error (asked), never no arguments.
func TestParseKeepsToolInput(t *testing.T) {
	cases := []struct {
		agent, in string
		tool      string
		key, want string // Args[key] must be want
		fails     bool
	}{
		{"claude", `{"tool_name":"mcp__fs__write_file","tool_input":{"path":"a.txt","content":"x"}}`, "mcp__fs__write_file", "path", "a.txt", false},
		{"codex", `{"tool_name":"mcp__github__push_files","tool_input":{"branch":"main"}}`, "mcp__github__push_files", "branch", "main", false},
		{"gemini", `{"tool_name":"github__push_files","tool_input":{"branch":"main"}}`, "github__push_files", "branch", "main", false},
		{"copilot", `{"toolName":"github-push_files","toolArgs":"{\"branch\":\"main\"}"}`, "github-push_files", "branch", "main", false},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":"{\"path\":\"a.txt\"}","command":"npx server"}`, "write_file", "path", "a.txt", false},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":{"path":"b.txt"},"url":"https://x"}`, "write_file", "path", "b.txt", false},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":"not json"}`, "", "", "", true},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":7}`, "", "", "", true},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","tool_name":"write_file","tool_input":"{\"path\":7}"}`, "", "", "", true},
	}
	for _, c := range cases {
		a, _ := Get(c.agent)
		call, err := a.Parse([]byte(c.in))
		if c.fails {
			if err == nil {
				t.Errorf("%s %s: no error", c.agent, c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.agent, c.in, err)
			continue
		}
		if call.Kind != KindUnknown || call.Tool != c.tool || call.Args[c.key] != c.want {
			t.Errorf("%s %s: got kind %s tool %q args %v", c.agent, c.in, call.Kind, call.Tool, call.Args)
		}
		if c.agent == "cursor" && call.Command != "" {
			t.Errorf("%s: the MCP server's command was read as a shell command: %q", c.in, call.Command)
		}
	}
}
