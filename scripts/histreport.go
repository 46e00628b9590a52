//go:build ignore

// histreport prints what scripts/eval-history.sh measures: per project, tollgate's findings at
// medium or above and gitleaks' findings on the same commits, each matched to a hand label in
// scripts/history-labels.tsv (true: a real secret or a real risk as the rule describes it;
// false: a placeholder, a template, a fixture, a clearly fake example), and checks issue 9's
// goal: tollgate has no more false findings than gitleaks, and keeps every true catch (its own
// labelled ones, and every one gitleaks makes). It exits 1 when the goal is missed. -v lists
// the findings behind each count; -emit prints a label line for each unlabelled finding.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

// label is one line of history-labels.tsv; commit and line may be "*" (any).
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

type project struct{ name, split, repo, tg, gl string }

var inCommit = regexp.MustCompile(`\(in commit ([0-9a-f]{7,40})\)`)

func main() {
	labelsPath := flag.String("labels", "", "history-labels.tsv")
	projectsPath := flag.String("projects", "", "projects.tsv written by eval-history.sh (name, split, repo, tollgate JSON, gitleaks JSON)")
	verbose := flag.Bool("v", false, "list every finding with its verdict")
	emit := flag.Bool("emit", false, "print a label line for each unlabelled finding")
	flag.Parse()
	labels := readLabels(*labelsPath)
	projects := readProjects(*projectsPath)
	fmt.Printf("%-26s %-8s | %-26s | %-26s | %s\n", "project", "split", "tollgate medium+ T/F/?", "gitleaks T/F/?", "goal")
	ok := true
	var tot [2][3]int
	for _, p := range projects {
		tg := classify(p.repo, "tollgate", readTollgate(p.tg), labels)
		gl := classify(p.repo, "gitleaks", readGitleaks(p.gl), labels)
		tc, gc := counts(tg), counts(gl)
		for i := range 3 {
			tot[0][i] += tc[i]
			tot[1][i] += gc[i]
		}
		missedByTG := missing(gl, tg, true)
		missedByGL := missing(tg, gl, true)
		lost := lostTrue(p.repo, labels, tg)
		met := tc[1] <= gc[1] && len(missedByTG) == 0 && len(lost) == 0 && tc[2] == 0 && gc[2] == 0
		ok = ok && met
		fmt.Printf("%-26s %-8s | %8d / %5d / %5d   | %8d / %5d / %5d   | %s\n", p.name, p.split, tc[0], tc[1], tc[2], gc[0], gc[1], gc[2], verdict(met, tc, gc))
		for _, f := range missedByTG {
			fmt.Printf("    gitleaks' true catch missed by tollgate: %s %s:%d %s\n", short(f.commit), f.path, f.line, f.rule)
		}
		for _, l := range lost {
			fmt.Printf("    labelled true, no longer reported by tollgate: %s %s:%s %s\n", l.commit, l.path, l.line, l.rule)
		}
		for _, f := range missedByGL {
			fmt.Printf("    tollgate's true catch gitleaks misses: %s %s:%d %s (%s)\n", short(f.commit), f.path, f.line, f.rule, f.label.reason)
		}
		list(p.repo, "tollgate", tg, *verbose, *emit)
		list(p.repo, "gitleaks", gl, *verbose, *emit)
	}
	fmt.Printf("%-26s %-8s | %8d / %5d / %5d   | %8d / %5d / %5d   |\n", "total", "", tot[0][0], tot[0][1], tot[0][2], tot[1][0], tot[1][1], tot[1][2])
	if !ok {
		fmt.Println("  FAIL history: goal missed on a project (more false findings than gitleaks, a true catch missed, or unlabelled findings)")
		os.Exit(1)
	}
	fmt.Println("  PASS history: on every project no more false findings than gitleaks, every true catch kept")
}

func verdict(met bool, tc, gc [3]int) string {
	switch {
	case tc[2] > 0 || gc[2] > 0:
		return "unlabelled findings"
	case met:
		return "met"
	}
	return "MISSED"
}

func short(c string) string { return c[:min(12, len(c))] }

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

func list(repo, tool string, fs []finding, verbose, emit bool) {
	for _, f := range fs {
		switch {
		case f.label == nil && emit:
			fmt.Printf("%s\t%s\t%s\t%d\t%s\t%s\t?\t\n", repo, short(f.commit), f.path, f.line, tool, f.rule)
		case f.label == nil && verbose:
			fmt.Printf("    %s unlabelled: %s %s:%d %s\n", tool, short(f.commit), f.path, f.line, f.rule)
		case f.label != nil && verbose:
			fmt.Printf("    %s %s: %s %s:%d %s (%s)\n", tool, f.label.verdict, short(f.commit), f.path, f.line, f.rule, f.label.reason)
		}
	}
}

func readLabels(path string) []*label {
	var out []*label
	for _, cols := range readTSV(path) {
		if len(cols) < 8 || cols[0] == "repo" {
			continue
		}
		if cols[6] != "true" && cols[6] != "false" {
			fail("%s: verdict %q is neither true nor false", path, cols[6])
		}
		out = append(out, &label{repo: cols[0], commit: cols[1], path: cols[2], line: cols[3], tool: cols[4], rule: cols[5], verdict: cols[6], reason: cols[7]})
	}
	return out
}

func readProjects(path string) []project {
	var out []project
	for _, cols := range readTSV(path) {
		if len(cols) < 5 {
			fail("%s: a line has %d columns, want 5", path, len(cols))
		}
		out = append(out, project{name: cols[0], split: cols[1], repo: cols[2], tg: cols[3], gl: cols[4]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].split > out[j].split })
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

// readTollgate returns the findings at medium or above of a tollgate JSON report.
func readTollgate(path string) []finding {
	var rep struct {
		Findings []struct {
			RuleID   string `json:"rule_id"`
			Severity string `json:"severity"`
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Message  string `json:"message"`
		} `json:"findings"`
	}
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
	return out
}

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
		out = append(out, finding{commit: f.Commit, path: f.File, line: f.StartLine, rule: f.RuleID})
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
	fmt.Fprintf(os.Stderr, "histreport: "+format+"\n", a...)
	os.Exit(2)
}
