// Package report writes a review.Report in one of three formats, each one file behind the
// Writer interface: text for a person (text.go), JSON, the contract in docs/contract.md (json.go), and
// SARIF 2.1.0 as GitHub code scanning reads it (sarif.go); and the rule list of `tollgate
// rules` (rules.go).
//
// Rules and guarantees:
//   - The text format gives each finding as path:line:col, severity, rule id and CWEs, message,
//     then the masked evidence and a fix chosen by what was found, never by the file name alone
//     (fix.go: a history rewrite for a secret that a later commit of the change removes, a key
//     file's for a private key that is a file of its own, a credential store's for a secret in
//     .env, else the rule's), ordered by file then line; JSON and SARIF keep the report's order
//     (severity first). A column is printed as 1 when unknown, and appears in JSON and SARIF
//     only when known.
//   - A blocked text report ends with one hint per kind of blocking finding (hint.go): an inline
//     marker only for a line of a file in this change; review.exclude or the baseline for a
//     whole file or a file without comments; rewriting the commit (and rotating the secret)
//     for a commit already made; never a marker for prompt injection, which refuses one.
//   - The writers only render: they never change the report, run nothing and read nothing but
//     the report and their options. The same report gives the same bytes (but the elapsed time
//     in the text summary).
//   - Nothing from the repository drives the terminal: the text format escapes control
//     characters, 8-bit C1 bytes and invalid UTF-8 (\xNN) and invisible or bidi characters
//     (<U+XXXX>) in every field a scanner or a file name controls; JSON and SARIF escape C1
//     controls and invisible characters as \uXXXX, so the decoded values are unchanged.
//   - JSON arrays are never null; an incomplete review is an unsuccessful SARIF invocation.
//   - report imports review (the data) and nothing above it.
package report
