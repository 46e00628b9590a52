package review

import (
	"time"

	"github.com/tollgate-dev/tollgate/policy"
)

// Report is the outcome of one review; its JSON form is the contract in docs/contract.md.
type Report struct {
	Tool     Tool       `json:"tool"`
	Change   ChangeInfo `json:"change"`
	Status   string     `json:"status"`
	Findings []Finding  `json:"findings"`
	Rejected []Rejected `json:"rejected"`
	NotRun   []NotRun   `json:"not_run"`
	Limits   []string   `json:"limits"`
	// Suppressed counts findings dropped by inline allow markers, .gitleaksignore or the
	// repository's .gitleaks.toml allowlists.
	Suppressed int `json:"suppressed"`
	// Excluded counts the files left out of the review (review.exclude, the paths of
	// .gitleaks.toml's allowlist); Baselined the findings .tollgate-baseline.json holds.
	Excluded  int `json:"excluded"`
	Baselined int `json:"baselined"`
	// Suppressions lists every suppressed, baselined and excluded item, only when asked for
	// (--show-suppressed).
	Suppressions []Suppression `json:"suppressions,omitempty"`
	// Notes are what went wrong around the review without changing its outcome (a verdict
	// cache or audit log that could not be written). Absent from the JSON when there are none.
	Notes []string `json:"notes,omitempty"`

	// What the writers show besides the JSON contract's fields (never in the JSON form).

	// FailOn is the severity at which the review fails.
	FailOn policy.Severity `json:"-"`
	// Ran names the checks that finished.
	Ran []string `json:"-"`
	// Binary lists the binary files checked by name only.
	Binary []string `json:"-"`
	// AddedLines counts the added lines of the change.
	AddedLines int `json:"-"`
	// SetupNotes are lines about the review's own setup (e.g. a rule set warning).
	SetupNotes []string `json:"-"`
	// Elapsed is how long the review took.
	Elapsed time.Duration `json:"-"`
}

// Tool names the reporting tool.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ChangeInfo describes what was reviewed.
type ChangeInfo struct {
	Kind  string `json:"kind"`
	Base  string `json:"base"`
	Head  string `json:"head"`
	Files int    `json:"files"`
}

// Incomplete reports whether something meant to run did not (a scanner, the model, a commit
// or file git could not read, or the model step on a change it saw only part of). Limits
// (context left out of the model's material, review.max_findings) are notes: they do not
// make a review incomplete.
func (r *Report) Incomplete() bool { return len(r.NotRun) > 0 }

// SetFailOn overrides the severity at which the review fails (the --fail-on flag).
func (r *Report) SetFailOn(s policy.Severity) { r.FailOn = s }

// Failing returns the findings at or above the fail-on severity.
func (r *Report) Failing() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity >= r.FailOn {
			n++
		}
	}
	return n
}

// The process's exit codes: the contract in docs/contract.md, defined here only.
const (
	ExitClean      = 0 // the review ran and nothing fails it
	ExitFindings   = 1 // a finding at or above fail_on
	ExitCannotRun  = 2 // the tool could not run: bad configuration, no repository, bad flags
	ExitIncomplete = 3 // something meant to run did not, or a limit cut the review short
)

// ExitCode maps the report to the contract's exit codes: ExitFindings for failing findings
// (which wins), ExitIncomplete for an incomplete review, ExitClean otherwise.
func (r *Report) ExitCode() int {
	switch {
	case r.Failing() > 0:
		return ExitFindings
	case r.Incomplete():
		return ExitIncomplete
	}
	return ExitClean
}
