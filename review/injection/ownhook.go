package injection

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// tollgate's own agent hook. `tollgate install --agent` writes one entry into the project's
// agent config (.claude/settings.json, .codex/hooks.json, .gemini/settings.json,
// .cursor/hooks.json, .github/hooks/tollgate.json), and that file is committed: the entry is not
// a program an attacker adds. It is recognised exactly: a line that is nothing but a
// "command" (Copilot: "bash", and "powershell" for Windows) key whose value is, byte for byte,
// the project-scope command install writes for one of the agents. Any other command in those files, a changed byte of
// tollgate's, or more on the same line, is reviewed as before. The user-scope command (--user)
// names a binary by absolute path and is never recognised: a committed entry that runs a
// path of the committer's choosing is exactly what the rule is for.
//
// The text below is hook/agent's ProjectCommand (review/* may not import hook/);
// TestOwnHookEntriesPassReview in cmd/tollgate renders each agent's install and holds the two
// equal.

const (
	ownFind    = `g=$(command -v tollgate-guard || command -v tollgate)`
	ownMissing = "tollgate is not on PATH, so this call is blocked"
	ownFailed  = "the guard failed, so this call is blocked"
)

// ownHookAgents are the agents whose entry is an sh -c command; Copilot's is a bash line.
var ownHookAgents = []string{"claude", "codex", "gemini", "cursor"}

func ownShCommand(agent string) string {
	return `sh -c '` + ownFind + ` || { echo "tollgate: error: ` + ownMissing + `" >&2; exit 2; }; ` +
		`"$g" guard --agent ` + agent + ` || { echo "tollgate: error: ` + ownFailed + `" >&2; exit 2; }'`
}

func ownCopilotCommand() string {
	deny := func(reason string) string {
		return `{"permissionDecision":"deny","permissionDecisionReason":"tollgate: ` + reason + `"}`
	}
	return ownFind + ` || { echo '` + deny(ownMissing) + `'; exit 0; }; "$g" guard --agent copilot || echo '` + deny(ownFailed) + `'`
}

// ownCopilotPowerShell is Copilot's "powershell" field, hook/agent's ProjectPowerShell.
func ownCopilotPowerShell() string {
	deny := func(reason string) string {
		return `'{"permissionDecision":"deny","permissionDecisionReason":"tollgate: ` + reason + `"}'`
	}
	return `$g = (Get-Command tollgate-guard -CommandType Application -ErrorAction Ignore | Select-Object -First 1).Source; ` +
		`if (-not $g) { $g = (Get-Command tollgate -CommandType Application -ErrorAction Ignore | Select-Object -First 1).Source }; ` +
		`if (-not $g) { ` + deny(ownMissing) + `; exit 0 }; & $g guard --agent copilot; if ($LASTEXITCODE -ne 0) { ` + deny(ownFailed) + ` }`
}

var (
	ownOnce     sync.Once
	ownCommands map[string]string // command -> the key that holds it
	// ownLineRe: a line holding one "command", "bash" or "powershell" key and its string value,
	// and nothing else but a trailing comma.
	ownLineRe = lazyre.New(`^\s*"(command|bash|powershell)"\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$`)
	// sectionRe: a key that opens a section of Gemini CLI's settings.
	sectionRe = lazyre.New(`^\s*"(hooks|mcpServers)"\s*:`)
)

// ownHook reports a line that is exactly tollgate's own hook entry; orig maps clean offsets to
// the line as written, which must hold no invisible character clean left out.
func ownHook(clean string, orig func(int) int) bool {
	if !strings.Contains(clean, "tollgate-guard") || orig(len(clean)-1) != len(clean)-1 {
		return false
	}
	m := ownLineRe.FindStringSubmatch(clean)
	if m == nil {
		return false
	}
	var cmd string
	if json.Unmarshal([]byte(m[2]), &cmd) != nil {
		return false
	}
	ownOnce.Do(func() {
		ownCommands = map[string]string{ownCopilotCommand(): "bash", ownCopilotPowerShell(): "powershell"}
		for _, a := range ownHookAgents {
			ownCommands[ownShCommand(a)] = "command"
		}
	})
	key, ok := ownCommands[cmd]
	return ok && key == m[1]
}

// ownHookNote is what a finding adds about a command that names tollgate-guard but is not the
// entry install writes now (an older tollgate's, a --user entry, or one changed by hand).
func ownHookNote(cmd string) string {
	if !strings.Contains(cmd, "tollgate-guard") {
		return ""
	}
	return "; it is not the entry `tollgate install --agent` writes in project scope (an older or a --user entry, or one changed by hand): reinstalling rewrites tollgate's own"
}

// configLabel is what a "command" on the line being scanned starts: the file's AgentConfig, or
// in Gemini CLI's settings (MCP servers and hooks in one file) the section the line is in, when
// the hunk shows it.
func (fs *fileScan) configLabel() string {
	if fs.kind.AgentConfig != lang.GeminiSettings {
		return fs.kind.AgentConfig
	}
	switch configSection(fs.f, fs.cur.line) {
	case "hooks":
		return "an agent hook"
	case "mcpServers":
		return "an MCP server"
	}
	return fs.kind.AgentConfig
}

// configSection returns the last section key ("hooks", "mcpServers") above line in the hunk
// that holds it, or "".
func configSection(f *diff.FileDiff, line int) string {
	for hi := range f.Hunks {
		h := &f.Hunks[hi]
		if line < h.NewStart || line >= h.NewStart+max(h.NewLines, 1) {
			continue
		}
		sec := ""
		for _, l := range h.Lines() {
			if l.Kind == diff.Del {
				continue
			}
			if l.New >= line {
				break
			}
			if m := sectionRe.FindStringSubmatch(l.Text); m != nil {
				sec = m[1]
			}
		}
		return sec
	}
	return ""
}
