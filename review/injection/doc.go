// Package injection is the prompt-injection detector. It looks at added lines only and
// reports text that tries to address a reviewer or a coding agent. Findings are reported,
// never obeyed; the scanner keeps no state between files. One finding per line
// (rule tollgate/prompt-injection-attempt, high, CWE-1427) lists every signal that fired, with
// hidden text decoded; the evidence shows every invisible character as <U+XXXX>.
//
// Precision is a feature: a hook that cries wolf gets uninstalled. Each signal needs a
// specific shape:
//   - instruction overrides: a verb (ignore, disregard, forget) *and* an instruction object
//     (instructions, prompts, rules, guidelines, context), in English and eight other
//     languages; "ignore the previous value" is not one;
//   - fake conversation turns: a role label at the start of a comment or prose line *and* a
//     model-like turn after it ("system: you are ...", "assistant: Sure, ..."); never code,
//     YAML keys or an application's {"role": "system"} messages; user/human turns only next
//     to such a turn;
//   - chat-template tokens (<|im_start|>, [INST], <<SYS>>): always, lower confidence in code;
//   - verdict coercion: an addressee that is a model or a review program *and* a verdict;
//   - hidden carriers (HTML and Markdown comments, JSON comment fields, hidden elements)
//     raise the confidence of the above;
//   - characters: Unicode tag characters (except emoji subdivision flags), bidi controls,
//     zero-width characters (except a BOM at the start of the file, ZWNJ/ZWJ outside ASCII
//     words, ZWSP between letters of scripts written without spaces), variation-selector
//     payloads, raw ESC that starts a terminal sequence, and identifiers mixing ASCII letters
//     with Cyrillic (or with Greek letters drawn like Latin ones);
//   - agent instruction files (CLAUDE.md, AGENTS.md, .cursorrules, mcp.json, ...): commands
//     that run unseen code, reach the network with data, touch credentials or switch checks
//     off, and new MCP server commands; ordinary development guidance is not reported.
//
// Speed: the character checks run only on lines with non-ASCII bytes or ESC; one pass over the
// lowercased line finds trigger words, and a regular expression runs only when its words are
// there (on lines past 4 KiB, only in windows around them). Expressions are compiled once.
//
// Inline `tollgate:allow` markers are deliberately not honoured here: the text under review is
// the attacker's text, and it could carry the marker itself.
//
// Layout, by signal: scanner.go (the per-file and per-hunk loops, one finding per line),
// line.go (the per-line scan), triggers.go (trigger words and windowed search), override.go
// (instruction overrides), turns.go (fake conversation turns, chat-template tokens),
// verdict.go (verdict coercion), agent.go (agent instruction files), carriers.go (hidden
// carriers raise confidence), evidence.go (evidence rendering); the character signals are in
// package hidden. Files are classified, and comments found, by package lang.
package injection
