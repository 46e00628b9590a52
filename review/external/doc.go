// Package external runs the external scanners a config enables, one type per tool behind the
// Tool interface (gosec, shellcheck, bandit, semgrep: the fixed list, Tools), each through
// Scanner, which implements review.Scanner.
//
// Rules and guarantees:
//   - Only a tool of the fixed list runs, by its name, through the process gate the Scanner is
//     given (policy.Procs, where the caller allowed that name): never a path or arguments from
//     a config. The policy's list
//     of names (policy.ExternalScanners) is held equal to Names by this package's tests.
//   - A tool sees the reviewed content of the changed files (from the unit's BlobReader, never
//     the worktree), written to a private scratch directory outside the repository that is
//     removed afterwards, with an environment of its own: no model keys, no user secrets, no
//     network for Go modules. Semgrep runs only with the repository's own rules, never
//     downloaded ones, and sends no metrics.
//   - Only results that touch added lines are reported, at their new-file lines, with the
//     tool's column where it gives one in bytes (gosec, bandit's col_offset, semgrep), none
//     otherwise (shellcheck expands tabs).
//   - A tool that is missing, not allowed, times out, fails, or writes output that does not
//     read is an error: the review reports it as not run, never as clean.
//   - external imports review, never the other way round.
package external
