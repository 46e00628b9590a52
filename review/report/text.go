package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
)

// Text renders the report for a person: findings grouped by file, then what did not run,
// then one summary line.
type Text struct {
	// Color turns on ANSI colours (for a terminal).
	Color bool
}

type palette struct{ red, yellow, bold, dim, reset string }

func colors(on bool) palette {
	if !on {
		return palette{}
	}
	return palette{red: "\x1b[31m", yellow: "\x1b[33m", bold: "\x1b[1m", dim: "\x1b[2m", reset: "\x1b[0m"}
}

// Write implements Writer.
func (t Text) Write(w io.Writer, r *review.Report) error {
	p := colors(t.Color)
	var b strings.Builder
	files := writeFindings(&b, p, r.Findings)
	writeNotes(&b, p, r)
	writeSummary(&b, p, r, files)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFindings writes the findings grouped by file, files sorted, and returns how many files
// there are.
func writeFindings(b *strings.Builder, p palette, fs []review.Finding) int {
	byPath := map[string][]review.Finding{}
	var paths []string
	for _, f := range fs {
		if _, ok := byPath[f.Path]; !ok {
			paths = append(paths, f.Path)
		}
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	sort.Strings(paths)
	for _, path := range paths {
		fmt.Fprintf(b, "%s%s%s\n", p.bold, printable(path), p.reset)
		for _, f := range byPath[path] {
			col := p.yellow
			if f.Severity >= policy.High {
				col = p.red
			}
			also := ""
			if len(f.Also) > 0 {
				also = " (also " + strings.Join(f.Also, ", ") + ")"
			}
			fmt.Fprintf(b, "  %d: %s%s%s %s: %s%s\n", f.Line, col, f.Severity, p.reset, printable(f.RuleID), printable(f.Message), printable(also))
			if f.Evidence != "" {
				fmt.Fprintf(b, "      %s%s%s\n", p.dim, printable(f.Evidence), p.reset)
			}
		}
	}
	return len(paths)
}

// writeNotes writes what was rejected, what did not run, the limits reached and the notes.
func writeNotes(b *strings.Builder, p palette, r *review.Report) {
	for _, x := range r.Rejected {
		fmt.Fprintf(b, "rejected: %s:%d %s: %s\n", printable(x.Path), x.Line, printable(x.RuleID), printable(x.Reason))
	}
	for _, n := range r.NotRun {
		fmt.Fprintf(b, "%snot run%s: %s: %s\n", p.yellow, p.reset, printable(n.Component), printable(n.Reason))
	}
	for _, l := range r.Limits {
		fmt.Fprintf(b, "%slimit%s: %s\n", p.yellow, p.reset, printable(l))
	}
	for _, n := range r.SetupNotes {
		fmt.Fprintf(b, "note: %s\n", printable(n))
	}
	if len(r.Binary) > 0 {
		fmt.Fprintf(b, "note: %d binary file(s) checked by name only: %s\n", len(r.Binary), printable(strings.Join(r.Binary, ", ")))
	}
	if r.Suppressed > 0 {
		fmt.Fprintf(b, "note: %d finding(s) suppressed by inline allow markers or .gitleaksignore\n", r.Suppressed)
	}
}

// writeSummary writes the one summary line (and a hint when the review fails).
func writeSummary(b *strings.Builder, p palette, r *review.Report, files int) {
	what := describe(r.Change)
	checks := "no checks"
	if len(r.Ran) > 0 {
		checks = strings.Join(r.Ran, ", ")
	}
	elapsed := r.Elapsed.Round(time.Millisecond)
	switch {
	case len(r.Findings) > 0:
		fail := r.Failing()
		verdict := fmt.Sprintf("%sblocked%s: %d at or above %s", p.red+p.bold, p.reset, fail, r.FailOn)
		if fail == 0 {
			verdict = fmt.Sprintf("not blocking: none at or above %s", r.FailOn)
		}
		fmt.Fprintf(b, "tollgate: %d finding(s) in %d file(s) of %s (%s); %s [%s]\n",
			len(r.Findings), files, what, severityCounts(r.Findings), verdict, elapsed)
		if fail > 0 {
			b.WriteString("tollgate: hint: fix or remove what is reported, or mark a false positive with an inline `tollgate:allow` comment\n")
		}
	case r.Incomplete():
		fmt.Fprintf(b, "tollgate: %sincomplete%s: the review of %s did not finish, so it is not clean (ran: %s) [%s]\n",
			p.yellow+p.bold, p.reset, what, checks, elapsed)
	default:
		fmt.Fprintf(b, "tollgate: these checks, on this change, found nothing (%s; %s, %d added lines) [%s]\n",
			checks, what, r.AddedLines, elapsed)
	}
}

func describe(c review.ChangeInfo) string {
	files := fmt.Sprintf("%d file", c.Files)
	if c.Files != 1 {
		files += "s"
	}
	switch c.Kind {
	case "staged":
		return "the staged change, " + files
	case "commit":
		return "commit " + review.ShortCommit(c.Head) + ", " + files
	case "range":
		return "range " + review.ShortCommit(c.Base) + ".." + review.ShortCommit(c.Head) + ", " + files
	case "push":
		return "the push, " + files
	}
	return c.Kind + ", " + files
}

func severityCounts(fs []review.Finding) string {
	counts := map[policy.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
	}
	var parts []string
	for s := policy.Critical; s >= policy.Info; s-- {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	return strings.Join(parts, ", ")
}

// printable escapes what a terminal would act on or hide, so a report can never drive the
// terminal it is printed on nor show text in another order than it is read: C0 and C1 control
// characters, DEL and bytes that are not UTF-8 (a raw 0x9B is CSI on an 8-bit terminal) as
// \xNN; bidi, zero-width and other invisible characters as <U+XXXX>.
func printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || isControl(r) || redact.HiddenRune(r) }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case isControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case redact.HiddenRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Printable is printable for the command line's own messages (errors that quote a file).
func Printable(s string) string { return printable(s) }

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
