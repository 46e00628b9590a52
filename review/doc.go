// Package review is the pipeline's core: the Scanner and Step interfaces, Finding, Result,
// Report as data and Run, which applies the scanners (and the optional model step, a Step) to a
// diff.Change, then suppression, masking and ordering. The scanners live in packages of their
// own, on top of this one: review/secrets (gitleaks), review/rules (the built-in rules),
// review/injection and review/external; the text, JSON and SARIF writers in review/report; the
// model step in review/model.
//
// Rules and guarantees:
//   - review never runs git, starts no process, touches no network and writes no file; it reads
//     nothing of the repository but the Change it gets (parsed diffs and its BlobReader). Only
//     the model step it is given (review/model), when a model is configured, reaches out.
//   - Scanners see added lines only; every finding carries the new-file line number, and a
//     finding of a commit's unit says which commit (InCommit, the one spelling).
//   - A scanner that did not run (an error, review.timeout, a file it did not finish) is
//     reported under not_run and makes the review incomplete; it is never reported as clean.
//   - Evidence in every report is masked by the redactor: the detector runs on the finding's
//     whole line and every secret on it is masked before the evidence window is cut (a secret
//     found by decoding is masked in its encoded form), so no secret, nor part of one, is ever
//     rendered in clear; secrets in messages are masked too.
//   - Inline tollgate:allow markers suppress findings (counted), except prompt-injection ones.
//   - A finding carries its column when its scanner knows the match's offset on the line (a
//     model's quote does not). A finding of a commit whose line a later commit of the same
//     change deletes (and none adds back), or whose file it deletes, is marked LaterRemoved.
//   - Every location is a finding: findings are deduplicated only when commit, path, line and
//     rule are the same. One problem is one finding: a gitleaks rule and
//     tollgate/hardcoded-credential on one line, or the private-key rules in one file, are
//     folded into the more specific finding, which lists the others in Also (problem.go).
//     Reports are deterministic: the scanners run side by side but their
//     results merge in scanner, unit and file order, and findings are sorted by severity,
//     path, line.
//   - The exit codes (ExitClean, ExitFindings, ExitCannotRun, ExitIncomplete) are defined here
//     only; Report.ExitCode maps a report to them, failing findings winning over incompleteness.
package review
