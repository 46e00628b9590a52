package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// Kinds of call (the same words as review/guard's Kind).
const (
	KindShell   = "shell"
	KindRead    = "read"
	KindWrite   = "write"
	KindEdit    = "edit"
	KindPatch   = "patch"
	KindSearch  = "search"
	KindOther   = "other"
	KindUnknown = "unknown"
)

// Call is one tool call in neutral form.
type Call struct {
	Agent   string
	Event   string
	Session string
	Cwd     string
	Tool    string // the agent's own tool name
	Kind    string
	Command string // shell command line
	Path    string // file read or written
	Content string // text written (whole file, new text of an edit, or an apply_patch envelope)
	// Args are the tool's arguments as the agent sent them (tool_input, toolArgs), for tools
	// the fields above do not describe (MCP tools, tools the guard does not know); empty
	// when the agent sent none.
	Args map[string]any
}

// Verdict is what the guard answers.
type Verdict string

// Verdicts; None prints nothing (the agent's own permissions apply).
const (
	None  Verdict = ""
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Decision is the guard's answer about one call.
type Decision struct {
	Verdict Verdict
	Reason  string
}

// Output is what the hook process prints and how it exits.
type Output struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Agent is one coding agent's hook protocol and configuration.
type Agent interface {
	Name() string
	// CanAsk reports whether the agent has a working "ask a person" answer.
	CanAsk() bool
	// Parse reads the hook's stdin.
	Parse(stdin []byte) (Call, error)
	// Render answers in the agent's format.
	Render(d Decision) Output
	// config describes the agent's hook configuration file.
	config() configSpec
}

var agents = map[string]Agent{}

func register(a Agent) { agents[a.Name()] = a }

// Get returns the named agent.
func Get(name string) (Agent, bool) {
	a, ok := agents[strings.ToLower(strings.TrimSpace(name))]
	return a, ok
}

// Names lists the agents, sorted.
func Names() []string {
	out := make([]string, 0, len(agents))
	for n := range agents {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Effective turns ask into deny for an agent that cannot ask, with a reason that says a person
// must run or approve the call.
func Effective(a Agent, d Decision) Decision {
	if d.Verdict == Ask && !a.CanAsk() {
		return Decision{Verdict: Deny, Reason: "needs a person: " + d.Reason + " (" + a.Name() + " cannot ask, so tollgate denies; a person may run or approve it)"}
	}
	return d
}

// object decodes a JSON object, keeping numbers as written.
func object(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("failed to parse the hook input as a JSON object: %w", err)
	}
	if m == nil {
		return nil, fmt.Errorf("failed to parse the hook input: not a JSON object")
	}
	return m, nil
}

func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}

// argFields are the tool arguments the guard reads: a command line, a path or file content.
var argFields = []string{"command", "cmd", "file_path", "path", "absolute_path", "notebook_path", "dir_path", "directory",
	"workdir", "content", "new_string", "new_source", "file_text", "new_str", "patch", "input"}

// checkArgs reports a tool argument the guard reads that is present but not a string (a number,
// an array, an object or null): a call it cannot read is never passed as harmless. argv allows
// a command given as a non-empty array of strings (Codex's exec form).
func checkArgs(m map[string]any, argv bool) error {
	for _, k := range argFields {
		v, ok := m[k]
		if !ok {
			continue
		}
		if _, isStr := v.(string); isStr {
			continue
		}
		if words, isArr := v.([]any); isArr && argv && k == "command" && allStrings(words) {
			continue
		}
		return fmt.Errorf("failed to read the tool input: %q is %s, not a string", k, jsonType(v))
	}
	return nil
}

func allStrings(words []any) bool {
	for _, w := range words {
		if _, ok := w.(string); !ok {
			return false
		}
	}
	return len(words) > 0
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	}
	return "not a string"
}

// input returns the object under key (tool_input) after checkArgs; a key that holds something
// other than an object is an error.
func input(m map[string]any, key string, argv bool) (map[string]any, error) {
	v, ok := m[key]
	if !ok {
		return map[string]any{}, nil
	}
	in, isObj := v.(map[string]any)
	if !isObj {
		return nil, fmt.Errorf("failed to read the tool input: %q is %s, not an object", key, jsonType(v))
	}
	return in, checkArgs(in, argv)
}

// shellJoin quotes argv words for a shell (codex may send the command as an array).
func shellJoin(words []any) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		s, _ := w.(string)
		parts = append(parts, shq(s))
	}
	return strings.Join(parts, " ")
}

// shq quotes s for POSIX sh.
var shq = shellword.Quote

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain maps and strings are marshalled here
	}
	return append(b, '\n')
}
