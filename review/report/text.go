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

// Text renders the report for a person: one entry per finding, ordered by file then line,
// each starting with path:line:col (what terminals and editors open), then what did not run,
// then one summary line.
type Text struct {
	// Color turns on ANSI colours (for a terminal).
	Color bool
	// Fixes maps rule ids to what to do about a finding of the rule (review.Rule.Fix).
	Fixes map[string]string
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
	files := t.writeFindings(&b, p, r.Findings)
	writeNotes(&b, p, r)
	writeSummary(&b, p, r, files)
	_, err := io.WriteString(w, b.String())
	return err
}

// byLocation returns the findings ordered by path, line, column and rule (the report's own
// order, by severity, stays for JSON and SARIF).
func byLocation(fs []review.Finding) []review.Finding {
	out := append([]review.Finding(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		}
		return a.RuleID < b.RuleID
	})
	return out
}

// writeFindings writes one entry per finding, ordered by file then line, and returns how many
// files they are in:
//
//	path:line:col: severity rule-id (CWE-n): message
//	    masked evidence
//	    fix: what to do
func (t Text) writeFindings(b *strings.Builder, p palette, fs []review.Finding) int {
	files, prev := 0, ""
	for i, f := range byLocation(fs) {
		if i == 0 || f.Path != prev {
			files++
		}
		prev = f.Path
		col := p.yellow
		if f.Severity >= policy.High {
			col = p.red
		}
		cwe := ""
		if len(f.CWE) > 0 {
			cwe = " (" + strings.Join(f.CWE, ", ") + ")"
		}
		also := ""
		if len(f.Also) > 0 {
			also = " (also " + strings.Join(f.Also, ", ") + ")"
		}
		fmt.Fprintf(b, "%s%s%s: %s%s%s %s%s: %s%s\n", p.bold, location(f), p.reset,
			col, f.Severity, p.reset, printable(f.RuleID), printable(cwe), printable(f.Message), printable(also))
		if f.Evidence != "" {
			fmt.Fprintf(b, "    %s%s%s\n", p.dim, printable(f.Evidence), p.reset)
		}
		if fix := fixFor(f, t.Fixes); fix != "" {
			fmt.Fprintf(b, "    fix: %s\n", printable(fix))
		}
	}
	return files
}

// location is path:line:col (column 1 when the finding has none), or the path alone for a
// finding with no line (a secret in a binary's printable runs).
func location(f review.Finding) string {
	if f.Line < 1 {
		return printable(f.Path)
	}
	return fmt.Sprintf("%s:%d:%d", printable(f.Path), f.Line, max(f.Column, 1))
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
	for _, n := range r.Notes {
		fmt.Fprintf(b, "note: %s\n", printable(n))
	}
	if len(r.Binary) > 0 {
		fmt.Fprintf(b, "note: %s checked by name only: %s\n", plural(len(r.Binary), "binary file"), printable(strings.Join(r.Binary, ", ")))
	}
	if r.Suppressed > 0 {
		fmt.Fprintf(b, "note: %s suppressed (inline allow markers, .gitleaksignore, .gitleaks.toml allowlists)\n", plural(r.Suppressed, "finding"))
	}
	if r.Baselined > 0 {
		fmt.Fprintf(b, "note: %s in the baseline (.tollgate-baseline.json)\n", plural(r.Baselined, "finding"))
	}
	if r.Excluded > 0 {
		fmt.Fprintf(b, "note: %s excluded from the review (review.exclude, .gitleaks.toml allowlist paths)\n", plural(r.Excluded, "file"))
	}
	for _, s := range r.Suppressions {
		what := printable(s.Path)
		if s.Line > 0 {
			what += fmt.Sprintf(":%d", s.Line)
		}
		if s.RuleID != "" {
			what += " " + printable(s.RuleID)
		}
		if s.Commit != "" {
			what += " (in commit " + printable(shortID(s.Commit)) + ")"
		}
		fmt.Fprintf(b, "left out: %s, by %s\n", what, printable(s.By))
	}
}

// shortID is a commit id cut to 12 characters, as findings name commits.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// elapsedText is a review's time in whole milliseconds, "<1ms" below one: never "0s" beside
// another review's "3ms".
func elapsedText(d time.Duration) string {
	if d < time.Millisecond {
		return "<1ms"
	}
	return d.Round(time.Millisecond).String()
}

// writeSummary writes the one summary line (and a hint when the review fails).
func writeSummary(b *strings.Builder, p palette, r *review.Report, files int) {
	what := describe(r.Change)
	checks := "no checks"
	if len(r.Ran) > 0 {
		checks = strings.Join(r.Ran, ", ")
	}
	elapsed := elapsedText(r.Elapsed)
	switch {
	case len(r.Findings) > 0:
		fail := r.Failing()
		verdict := fmt.Sprintf("%sblocked%s: %d at or above %s", p.red+p.bold, p.reset, fail, r.FailOn)
		if fail == 0 {
			verdict = fmt.Sprintf("not blocking: none at or above %s", r.FailOn)
		}
		// "in 3 files (...); reviewed the staged change, 4 files": the files with findings and the
		// files reviewed, each named for what it counts.
		fmt.Fprintf(b, "tollgate: %s in %s (%s); reviewed %s; %s [%s]\n",
			plural(len(r.Findings), "finding"), plural(files, "file"), severityCounts(r.Findings), what, verdict, elapsed)
		for _, h := range hints(r) {
			b.WriteString("tollgate: hint: " + h + "\n")
		}
	case r.Incomplete():
		// "did not finish" only where a timeout cut a check short; otherwise a check did not run.
		did := "something did not run"
		if timedOut(r.NotRun) {
			did = "a check did not finish in time"
		}
		fmt.Fprintf(b, "tollgate: %sincomplete%s: %s on %s (see \"not run\"), so it is not clean (ran: %s) [%s]\n",
			p.yellow+p.bold, p.reset, did, what, checks, elapsed)
	default:
		// review --all reads whole files: their lines are read, not added.
		lines := plural(r.AddedLines, "added line")
		if r.Change.Kind == "all" {
			lines = plural(r.AddedLines, "line")
		}
		fmt.Fprintf(b, "tollgate: these checks, on this change, found nothing (%s; %s, %s) [%s]\n",
			checks, what, lines, elapsed)
	}
}

// timedOut reports a not-run entry that a timeout caused.
func timedOut(notRun []review.NotRun) bool {
	for _, n := range notRun {
		if strings.Contains(n.Reason, "timed out") || strings.Contains(n.Reason, "timeout") {
			return true
		}
	}
	return false
}

// plural is n and noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func describe(c review.ChangeInfo) string {
	files := plural(c.Files, "file")
	switch c.Kind {
	case "staged":
		return "the staged change, " + files
	case "commit":
		return "commit " + review.ShortCommit(c.Head) + ", " + files
	case "range":
		if c.Base == "" {
			return "the history up to " + review.ShortCommit(c.Head) + ", " + files
		}
		return "range " + review.ShortCommit(c.Base) + ".." + review.ShortCommit(c.Head) + ", " + files
	case "all":
		if c.Head == "index" {
			return "every file in the index, " + files
		}
		return "every file at " + review.ShortCommit(c.Head) + ", " + files
	case "push":
		return "the push, " + files
	case "message":
		return "the commit message"
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
