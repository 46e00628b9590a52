//go:build ignore

// treereport prints what scripts/eval-trees.sh measures (run with scripts/labelmatch.go): per
// repository tree, tollgate's findings at medium or above of `review --all` and gitleaks' of
// `gitleaks dir` on the same files, each matched to a hand label in scripts/trees-labels.tsv,
// then the totals, and the precision of tollgate's own rules (tollgate/*) per rule. It checks
// issue 30's goals on the trees together: no more false findings at medium or above than
// gitleaks, every true catch kept (tollgate's labelled ones, and every one gitleaks makes),
// tollgate's own rules right at least half the time they fire (a label "low" is a real
// pattern its rule reports at low: false at medium+, and lost when not reported at all), and
// no unlabelled finding (a
// finding no label names is counted apart, so a new finding after a change shows up). It exits
// 1 when a goal is missed. -v lists the findings behind each count; -emit prints a label line
// for each unlabelled finding.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// tree is one line of the trees file eval-trees.sh writes: files is the tree's file count,
// absent how many of them the snapshot lacks.
type tree struct {
	name, repo, commit, tg, gl string
	files, absent              int
}

// tally is true, false and unlabelled findings.
type tally [3]int

func (t *tally) add(c tally) {
	for i := range t {
		t[i] += c[i]
	}
}

func (t tally) precision() string {
	if t[0]+t[1] == 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", 100*t[0]/(t[0]+t[1]))
}

// sums is what the trees add up to.
type sums struct {
	tot          [2]tally // tollgate, gitleaks
	lost, unread int
	rules        map[string]*tally
}

func main() {
	labelsPath := flag.String("labels", "", "trees-labels.tsv")
	treesPath := flag.String("trees", "", "trees.tsv written by eval-trees.sh (name, repo, commit, tollgate JSON, gitleaks JSON, files, files absent)")
	verbose := flag.Bool("v", false, "list every finding with its verdict")
	emit := flag.Bool("emit", false, "print a label line for each unlabelled finding")
	flag.Parse()
	labels := readLabels(*labelsPath, false)
	fmt.Printf("%-18s %-12s | %-24s | %-24s | %s\n", "tree", "commit", "tollgate medium+ T/F/?", "gitleaks T/F/?", "")
	s := &sums{rules: map[string]*tally{}}
	for _, t := range readTrees(*treesPath) {
		tg, gl := measure(t, labels, s)
		list(t.repo, "tollgate", tg, *verbose, *emit, false)
		list(t.repo, "gitleaks", gl, *verbose, *emit, false)
	}
	tot := s.tot
	fmt.Printf("%-18s %-12s | %8d / %5d / %5d | %8d / %5d / %5d |\n", "total", "", tot[0][0], tot[0][1], tot[0][2], tot[1][0], tot[1][1], tot[1][2])
	own := printRules(s.rules)
	fixed := 0
	for _, l := range labels {
		if l.tool == "tollgate" && l.verdict == "false" && !l.used {
			fixed++
		}
	}
	fmt.Printf("labelled false findings of tollgate no longer reported at medium+: %d\n", fixed)
	ok := goal(tot[0][1] <= tot[1][1], "false findings at medium+: tollgate %d, gitleaks %d", tot[0][1], tot[1][1])
	ok = goal(s.lost == 0, "true catches lost (gitleaks' or tollgate's labelled ones): %d", s.lost) && ok
	ok = goal(2*own[0] >= own[0]+own[1], "tollgate's own rules right %d of %d times at medium+ (%s)", own[0], own[0]+own[1], own.precision()) && ok
	ok = goal(s.unread == 0, "trees where tollgate left readable files unreviewed: %d (their findings are missing from its counts)", s.unread) && ok
	ok = goal(tot[0][2]+tot[1][2] == 0, "unlabelled findings: tollgate %d, gitleaks %d", tot[0][2], tot[1][2]) && ok
	if !ok {
		os.Exit(1)
	}
}

// measure reads one tree's reports, prints its line (and what tollgate did not review, lost
// catches) and adds it to s; it returns both tools' labelled findings.
func measure(t tree, labels []*label, s *sums) ([]finding, []finding) {
	rep, tgf := readTollgate(t.tg)
	tg := classify(t.repo, "tollgate", tgf, labels)
	gl := classify(t.repo, "gitleaks", readGitleaks(t.gl), labels)
	tc, gc := tally(counts(tg)), tally(counts(gl))
	s.tot[0].add(tc)
	s.tot[1].add(gc)
	for _, f := range tg {
		if s.rules[f.rule] == nil {
			s.rules[f.rule] = &tally{}
		}
		s.rules[f.rule].add(counts([]finding{f}))
	}
	missedByTG := missing(gl, tg, true)
	lostLabels := lostTrue(t.repo, labels, tg)
	s.lost += len(missedByTG) + len(lostLabels)
	note := ""
	if tc[1] > gc[1] {
		note = "more false than gitleaks"
	}
	fmt.Printf("%-18s %-12s | %8d / %5d / %5d | %8d / %5d / %5d | %s\n", t.name, short(t.commit), tc[0], tc[1], tc[2], gc[0], gc[1], gc[2], note)
	unread := rep.Change.Files < t.files-t.absent
	if unread {
		s.unread++
	}
	if rep.Status == "incomplete" || len(rep.NotRun) > 0 || unread {
		fmt.Printf("    tollgate status %s, %d of the %d files reviewed (%d absent from the snapshot)\n", rep.Status, rep.Change.Files, t.files, t.absent)
	}
	for _, n := range rep.NotRun {
		fmt.Printf("    not run: %s: %s\n", n.Component, n.Reason)
	}
	for _, f := range missedByTG {
		fmt.Printf("    gitleaks' true catch missed by tollgate at medium+: %s:%d %s (%s)\n", f.path, f.line, f.rule, f.label.reason)
	}
	for _, l := range lostLabels {
		fmt.Printf("    labelled true, no longer reported by tollgate at medium+: %s:%s %s\n", l.path, l.line, l.rule)
	}
	for _, l := range labels {
		if l.repo == t.repo && l.tool == "tollgate" && l.verdict == verdictLow && !reportedAnywhere(rep, l) {
			s.lost++
			fmt.Printf("    labelled low, no longer reported by tollgate at all: %s:%s %s\n", l.path, l.line, l.rule)
		}
	}
	return tg, gl
}

// reportedAnywhere reports whether tollgate's report has label l's finding at any severity.
func reportedAnywhere(rep tollgateReport, l *label) bool {
	for _, f := range rep.Findings {
		if f.Path == l.path && f.RuleID == l.rule && (l.line == "*" || fmt.Sprint(f.Line) == l.line) {
			return true
		}
	}
	return false
}

// printRules prints tollgate's findings at medium+ per rule, its own rules (tollgate/*) each
// with its precision, gitleaks' rules inside tollgate (secrets/*) together, and returns the
// own rules' total.
func printRules(rules map[string]*tally) tally {
	var own, gl tally
	ids := make([]string, 0, len(rules))
	for id, t := range rules {
		if strings.HasPrefix(id, "secrets/") {
			gl.add(*t)
			continue
		}
		own.add(*t)
		ids = append(ids, id)
	}
	sort.Strings(ids)
	fmt.Printf("tollgate's rules at medium+ %-36s true / false / ? precision\n", "")
	for _, id := range ids {
		t := rules[id]
		fmt.Printf("  %-62s %4d / %5d / %d %s\n", id, t[0], t[1], t[2], t.precision())
	}
	fmt.Printf("  %-62s %4d / %5d / %d %s\n", "tollgate's own rules together", own[0], own[1], own[2], own.precision())
	fmt.Printf("  %-62s %4d / %5d / %d %s\n", "gitleaks' rules inside tollgate (secrets/*)", gl[0], gl[1], gl[2], gl.precision())
	return own
}

func goal(ok bool, format string, a ...any) bool {
	word := "PASS"
	if !ok {
		word = "FAIL"
	}
	fmt.Printf("  %s trees: "+format+"\n", append([]any{word}, a...)...)
	return ok
}

func readTrees(path string) []tree {
	var out []tree
	for _, cols := range readTSV(path) {
		if len(cols) < 7 {
			fail("%s: a line has %d columns, want 7", path, len(cols))
		}
		t := tree{name: cols[0], repo: cols[1], commit: cols[2], tg: cols[3], gl: cols[4]}
		if _, err := fmt.Sscan(cols[5], &t.files); err != nil {
			fail("%s: files %q: %v", path, cols[5], err)
		}
		if _, err := fmt.Sscan(cols[6], &t.absent); err != nil {
			fail("%s: absent %q: %v", path, cols[6], err)
		}
		out = append(out, t)
	}
	return out
}
