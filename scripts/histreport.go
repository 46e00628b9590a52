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
	"flag"
	"fmt"
	"os"
	"sort"
)

type project struct{ name, split, repo, tg, gl string }

func main() {
	labelsPath := flag.String("labels", "", "history-labels.tsv")
	projectsPath := flag.String("projects", "", "projects.tsv written by eval-history.sh (name, split, repo, tollgate JSON, gitleaks JSON)")
	verbose := flag.Bool("v", false, "list every finding with its verdict")
	emit := flag.Bool("emit", false, "print a label line for each unlabelled finding")
	flag.Parse()
	labels := readLabels(*labelsPath, true)
	projects := readProjects(*projectsPath)
	fmt.Printf("%-26s %-8s | %-26s | %-26s | %s\n", "project", "split", "tollgate medium+ T/F/?", "gitleaks T/F/?", "goal")
	ok := true
	var tot [2][3]int
	for _, p := range projects {
		_, tgf := readTollgate(p.tg)
		tg := classify(p.repo, "tollgate", tgf, labels)
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
		list(p.repo, "tollgate", tg, *verbose, *emit, true)
		list(p.repo, "gitleaks", gl, *verbose, *emit, true)
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
