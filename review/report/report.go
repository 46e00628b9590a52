package report

import (
	"io"

	"github.com/tollgate-dev/tollgate/review"
)

// Writer renders a report in one format.
type Writer interface {
	Write(w io.Writer, r *review.Report) error
}

// Options choose what the writers need besides the report.
type Options struct {
	// Color turns on ANSI colours in the text format.
	Color bool
	// Rules documents rules by id: SARIF gives their description and examples as help text.
	Rules []review.Rule
	// Fixes maps rule ids to what to do about a finding (review.Rule.Fix): the text format
	// prints it under each finding.
	Fixes map[string]string
}

// Fixes maps every rule of rules that has a fix to it.
func Fixes(rules ...[]review.Rule) map[string]string {
	out := map[string]string{}
	for _, rs := range rules {
		for _, r := range rs {
			if r.Fix != "" {
				out[r.ID] = r.Fix
			}
		}
	}
	return out
}

// New returns the writer of format: "json", "sarif", or anything else for text.
func New(format string, o Options) Writer {
	switch format {
	case "json":
		return JSON{}
	case "sarif":
		return SARIF{Rules: o.Rules}
	}
	return Text{Color: o.Color, Fixes: o.Fixes}
}
