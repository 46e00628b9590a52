// Package agent speaks each coding agent's pre-tool hook protocol: it parses the agent's hook
// JSON into a neutral Call, renders a Decision in the agent's own format and exit code, and
// installs, removes and reports tollgate's entry in the agent's hook configuration.
//
// Rules and guarantees:
//   - One type per agent (claude, codex, gemini, cursor, copilot), each in its own file, with
//     the wire format of that agent (see NOTES.md, "Coding-agent hooks").
//   - An agent that cannot ask (Codex, Gemini CLI) gets deny with a reason saying a person must
//     run or approve the call; an ask is never rendered as silence.
//   - Install merges into existing JSON: other keys, other hooks and the order of keys are kept;
//     installing twice changes nothing; uninstall removes only entries carrying tollgate's marker.
//   - The configured command fails closed: when the tollgate binary is missing, or the guard
//     exits abnormally, it exits 2 with a message (and, where the agent ignores exit codes, a
//     deny in the agent's JSON).
//   - agent imports only policy and the standard library; it runs no process and opens no
//     network connection.
package agent
