package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/rules"
	"github.com/tollgate-dev/tollgate/review/secrets"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/diff"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fakeScanner reports what its function adds.
type fakeScanner struct {
	name string
	scan func(u *diff.Unit, r *review.Result) error
}

func (s *fakeScanner) Name() string { return s.name }

func (s *fakeScanner) Scan(_ context.Context, u *diff.Unit, r *review.Result) error {
	return s.scan(u, r)
}

func quiet(name string) review.Scanner {
	return &fakeScanner{name: name, scan: func(*diff.Unit, *review.Result) error { return nil }}
}

func finding(rule string, sev policy.Severity, path string, line int, evidence string) review.Finding {
	return review.Finding{
		RuleID: rule, Severity: sev, Confidence: 1, CWE: []string{"CWE-798"}, Path: path,
		Line: line, EndLine: line, Message: "message for " + rule, Evidence: evidence, Source: "fake",
	}
}

func finds(fs ...review.Finding) review.Scanner {
	return &fakeScanner{name: "fake", scan: func(_ *diff.Unit, r *review.Result) error {
		for _, f := range fs {
			r.Add(f)
		}
		return nil
	}}
}

// testChange is two files with five added lines, as one commit.
func testChange(kind string) *diff.Change {
	return &diff.Change{
		Kind: kind, Base: "1111111111111111111111111111111111111111", Head: "2222222222222222222222222222222222222222",
		Units: []diff.Unit{{Commit: "2222222222222222222222222222222222222222", Files: []diff.FileDiff{
			{NewPath: "app/config.go", Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 3, difftest.Add(1, "a"), difftest.Add(2, "b"), difftest.Add(3, "c"))}},
			{OldPath: "main.go", NewPath: "main.go", Status: diff.Modified, Hunks: []diff.Hunk{difftest.Hunk(4, 1, 4, 2, difftest.Del(4, "x"), difftest.Add(4, "y"), difftest.Add(5, "z"))}},
		}}},
	}
}

func config(mod func(*policy.Config)) policy.Config {
	c := policy.Default()
	if mod != nil {
		mod(&c)
	}
	return c
}

var elapsedRE = regexp.MustCompile(`\[(?:<1ms|[0-9][0-9.hmnsµ]*)\]`)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./review/report/ -run TestReportGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is intended)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestReportGolden(t *testing.T) {
	controlPath := "docs/evil\x1b[2Jname\n.md"
	tests := []struct {
		name     string
		kind     string
		change   *diff.Change // testChange(kind) when nil
		cfg      policy.Config
		opts     func(*review.Options)
		scanners []review.Scanner
		status   string
		exit     int
	}{
		{
			name: "clean", kind: "staged", cfg: config(nil),
			scanners: []review.Scanner{quiet("builtin"), quiet("secrets")},
			status:   "clean", exit: 0,
		},
		{
			name: "findings", kind: "commit", cfg: config(nil),
			opts: func(o *review.Options) { o.Notes = []string{"rule set: gitleaks defaults"} },
			scanners: []review.Scanner{
				quiet("builtin"),
				&fakeScanner{name: "secrets", scan: func(_ *diff.Unit, r *review.Result) error {
					r.Add(finding("secrets/github-pat", policy.High, "app/config.go", 2, `token := "ghp_****"`))
					r.Add(finding("secrets/private-key", policy.Critical, "main.go", 5, "-----BEGIN RSA PRIVATE KEY-----****"))
					r.Add(finding("tollgate/todo", policy.Low, "app/config.go", 1, ""))
					r.Add(finding("secrets/generic-api-key", policy.Medium, controlPath, 3, "key = \x1b]0;pwned\x07 \"ab****\""))
					sql := finding("tollgate/sql-concatenation", policy.High, "app/config.go", 3, "")
					sql.CWE = []string{"CWE-89"}
					r.Add(sql.LineEvidence(`db.Query("SELECT * FROM users WHERE id=" + id)`, 3))
					key := finding("tollgate/private-key-file", policy.Critical, "deploy/prod key.pem", 1, "file: deploy/prod key.pem")
					key.CWE = []string{"CWE-321", "CWE-312"}
					r.Add(key)
					r.Suppressed = 2
					r.Binary = append(r.Binary, "img/logo.png", "img/logo.png", "bin/tool")
					return nil
				}},
			},
			status: "findings", exit: 1,
		},
		{
			// A token added in one commit of a push and removed in the next: the fix is a
			// history rewrite, not one more commit.
			name: "history", kind: "push", change: historyChange(), cfg: config(nil),
			scanners: []review.Scanner{&fakeScanner{name: "secrets", scan: func(u *diff.Unit, r *review.Result) error {
				for _, f := range u.Files {
					for l := range f.Added() {
						if i := strings.Index(l.Text, historyToken); i >= 0 {
							r.Add(finding("secrets/github-pat", policy.High, f.Path(), l.New, "").LineEvidence(l.Text, i, historyToken))
						}
					}
				}
				return nil
			}}},
			status: "findings", exit: 1,
		},
		{
			name: "below_fail_on", kind: "range", cfg: config(func(c *policy.Config) { c.FailOn = policy.High }),
			scanners: []review.Scanner{finds(
				finding("tollgate/todo", policy.Low, "main.go", 5, "// TODO"),
				finding("tollgate/debug", policy.Medium, "main.go", 4, "println(x)"),
			)},
			status: "findings", exit: 0,
		},
		{
			name: "incomplete", kind: "push", cfg: config(nil),
			opts: func(o *review.Options) {
				o.NotRun = []review.NotRun{{Component: "scanner:semgrep", Reason: "enabled but not installed"}}
			},
			scanners: []review.Scanner{
				quiet("secrets"),
				&fakeScanner{name: "gosec", scan: func(*diff.Unit, *review.Result) error { return errors.New("gosec exited with status 2: boom") }},
			},
			status: "incomplete", exit: 3,
		},
		{
			name: "truncated", kind: "staged", cfg: config(func(c *policy.Config) { c.MaxFindings = 2 }),
			scanners: []review.Scanner{finds(
				finding("secrets/aws-access-token", policy.High, "b.go", 1, "AKIA****"),
				finding("secrets/github-pat", policy.High, "a.go", 9, "ghp_****"),
				finding("tollgate/todo", policy.Low, "a.go", 1, "// TODO"),
				finding("secrets/private-key", policy.Critical, "c.go", 3, "-----BEGIN EC PRIVATE KEY-----****"),
			)},
			status: "findings", exit: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := review.Options{Config: tt.cfg, Scanners: tt.scanners, Version: "v0.0.0-test"}
			if tt.opts != nil {
				tt.opts(&opts)
			}
			ch := tt.change
			if ch == nil {
				ch = testChange(tt.kind)
			}
			rep := review.Run(context.Background(), ch, opts)
			if rep.Status != tt.status {
				t.Errorf("Status = %q, want %q", rep.Status, tt.status)
			}
			if got := rep.ExitCode(); got != tt.exit {
				t.Errorf("ExitCode = %d, want %d", got, tt.exit)
			}
			var js bytes.Buffer
			if err := (JSON{}).Write(&js, rep); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name+".json", js.Bytes())
			checkJSONContract(t, js.Bytes())

			var sf bytes.Buffer
			if err := (SARIF{Rules: rules.All()}).Write(&sf, rep); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name+".sarif", sf.Bytes())
			checkSARIF(t, rep, sf.Bytes())

			for _, color := range []bool{false, true} {
				var txt bytes.Buffer
				if err := (Text{Color: color, Fixes: testFixes(t)}).Write(&txt, rep); err != nil {
					t.Fatal(err)
				}
				if !elapsedRE.Match(txt.Bytes()) {
					t.Errorf("no elapsed time in brackets in %q", txt.String())
				}
				out := elapsedRE.ReplaceAll(txt.Bytes(), []byte("[T]"))
				name := tt.name + ".txt"
				if color {
					name = tt.name + "_color.txt"
				}
				golden(t, name, out)
				checkTerminalSafe(t, out, color)
			}
		})
	}
}

// historyToken is a GitHub token the history change adds in one commit and removes in the next.
const historyToken = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"

// historyChange is a push of three commits: the first adds a token to app.go and to keep.go,
// the second removes it from app.go, the third adds another line to keep.go.
func historyChange() *diff.Change {
	c1, c2, c3 := strings.Repeat("1", 40), strings.Repeat("2", 40), strings.Repeat("3", 40)
	line := `const token = "` + historyToken + `"`
	return &diff.Change{Kind: "push", Base: strings.Repeat("0", 40), Head: c3, Units: []diff.Unit{
		{Commit: c1, Files: []diff.FileDiff{
			{NewPath: "app.go", Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 2, difftest.Add(1, "package app"), difftest.Add(2, line))}},
			{NewPath: "keep.go", Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 1, difftest.Add(1, "\t"+line))}},
		}},
		{Commit: c2, Files: []diff.FileDiff{
			{OldPath: "app.go", NewPath: "app.go", Status: diff.Modified, Hunks: []diff.Hunk{difftest.Hunk(2, 1, 1, 0, difftest.Del(2, line))}},
		}},
		{Commit: c3, Files: []diff.FileDiff{
			{OldPath: "keep.go", NewPath: "keep.go", Status: diff.Modified, Hunks: []diff.Hunk{difftest.Hunk(1, 0, 2, 1, difftest.Add(2, "// more"))}},
		}},
	}}
}

// testFixes are the fixes the command passes: every built-in rule's and gitleaks' rules'.
func testFixes(t *testing.T) map[string]string {
	t.Helper()
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Fixes(rules.All(), secrets.Rules(det))
}

// checkJSONContract checks the shape docs/contract.md promises: every top-level key, arrays never null.
func checkJSONContract(t *testing.T, b []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	for _, k := range []string{"tool", "change", "status", "findings", "rejected", "not_run", "limits"} {
		v, ok := m[k]
		if !ok {
			t.Errorf("JSON report has no %q", k)
		}
		if string(v) == "null" {
			t.Errorf("JSON report has %q: null, want an empty array", k)
		}
	}
	var r struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		for _, k := range []string{"rule_id", "severity", "confidence", "cwe", "path", "line", "end_line", "message", "evidence", "source", "fingerprint"} {
			if _, ok := f[k]; !ok {
				t.Errorf("finding %v has no %q", f, k)
			}
		}
	}
}

// checkTerminalSafe: no control character but newline (and, with colour, SGR sequences).
func checkTerminalSafe(t *testing.T, out []byte, color bool) {
	t.Helper()
	s := string(out)
	if color {
		s = regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(s, "")
	}
	for _, r := range s {
		if r != '\n' && isControl(r) {
			t.Errorf("text report holds control character %U: %q", r, out)
			return
		}
	}
}

// TestJSONSafe: JSON and SARIF carry no raw C1 control or invisible character, and decode to
// the same value.
func TestJSONSafe(t *testing.T) {
	v := map[string]string{"path": "c1\u009b[2J\u202eevil\u200b\U000E0041.txt", "plain": "café \ufffd"}
	var buf bytes.Buffer
	if err := encodeJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, r := range out {
		if r >= 0x80 && redact.HiddenRune(r) {
			t.Errorf("raw %U in %s", r, out)
		}
	}
	for _, want := range []string{`\u009b`, `\u202e`, `\u200b`, `\udb40\udc41`, "café \ufffd"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s does not hold %s", out, want)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Errorf("decoded %q (%v), want %q", back, err, v)
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"app/main.go", "app/main.go"},
		{"café/ü.go", "café/ü.go"},
		{"a\tb", `a\x09b`},
		{"new\nline", `new\x0aline`},
		{"cr\r", `cr\x0d`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"del\x7f", `del\x7f`},
		{"c1\u009b2J", `c1\x9b2J`},
		{"nul\x00", `nul\x00`},
		{"raw c1 \x9b2J", `raw c1 \x9b2J`},
		{"not utf-8 \xff\xfe", `not utf-8 \xff\xfe`},
		{"rlo \u202eevil.txt", "rlo <U+202E>evil.txt"},
		{"zero\u200bwidth\ufeff", "zero<U+200B>width<U+FEFF>"},
		{"tag \U000E0041", "tag <U+E0041>"},
		{"replacement \ufffd stays", "replacement \ufffd stays"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Every field a scanner or a file name controls is escaped in the text report, not only paths
// and evidence: messages, rule ids, not-run reasons, limits and notes too.
func TestWriteTextEscapesEverything(t *testing.T) {
	esc := "\x1b]0;pwned\x07\x1b[2J\n"
	rep := &review.Report{
		Change:     review.ChangeInfo{Kind: "staged", Files: 1},
		Findings:   []review.Finding{{RuleID: "model/x" + esc, Severity: policy.High, CWE: []string{"CWE-1" + esc}, Path: "p" + esc, Line: 1, Message: "m" + esc, Evidence: "e" + esc}},
		NotRun:     []review.NotRun{{Component: "scanner:secrets" + esc, Reason: "big" + esc + ".txt: too large"}},
		Limits:     []string{"limit" + esc},
		SetupNotes: []string{"note" + esc},
		Binary:     []string{"b" + esc},
		FailOn:     policy.Medium,
	}
	var b bytes.Buffer
	if err := (Text{Fixes: map[string]string{"model/x" + esc: "fix PATH" + esc}}).Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	checkTerminalSafe(t, b.Bytes(), false)
	// One line per item: nothing injected a line break.
	if n := strings.Count(b.String(), "\n"); n != 9 {
		t.Errorf("text report has %d lines, want 9:\n%s", n, b.String())
	}
}

// checkSARIF asserts what GitHub code scanning relies on: version 2.1.0, relative URIs, a level
// and a security-severity for every result, a primaryLocationLineHash, rules for every ruleId,
// and an unsuccessful invocation when the review was incomplete.
func checkSARIF(t *testing.T, rep *review.Report, data []byte) {
	t.Helper()
	var v struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID         string            `json:"id"`
						Properties map[string]any    `json:"properties"`
						Help       map[string]string `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results []struct {
				RuleID              string            `json:"ruleId"`
				RuleIndex           int               `json:"ruleIndex"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Properties          map[string]any    `json:"properties"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.Version != "2.1.0" || len(v.Runs) != 1 || v.Runs[0].Tool.Driver.Name != "tollgate" {
		t.Fatalf("not a tollgate SARIF 2.1.0 log: %s", data)
	}
	run := v.Runs[0]
	if len(run.Results) != len(rep.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(rep.Findings))
	}
	if run.Invocations[0].ExecutionSuccessful == rep.Incomplete() {
		t.Errorf("executionSuccessful = %v for an incomplete=%v review", run.Invocations[0].ExecutionSuccessful, rep.Incomplete())
	}
	for i, r := range run.Results {
		f := rep.Findings[i]
		if r.RuleID != f.RuleID || run.Tool.Driver.Rules[r.RuleIndex].ID != f.RuleID {
			t.Errorf("result %d: ruleId %s / index %d do not name %s", i, r.RuleID, r.RuleIndex, f.RuleID)
		}
		if r.Level == "" || r.Properties["security-severity"] == nil || r.PartialFingerprints["primaryLocationLineHash"] == "" {
			t.Errorf("result %d lacks level, security-severity or fingerprint: %+v", i, r)
		}
		uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
		if strings.HasPrefix(uri, "/") || strings.Contains(uri, "://") || r.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("result %d: location %q line %d is not relative or has no line", i, uri, r.Locations[0].PhysicalLocation.Region.StartLine)
		}
	}
}

// TestNotesShown: the notes of a review (failed cache or audit writes) are shown in text after
// the setup notes, and in JSON under "notes", which is absent when there are none.
func TestNotesShown(t *testing.T) {
	rep := &review.Report{Status: "clean", SetupNotes: []string{"setup note"}, Notes: []string{"failed to write the model audit log: x"}}
	var text bytes.Buffer
	if err := (Text{}).Write(&text, rep); err != nil {
		t.Fatal(err)
	}
	setup, note := strings.Index(text.String(), "note: setup note\n"), strings.Index(text.String(), "note: failed to write the model audit log: x\n")
	if setup < 0 || note < setup {
		t.Errorf("want the note after the setup note:\n%s", text.String())
	}
	var js bytes.Buffer
	if err := (JSON{}).Write(&js, rep); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Notes *[]string `json:"notes"`
	}
	if err := json.Unmarshal(js.Bytes(), &m); err != nil || m.Notes == nil || len(*m.Notes) != 1 {
		t.Errorf("JSON notes = %v (%v):\n%s", m.Notes, err, js.String())
	}
	rep.Notes = nil
	js.Reset()
	if err := (JSON{}).Write(&js, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), `"notes"`) {
		t.Errorf("JSON without notes has a notes field:\n%s", js.String())
	}
}

// TestIncompleteWording: "did not finish" only when a timeout cut a check short; a check that
// did not run (a scanner not installed) says so, never that files did not finish.
func TestIncompleteWording(t *testing.T) {
	for _, tt := range []struct{ reason, want, not string }{
		{"enabled but not installed", "something did not run on", "did not finish"},
		{"timed out after 2m0s", "a check did not finish in time on", "something did not run"},
	} {
		rep := review.Run(context.Background(), testChange("staged"), review.Options{Config: config(nil),
			NotRun: []review.NotRun{{Component: "scanner:gosec", Reason: tt.reason}}})
		var b bytes.Buffer
		if err := New("text", Options{}).Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "incomplete: "+tt.want) || strings.Contains(b.String(), tt.not) {
			t.Errorf("not run %q: got\n%s", tt.reason, b.String())
		}
	}
}

// TestElapsedText: a review's time is whole milliseconds, and under one it says so instead of
// "0s".
func TestElapsedText(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "<1ms"}, {400 * time.Microsecond, "<1ms"}, {time.Millisecond, "1ms"},
		{3400 * time.Microsecond, "3ms"}, {1234567 * time.Microsecond, "1.235s"},
	} {
		if got := elapsedText(tc.d); got != tc.want {
			t.Errorf("elapsedText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
