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
}

// New returns the writer of format: "json", "sarif", or anything else for text.
func New(format string, o Options) Writer {
	switch format {
	case "json":
		return JSON{}
	case "sarif":
		return SARIF{Rules: o.Rules}
	}
	return Text{Color: o.Color}
}
