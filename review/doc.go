// Package review is the pipeline: the change's diff in tollgate's own types, the scanners, and
// the reports.
//
// Rules and guarantees:
//   - review never runs git and never touches the network: it gets a Change (parsed diffs) and
//     reads nothing else.
//   - Scanners see added lines only; every finding carries the new-file line number.
//   - A file git calls binary is read by content for secrets (binary.go): UTF-16/UTF-32 text
//     and text with stray NUL bytes are decoded and scanned by line; archives are opened to a
//     bounded depth and size (members reported as "archive!member"); other binaries are
//     scanned for printable runs, reported at line 0. What a limit leaves unread is not run.
//   - A scanner that did not run is reported under not_run and makes the review incomplete; it
//     is never reported as clean.
//   - Evidence in every report is masked by the redactor: no secret is ever rendered in clear.
//   - Reports are deterministic: findings are deduplicated and sorted by severity, path, line.
package review
