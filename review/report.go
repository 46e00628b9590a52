package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
)

// Report is the outcome of one review; its JSON form is the contract in DESIGN.md.
type Report struct {
	Tool     Tool       `json:"tool"`
	Change   ChangeInfo `json:"change"`
	Status   string     `json:"status"`
	Findings []Finding  `json:"findings"`
	Rejected []Rejected `json:"rejected"`
	NotRun   []NotRun   `json:"not_run"`
	Limits   []string   `json:"limits"`
	// Suppressed counts findings dropped by inline allow markers or .gitleaksignore.
	Suppressed int `json:"suppressed"`

	failOn     policy.Severity
	ran        []string
	binary     []string
	addedLines int
	notes      []string
	elapsed    time.Duration
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

// Incomplete reports whether something meant to run did not, or a limit cut the review short.
func (r *Report) Incomplete() bool { return len(r.NotRun) > 0 || len(r.Limits) > 0 }

// SetFailOn overrides the severity at which the review fails (the --fail-on flag).
func (r *Report) SetFailOn(s policy.Severity) { r.failOn = s }

// Failing returns the findings at or above the fail-on severity.
func (r *Report) Failing() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity >= r.failOn {
			n++
		}
	}
	return n
}

// ExitCode maps the report to the contract's exit codes: 1 for failing findings (which wins),
// 3 for an incomplete review, 0 otherwise.
func (r *Report) ExitCode() int {
	switch {
	case r.Failing() > 0:
		return 1
	case r.Incomplete():
		return 3
	}
	return 0
}

// WriteJSON renders the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error { return encodeJSON(w, r) }

// TextOptions control the text rendering.
type TextOptions struct {
	Color bool
}

type palette struct{ red, yellow, bold, dim, reset string }

func colors(on bool) palette {
	if !on {
		return palette{}
	}
	return palette{red: "\x1b[31m", yellow: "\x1b[33m", bold: "\x1b[1m", dim: "\x1b[2m", reset: "\x1b[0m"}
}

// WriteText renders the report for a person: findings grouped by file, then what did not run,
// then one summary line.
func (r *Report) WriteText(w io.Writer, o TextOptions) error {
	p := colors(o.Color)
	var b strings.Builder
	what := describe(r.Change)
	byPath := map[string][]Finding{}
	var paths []string
	for _, f := range r.Findings {
		if _, ok := byPath[f.Path]; !ok {
			paths = append(paths, f.Path)
		}
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	sort.Strings(paths)
	for _, path := range paths {
		fmt.Fprintf(&b, "%s%s%s\n", p.bold, printable(path), p.reset)
		for _, f := range byPath[path] {
			col := p.yellow
			if f.Severity >= policy.High {
				col = p.red
			}
			fmt.Fprintf(&b, "  %d: %s%s%s %s: %s\n", f.Line, col, f.Severity, p.reset, printable(f.RuleID), printable(f.Message))
			if f.Evidence != "" {
				fmt.Fprintf(&b, "      %s%s%s\n", p.dim, printable(f.Evidence), p.reset)
			}
		}
	}
	for _, x := range r.Rejected {
		fmt.Fprintf(&b, "rejected: %s:%d %s: %s\n", printable(x.Path), x.Line, printable(x.RuleID), printable(x.Reason))
	}
	for _, n := range r.NotRun {
		fmt.Fprintf(&b, "%snot run%s: %s: %s\n", p.yellow, p.reset, printable(n.Component), printable(n.Reason))
	}
	for _, l := range r.Limits {
		fmt.Fprintf(&b, "%slimit%s: %s\n", p.yellow, p.reset, printable(l))
	}
	for _, n := range r.notes {
		fmt.Fprintf(&b, "note: %s\n", printable(n))
	}
	if len(r.binary) > 0 {
		fmt.Fprintf(&b, "note: %d binary file(s) checked by name only: %s\n", len(r.binary), printable(strings.Join(r.binary, ", ")))
	}
	if r.Suppressed > 0 {
		fmt.Fprintf(&b, "note: %d finding(s) suppressed by inline allow markers or .gitleaksignore\n", r.Suppressed)
	}
	checks := "no checks"
	if len(r.ran) > 0 {
		checks = strings.Join(r.ran, ", ")
	}
	elapsed := r.elapsed.Round(time.Millisecond)
	switch {
	case len(r.Findings) > 0:
		fail := r.Failing()
		verdict := fmt.Sprintf("%sblocked%s: %d at or above %s", p.red+p.bold, p.reset, fail, r.failOn)
		if fail == 0 {
			verdict = fmt.Sprintf("not blocking: none at or above %s", r.failOn)
		}
		fmt.Fprintf(&b, "tollgate: %d finding(s) in %d file(s) of %s (%s); %s [%s]\n",
			len(r.Findings), len(paths), what, severityCounts(r.Findings), verdict, elapsed)
		if fail > 0 {
			b.WriteString("tollgate: hint: fix or remove what is reported, or mark a false positive with an inline `tollgate:allow` comment\n")
		}
	case r.Incomplete():
		fmt.Fprintf(&b, "tollgate: %sincomplete%s: the review of %s did not finish, so it is not clean (ran: %s) [%s]\n",
			p.yellow+p.bold, p.reset, what, checks, elapsed)
	default:
		fmt.Fprintf(&b, "tollgate: these checks, on this change, found nothing (%s; %s, %d added lines) [%s]\n",
			checks, what, r.addedLines, elapsed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func describe(c ChangeInfo) string {
	files := fmt.Sprintf("%d file", c.Files)
	if c.Files != 1 {
		files += "s"
	}
	switch c.Kind {
	case "staged":
		return "the staged change, " + files
	case "commit":
		return "commit " + short(c.Head) + ", " + files
	case "range":
		return "range " + short(c.Base) + ".." + short(c.Head) + ", " + files
	case "push":
		return "the push, " + files
	}
	return c.Kind + ", " + files
}

func severityCounts(fs []Finding) string {
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

// jsonSafe rewrites encoded JSON so that no character a terminal would act on or hide is left
// raw: C1 controls and invisible characters inside strings become \uXXXX escapes (the JSON
// encoder escapes only C0 controls and U+2028/U+2029). The decoded value is unchanged.
func jsonSafe(data []byte) []byte {
	s := string(data)
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 && redact.HiddenRune(r) }) {
		return data
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 || !redact.HiddenRune(r) {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
			continue
		}
		fmt.Fprintf(&b, "\\u%04x", r)
	}
	return []byte(b.String())
}

// encodeJSON writes v as indented JSON with jsonSafe applied.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(buf.Bytes()))
	return err
}
