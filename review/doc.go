// Package review is the pipeline: Run applies the scanners to a diff.Change, then suppression,
// masking and ordering, and the reports are written from its Report.
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
//   - Evidence in every report is masked by the redactor: the detector runs on the finding's
//     whole line and every secret on it is masked before the evidence window is cut (a secret
//     found by decoding is masked in its encoded form), so no secret, nor part of one, is ever
//     rendered in clear; secrets in messages are masked too.
//   - Nothing from the repository drives the terminal: the text report escapes control
//     characters, 8-bit C1 bytes and invalid UTF-8 (\xNN) and invisible or bidi characters
//     (<U+XXXX>); evidence shows them as <U+XXXX> in every format; JSON and SARIF escape them.
//   - Every location is a finding: findings are deduplicated only when commit, path, line and
//     rule are the same. Reports are deterministic: sorted by severity, path, line.
package review
