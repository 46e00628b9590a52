package review

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// fakeScanner reports what its function adds.
type fakeScanner struct {
	name string
	scan func(u *diff.Unit, r *Result) error
}

func (s *fakeScanner) Name() string { return s.name }

func (s *fakeScanner) Scan(_ context.Context, u *diff.Unit, r *Result) error { return s.scan(u, r) }

func finding(rule string, sev policy.Severity, path string, line int, evidence string) Finding {
	return Finding{
		RuleID: rule, Severity: sev, Confidence: 1, CWE: []string{"CWE-798"}, Path: path,
		Line: line, EndLine: line, Message: "message for " + rule, Evidence: evidence, Source: "fake",
	}
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

func TestExitCode(t *testing.T) {
	hi := finding("r/hi", policy.High, "a", 1, "")
	lo := finding("r/lo", policy.Low, "a", 2, "")
	med := finding("r/med", policy.Medium, "a", 3, "")
	notRun := []NotRun{{Component: "scanner:gosec", Reason: "not installed"}}
	limits := []string{"context.max_files reached (20)"}
	tests := []struct {
		name     string
		findings []Finding
		notRun   []NotRun
		limits   []string
		failOn   policy.Severity
		want     int
	}{
		{"clean", nil, nil, nil, policy.Medium, 0},
		{"failing finding", []Finding{hi}, nil, nil, policy.Medium, 1},
		{"finding exactly at fail_on", []Finding{med}, nil, nil, policy.Medium, 1},
		{"findings below fail_on", []Finding{lo, med}, nil, nil, policy.High, 0},
		{"failing wins over not run", []Finding{hi}, notRun, nil, policy.Medium, 1},
		{"failing wins over a limit", []Finding{lo, hi}, nil, limits, policy.High, 1},
		{"below fail_on and incomplete", []Finding{lo}, notRun, nil, policy.Medium, 3},
		{"not run", nil, notRun, nil, policy.Medium, 3},
		{"a limit alone is a note, not incomplete", nil, nil, limits, policy.Medium, 0},
		{"fail_on info fails on anything", []Finding{lo}, nil, nil, policy.Info, 1},
		{"fail_on critical", []Finding{hi}, nil, nil, policy.Critical, 0},
	}
	for _, tt := range tests {
		r := &Report{Findings: tt.findings, NotRun: tt.notRun, Limits: tt.limits, FailOn: tt.failOn}
		if got := r.ExitCode(); got != tt.want {
			t.Errorf("%s: ExitCode = %d, want %d", tt.name, got, tt.want)
		}
	}
	// --fail-on overrides the configured severity.
	r := &Report{Findings: []Finding{med}, FailOn: policy.High}
	if r.ExitCode() != 0 {
		t.Fatal("medium finding failed at fail_on high")
	}
	r.SetFailOn(policy.Low)
	if r.ExitCode() != 1 || r.Failing() != 1 {
		t.Errorf("after SetFailOn(low): ExitCode = %d, Failing = %d", r.ExitCode(), r.Failing())
	}
	// Through Run: the configured fail_on applies, and a scanner error is never clean.
	rep := Run(context.Background(), testChange("staged"), Options{
		Config:   config(nil),
		Scanners: []Scanner{&fakeScanner{name: "x", scan: func(*diff.Unit, *Result) error { return errors.New("crashed") }}},
	})
	if rep.ExitCode() != 3 || rep.Status != "incomplete" || len(rep.NotRun) != 1 || rep.NotRun[0].Component != "scanner:x" {
		t.Errorf("failed scanner: exit %d status %q not_run %+v", rep.ExitCode(), rep.Status, rep.NotRun)
	}
}

func TestOrder(t *testing.T) {
	mk := func(rule string, sev policy.Severity, path string, line int, conf float64, ev string) Finding {
		f := finding(rule, sev, path, line, ev)
		f.Confidence = conf
		f.Fingerprint = fingerprint(&f)
		return f
	}
	in := []Finding{
		mk("r/b", policy.Medium, "b.go", 2, 1, "x"),
		mk("r/a", policy.Medium, "b.go", 2, 1, "y"),
		mk("r/low", policy.Low, "a.go", 1, 1, "z"),
		mk("r/crit", policy.Critical, "z.go", 9, 1, "w"),
		mk("r/b", policy.Medium, "b.go", 1, 1, "v"),
		mk("r/b", policy.Medium, "a.go", 7, 1, "u"),
		// same rule, path and evidence as the first, another line: another finding
		mk("r/b", policy.Medium, "b.go", 40, 1, "x"),
		// same commit, path, line and rule as the first (another message): the same finding
		mk("r/b", policy.Medium, "b.go", 2, 1, "x2"),
		mk("r/unsure", policy.High, "a.go", 1, 0.49, "t"),
		mk("r/sure", policy.High, "a.go", 2, 0.5, "s"),
	}
	type key struct {
		rule string
		path string
		line int
	}
	keys := func(fs []Finding) []key {
		var out []key
		for _, f := range fs {
			out = append(out, key{f.RuleID, f.Path, f.Line})
		}
		return out
	}
	got, limits := order(in, config(func(c *policy.Config) { c.MinConfidence = 0.5 }), nil, nil, false)
	want := []key{
		{"r/crit", "z.go", 9},
		{"r/sure", "a.go", 2},
		{"r/b", "a.go", 7},
		{"r/b", "b.go", 1},
		{"r/a", "b.go", 2},
		{"r/b", "b.go", 2},
		{"r/b", "b.go", 40},
		{"r/low", "a.go", 1},
	}
	if !reflect.DeepEqual(keys(got), want) {
		t.Errorf("order =\n %v\nwant\n %v", keys(got), want)
	}
	if limits == nil || len(limits) != 0 {
		t.Errorf("limits = %#v, want an empty, non-nil list", limits)
	}
	// min_confidence 0 keeps everything but the duplicate.
	got, _ = order(in, config(nil), nil, nil, false)
	if len(got) != len(in)-1 {
		t.Errorf("order kept %d of %d findings, want all but the duplicate", len(got), len(in))
	}
	// Truncation keeps the most severe and says how many were cut, after existing limits.
	got, limits = order(in, config(func(c *policy.Config) { c.MaxFindings = 3 }), []string{"context.max_files reached (20)"}, nil, false)
	if !reflect.DeepEqual(keys(got), []key{{"r/crit", "z.go", 9}, {"r/unsure", "a.go", 1}, {"r/sure", "a.go", 2}}) {
		t.Errorf("truncated = %v", keys(got))
	}
	if len(limits) != 2 || limits[0] != "context.max_files reached (20)" ||
		!strings.Contains(limits[1], "review.max_findings reached (3)") || !strings.Contains(limits[1], "6 more") {
		t.Errorf("limits = %q", limits)
	}
	// Alike findings on two lines get two fingerprints; the first keeps the plain one.
	got, _ = order(in, config(nil), nil, nil, false)
	fps := map[string]key{}
	for _, f := range got {
		if k, dup := fps[f.Fingerprint]; dup {
			t.Errorf("%v and %v share the fingerprint %s", k, key{f.RuleID, f.Path, f.Line}, f.Fingerprint)
		}
		fps[f.Fingerprint] = key{f.RuleID, f.Path, f.Line}
	}
	if k := fps[in[0].Fingerprint]; k != (key{"r/b", "b.go", 2}) {
		t.Errorf("the first alike finding has fingerprint %s of %v", in[0].Fingerprint, k)
	}
	// The same location in two commits of a range: two findings, each with the content's
	// fingerprint.
	c1, c2 := mk("r/b", policy.Medium, "b.go", 2, 1, "x"), mk("r/b", policy.Medium, "b.go", 2, 1, "x")
	c1.commit, c2.commit = "aaaa", "bbbb"
	got, _ = order([]Finding{c1, c2, c2}, config(nil), nil, nil, false)
	if len(got) != 2 || got[0].Fingerprint != got[1].Fingerprint || got[0].Fingerprint != c1.Fingerprint {
		t.Errorf("two commits: %d findings, fingerprints %v", len(got), got)
	}
	// Exactly max_findings: no limit.
	if _, limits := order(in[:2], config(func(c *policy.Config) { c.MaxFindings = 2 }), nil, nil, false); len(limits) != 0 {
		t.Errorf("limits at exactly max_findings = %q", limits)
	}
}

func TestFingerprint(t *testing.T) {
	a := finding("secrets/github-pat", policy.High, "a.go", 1, "ghp_****")
	b := a
	b.Line, b.EndLine, b.Message, b.Severity = 90, 91, "other", policy.Low
	if fingerprint(&a) != fingerprint(&b) {
		t.Error("fingerprint depends on line, message or severity")
	}
	if len(fingerprint(&a)) != 32 {
		t.Errorf("fingerprint %q is not 32 hex digits", fingerprint(&a))
	}
	for _, mod := range []func(*Finding){
		func(f *Finding) { f.RuleID = "secrets/other" },
		func(f *Finding) { f.Path = "b.go" },
		func(f *Finding) { f.Evidence = "ghp_****x" },
		// field boundaries matter: "ab"+"c" is not "a"+"bc"
		func(f *Finding) { f.RuleID, f.Path = "secrets/github-pata.g", "o" },
	} {
		c := a
		mod(&c)
		if fingerprint(&c) == fingerprint(&a) {
			t.Errorf("fingerprint unchanged by %+v", c)
		}
	}
}

// TestCutWholeTree: under --all, max_findings never hides a finding at or above fail_on; it
// cuts only below it and says how many it left out. Other reviews cut at max as before.
func TestCutWholeTree(t *testing.T) {
	var in []Finding
	for i := range 5 {
		in = append(in, Finding{RuleID: "r", Path: "a", Line: i + 1, Severity: policy.High, Confidence: 1})
	}
	for i := range 4 {
		in = append(in, Finding{RuleID: "r", Path: "b", Line: i + 1, Severity: policy.Low, Confidence: 1})
	}
	cfg := config(func(c *policy.Config) { c.MaxFindings = 3 })
	got, limits := order(in, cfg, nil, nil, true)
	if len(got) != 5 || got[4].Severity != policy.High {
		t.Fatalf("whole tree kept %d findings, want the 5 at or above fail_on", len(got))
	}
	if len(limits) != 1 || !strings.Contains(limits[0], "4 more findings below fail_on (medium") {
		t.Errorf("limits = %q, want a count of the 4 low ones left out", limits)
	}
	got, limits = order(in, cfg, nil, nil, false)
	if len(got) != 3 || len(limits) != 1 || !strings.Contains(limits[0], "6 more findings not shown") {
		t.Errorf("a commit review kept %d findings, limits %q; want 3 and 6 more", len(got), limits)
	}
	cfg.MaxFindings = 100
	if got, limits = order(in, cfg, nil, nil, true); len(got) != 9 || len(limits) != 0 {
		t.Errorf("under the limit: %d findings, limits %q", len(got), limits)
	}
}
