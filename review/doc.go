// Package review is the pipeline: the change's diff in tollgate's own types, the scanners, and
// the reports.
//
// Rules and guarantees:
//   - review never runs git and never touches the network: it gets a Change (parsed diffs) and
//     reads nothing else.
//   - Scanners see added lines only; every finding carries the new-file line number.
//   - A scanner that did not run is reported under not_run and makes the review incomplete; it
//     is never reported as clean.
//   - Evidence in every report is masked by the redactor: no secret is ever rendered in clear.
//   - Every location is a finding: findings are deduplicated only when commit, path, line and
//     rule are the same. Reports are deterministic: sorted by severity, path, line.
package review
