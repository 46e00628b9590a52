package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tollgate-dev/tollgate/review"
)

// ruleJSON is one rule in `tollgate rules --format json`.
type ruleJSON struct {
	ID          string   `json:"id"`
	Severity    string   `json:"severity"`
	CWE         []string `json:"cwe"`
	Description string   `json:"description"`
}

// WriteRules lists rules, one per line in aligned columns (text) or as a JSON array of objects
// with id, severity, cwe and description. Text from a repository's .gitleaks.toml is escaped as
// in reports.
func WriteRules(w io.Writer, format string, rules []review.Rule) error {
	if format == "json" {
		out := make([]ruleJSON, 0, len(rules))
		for _, r := range rules {
			cwe := r.CWE
			if cwe == nil {
				cwe = []string{}
			}
			out = append(out, ruleJSON{ID: r.ID, Severity: r.Severity.String(), CWE: cwe, Description: r.Description})
		}
		return encodeJSON(w, out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tCWE\tDESCRIPTION")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable(r.ID), r.Severity, printable(strings.Join(r.CWE, ",")), printable(r.Description))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s\n", plural(len(rules), "rule"))
	return err
}
