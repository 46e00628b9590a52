package agent

import (
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// The command tollgate writes into an agent's hook config. Two forms:
//
//   - Project scope (a file that is committed and read on every teammate's machine): a short
//     command that holds no machine path. It runs tollgate-guard from PATH, or tollgate when
//     only that is there, and fails closed when neither is.
//   - User scope (--user, a file in the home directory): the installer's absolute path, with
//     tollgate from PATH as a fallback and the lean tollgate-guard beside it preferred.
//
// Failing closed, per agent (docs/guard.md): Claude Code, Codex, Gemini CLI and Cursor block a
// call whose hook exits 2 with a message on stderr, so the command exits 2 when the binary is
// missing or the guard exits abnormally (Cursor's entries also carry failClosed). Copilot CLI
// never blocks on a failing hook, so its command prints a deny in Copilot's own JSON and exits
// 0 instead.
//
// review/injection recognises the project form exactly (its ownhook.go holds the same text,
// and TestOwnHookEntriesPassReview in cmd/tollgate holds the two equal): tollgate's own entry
// in a committed config is not reported as a program the agent will start.

// missingMsg and failedMsg are what the command says on stderr when it blocks.
const (
	missingMsg = "tollgate: error: tollgate is not on PATH, so this call is blocked"
	failedMsg  = "tollgate: error: the guard failed, so this call is blocked"
)

// ProjectCommand is the project-scope hook command for the agent: no machine path.
func ProjectCommand(a Agent) string {
	find := `g=$(command -v tollgate-guard || command -v tollgate)`
	if a.Name() == "copilot" {
		return find + ` || { echo '` + copilotDeny("tollgate is not on PATH, so this call is blocked") + `'; exit 0; }; ` +
			`"$g" guard --agent copilot || echo '` + copilotDeny("the guard failed, so this call is blocked") + `'`
	}
	return `sh -c '` + find + ` || { echo "` + missingMsg + `" >&2; exit 2; }; ` +
		`"$g" guard --agent ` + a.Name() + ` || { echo "` + failedMsg + `" >&2; exit 2; }'`
}

// copilotDeny is Copilot's deny answer with reason, as one line without single quotes.
func copilotDeny(reason string) string {
	return strings.TrimSpace(string(copilot{}.Render(Decision{Verdict: Deny, Reason: reason}).Stdout))
}

// UserCommand is the user-scope hook command: it runs bin (or tollgate from PATH), preferring
// the lean tollgate-guard beside it, and fails closed like ProjectCommand.
func UserCommand(a Agent, bin string) string {
	bin = filepath.ToSlash(bin) // sh (Git for Windows' too) reads C:/x/tollgate.exe; ${b%/*} needs the slash
	gone := "tollgate is not installed at " + bin + " nor on PATH, so this call is blocked"
	inner := "b=" + shq(bin) + "; [ -x \"$b\" ] || b=$(command -v tollgate) || { "
	if a.Name() == "copilot" {
		inner += "echo " + shq(copilotDeny(gone)) + "; exit 0; }; "
	} else {
		inner += "echo " + shq("tollgate: error: "+gone) + " >&2; exit 2; }; "
	}
	inner += "g=${b%/*}/" + marker + "; [ -x \"$g\" ] || g=$b; \"$g\" guard --agent " + a.Name() + " || "
	if a.Name() == "copilot" {
		inner += "echo " + shq(copilotDeny("the guard failed, so this call is blocked"))
	} else {
		inner += "{ echo \"" + failedMsg + "\" >&2; exit 2; }"
	}
	return "sh -c " + shq(inner)
}

// command is the command for the scope.
func command(a Agent, s Scope, bin string) string {
	if s.User {
		return UserCommand(a, bin)
	}
	return ProjectCommand(a)
}

// fromPath is what Status reports as the binary of a project-scope entry.
const fromPath = "tollgate-guard or tollgate from PATH"

// binaryOf extracts the binary path from a command tollgate wrote: the absolute path of a
// user-scope command, fromPath for a project-scope one.
func binaryOf(cmd string) string {
	if inner, ok := shellword.Unquote(strings.TrimPrefix(cmd, "sh -c ")); ok {
		cmd = inner // undo the outer quoting first
	}
	if b, ok := shellword.Assigned(cmd, "b"); ok { // b=/x/tollgate, in this or an older form
		return b
	}
	if strings.Contains(cmd, "command -v "+marker) {
		return fromPath
	}
	return "(unknown)"
}

// The PowerShell commands, for Copilot CLI on Windows (it runs an entry's "powershell" field
// there, with PowerShell 7, and its "bash" field elsewhere). They do what the sh commands do:
// find the guard, let it read the hook's stdin (a native command PowerShell starts without
// pipeline input inherits it), and print Copilot's deny when the binary is missing or the guard
// fails. Written to the documented shape; no Windows machine runs them in this project's CI
// (docs/guard.md says so). Without them Copilot CLI on Windows runs no guard at all, and a
// command that fails there is what it was before: no guard.

// psFind is the project form's lookup: tollgate-guard, else tollgate, from PATH.
const psFind = `$g = (Get-Command tollgate-guard -CommandType Application -ErrorAction Ignore | Select-Object -First 1).Source; ` +
	`if (-not $g) { $g = (Get-Command tollgate -CommandType Application -ErrorAction Ignore | Select-Object -First 1).Source }; `

// ProjectPowerShell is the project-scope PowerShell command: no machine path.
func ProjectPowerShell() string {
	return psFind + psRun("tollgate is not on PATH, so this call is blocked")
}

// UserPowerShell is the user-scope PowerShell command: it runs bin (or tollgate from PATH),
// preferring the lean tollgate-guard beside it.
func UserPowerShell(bin string) string {
	return `$b = ` + psq(bin) + `; ` +
		`if (-not (Test-Path -LiteralPath $b -PathType Leaf)) { $b = (Get-Command tollgate -CommandType Application -ErrorAction Ignore | Select-Object -First 1).Source }; ` +
		`$g = $null; if ($b) { $g = Join-Path (Split-Path -Parent $b) ('` + marker + `' + [IO.Path]::GetExtension($b)); ` +
		`if (-not (Test-Path -LiteralPath $g -PathType Leaf)) { $g = $b } }; ` +
		psRun("tollgate is not installed at "+bin+" nor on PATH, so this call is blocked")
}

// psRun is the shared tail: deny when $g is empty, else run it and deny when it fails.
func psRun(missing string) string {
	return `if (-not $g) { ` + psq(copilotDeny(missing)) + `; exit 0 }; ` +
		`& $g guard --agent copilot; if ($LASTEXITCODE -ne 0) { ` + psq(copilotDeny("the guard failed, so this call is blocked")) + ` }`
}

// psq quotes s as a PowerShell single-quoted string (a quote inside is doubled).
func psq(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// copilotPowerShell is Copilot's PowerShell command for the scope.
func copilotPowerShell(s Scope, bin string) string {
	if s.User {
		return UserPowerShell(bin)
	}
	return ProjectPowerShell()
}
