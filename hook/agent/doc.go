// Package agent speaks each coding agent's pre-tool hook protocol: it parses the agent's hook
// JSON into a neutral Call, renders a Decision in the agent's own format and exit code, and
// installs, removes and reports tollgate's entry in the agent's hook configuration.
//
// Rules and guarantees:
//   - One type per agent (claude, codex, gemini, cursor, copilot), each in its own file, with
//     the wire format of that agent (docs/guard.md, "Installing").
//   - An agent that cannot ask (Codex, Gemini CLI) gets deny with a reason saying a person must
//     run or approve the call; an ask is never rendered as silence.
//   - Install merges into existing JSON: other keys, other hooks and the order of keys are kept;
//     installing twice changes nothing; an older tollgate's entries are replaced, never
//     duplicated. tollgate's entry sees every tool: matcher "*" (Claude Code, Codex, Gemini
//     CLI), every preToolUse call (Copilot CLI), shell, read and MCP calls (Cursor).
//   - Uninstall removes only entries carrying tollgate's marker, and the files and directories
//     install created (recorded in Scope.State); a file the user had stays, even left as {}.
//   - The project-scope command holds no machine path (it finds tollgate-guard or tollgate on
//     PATH); only the user-scope command names the installing binary. Both fail closed: when
//     the binary is missing or the guard exits abnormally, they exit 2 with a message, and for
//     Copilot CLI, which never blocks on a failing hook, print a deny in its JSON and exit 0.
//   - agent imports only the standard library; it runs no process and opens no
//     network connection.
package agent
