//go:build ignore

// labelmatch is what histreport.go and treereport.go share (run together with either: go run
// scripts/histreport.go scripts/labelmatch.go): hand labels, the findings of tollgate's and
// gitleaks' JSON reports reduced to what a label names, and the matching of the two. A label
// never holds a secret's value, only where a finding is, its rule, a verdict and a reason.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// label is one hand label; commit and line may be "*" (any).
type label struct {
	repo, commit, path, line, tool, rule, verdict, reason string
	used                                                  bool
}

// finding is one finding of either tool, reduced to what a label names.
type finding struct {
	commit, path, rule string
	line               int
	label              *label
}

// tollgateReport is the part of tollgate's JSON report the reports read.
type tollgateReport struct {
	Status string `json:"status"`
	Change struct {
		Files int `json:"files"`
	} `json:"change"`
	Findings []struct {
		RuleID   string `json:"rule_id"`
		Severity string `json:"severity"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Message  string `json:"message"`
	} `json:"findings"`
	NotRun []struct {
		Component string `json:"component"`
		Reason    string `json:"reason"`
	} `json:"not_run"`
	Limits []string `json:"limits"`
}

var inCommit = regexp.MustCompile(`\(in commit ([0-9a-f]{7,40})\)`)

func short(c string) string { return c[:min(12, len(c))] }

// verdictLow labels a real pattern that its rule, by its own definition, reports at low: the
// evidence a blocking finding needs is absent (a shell=True command built from a settings path,
// not from outside data). At medium or above it counts as a false finding; reported at low it
// is right, and its absence at medium or above is no lost catch.
const verdictLow = "low"

// readLabels reads a label file: repo, commit, path, line, tool, rule, verdict, reason, or
// without the commit column (a tree has one commit) when withCommit is false.
func readLabels(path string, withCommit bool) []*label {
	want := 8
	if !withCommit {
		want = 7
	}
	var out []*label
	for _, cols := range readTSV(path) {
		if cols[0] == "repo" {
			continue
		}
		if len(cols) < want {
			fail("%s: a label has %d columns, want %d: %q", path, len(cols), want, strings.Join(cols, " "))
		}
		if !withCommit {
			cols = append([]string{cols[0], "*"}, cols[1:]...)
		}
		if cols[6] != "true" && cols[6] != "false" && cols[6] != verdictLow {
			fail("%s: verdict %q is neither true, false nor %s", path, cols[6], verdictLow)
		}
		if strings.TrimSpace(cols[7]) == "" {
			fail("%s: the label of %s:%s %s has no reason", path, cols[2], cols[3], cols[5])
		}
		out = append(out, &label{repo: cols[0], commit: cols[1], path: cols[2], line: cols[3], tool: cols[4], rule: cols[5], verdict: cols[6], reason: cols[7]})
	}
	return out
}

// classify attaches the matching label to each finding of tool in repo.
func classify(repo, tool string, fs []finding, labels []*label) []finding {
	for i := range fs {
		f := &fs[i]
		for _, l := range labels {
			if l.repo == repo && l.tool == tool && l.rule == f.rule && l.path == f.path &&
				(l.line == "*" || l.line == fmt.Sprint(f.line)) &&
				(l.commit == "*" || strings.HasPrefix(f.commit, l.commit) || strings.HasPrefix(l.commit, f.commit)) {
				f.label, l.used = l, true
				break
			}
		}
	}
	return fs
}

// counts returns true, false and unlabelled findings.
func counts(fs []finding) [3]int {
	var c [3]int
	for _, f := range fs {
		switch {
		case f.label == nil:
			c[2]++
		case f.label.verdict == "true":
			c[0]++
		default:
			c[1]++
		}
	}
	return c
}

// missing returns the findings of a labelled as wantTrue that b has nothing at (same commit,
// path and line, any rule).
func missing(a, b []finding, wantTrue bool) []finding {
	var out []finding
	for _, f := range a {
		if f.label == nil || (f.label.verdict == "true") != wantTrue {
			continue
		}
		found := false
		for _, g := range b {
			if g.path == f.path && g.line == f.line && (strings.HasPrefix(g.commit, f.commit) || strings.HasPrefix(f.commit, g.commit)) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, f)
		}
	}
	return out
}

// lostTrue returns tollgate's true labels of repo that no current finding matches.
func lostTrue(repo string, labels []*label, tg []finding) []*label {
	var out []*label
	for _, l := range labels {
		if l.repo != repo || l.tool != "tollgate" || l.verdict != "true" {
			continue
		}
		found := false
		for _, f := range tg {
			if f.label == l {
				found = true
				break
			}
		}
		if !found {
			out = append(out, l)
		}
	}
	return out
}

func readTSV(path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, strings.Split(line, "\t"))
		}
	}
	return out
}

// readTollgate returns a tollgate JSON report and its findings at medium or above.
func readTollgate(path string) (tollgateReport, []finding) {
	var rep tollgateReport
	readJSON(path, &rep)
	var out []finding
	for _, f := range rep.Findings {
		if f.Severity != "medium" && f.Severity != "high" && f.Severity != "critical" {
			continue
		}
		c := ""
		if m := inCommit.FindStringSubmatch(f.Message); m != nil {
			c = m[1]
		}
		out = append(out, finding{commit: c, path: f.Path, line: f.Line, rule: f.RuleID})
	}
	return rep, out
}

// readGitleaks returns the findings of a gitleaks JSON report (git or dir mode; a path is made
// relative to the folder scanned).
func readGitleaks(path string) []finding {
	var rep []struct {
		RuleID    string
		File      string
		StartLine int
		Commit    string
	}
	readJSON(path, &rep)
	out := make([]finding, 0, len(rep))
	for _, f := range rep {
		out = append(out, finding{commit: f.Commit, path: strings.TrimPrefix(f.File, "./"), line: f.StartLine, rule: f.RuleID})
	}
	return out
}

func readJSON(path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		fail("%s: %v", path, err)
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, filepath.Base(os.Args[0])+": "+format+"\n", a...)
	os.Exit(2)
}

// list prints, with verbose, every finding of tool with its verdict and reason; with emit, a
// label line (verdict "?") for each unlabelled one, with a commit column when withCommit.
func list(repo, tool string, fs []finding, verbose, emit, withCommit bool) {
	for _, f := range fs {
		where := ""
		if withCommit {
			where = short(f.commit) + " "
		}
		switch {
		case f.label == nil && emit:
			fmt.Printf("%s\t%s%s\t%d\t%s\t%s\t?\t\n", repo, strings.ReplaceAll(where, " ", "\t"), f.path, f.line, tool, f.rule)
		case f.label == nil && verbose:
			fmt.Printf("    %s unlabelled: %s%s:%d %s\n", tool, where, f.path, f.line, f.rule)
		case f.label != nil && verbose:
			fmt.Printf("    %s %s: %s%s:%d %s (%s)\n", tool, f.label.verdict, where, f.path, f.line, f.rule, f.label.reason)
		}
	}
}
