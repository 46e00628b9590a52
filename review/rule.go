package review

import "github.com/tollgate-dev/tollgate/policy"

// Rule documents one rule: what it is, and an example of what it catches and what it leaves
// alone. The built-in rules (package rules) are documented so: their examples are tests and
// the README's rule list, and SARIF gives them as help text.
type Rule struct {
	ID          string
	Severity    policy.Severity
	CWE         []string
	Description string
	// Fix says what to do about a finding of the rule, in one sentence; PATH in it stands for
	// the finding's path (the text report puts the path there, quoted for a shell).
	Fix     string
	Catches Example
	Leaves  Example
}

// Example is one file line (or file) a rule is shown on.
type Example struct {
	Path string
	Text string // the added lines, newline-separated
}
