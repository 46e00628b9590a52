//go:build ignore

// evalreport prints the numbers scripts/eval.sh measures and checks the goals:
// leaky-repo >= 38 of 42 risk files found, >= 60% of its labelled risk lines found, no more of
// its labelled clean files flagged than gitleaks flags (both tools side by side), every Trojan
// Source attack file found, no finding at medium or above in Go's net/http. It exits 1 when a
// goal is missed. With -corpus it prints instead, for one unlabelled secret corpus, the files
// each tool flags.
package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

type report struct {
	Status   string `json:"status"`
	Findings []struct {
		RuleID   string `json:"rule_id"`
		Severity string `json:"severity"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
	} `json:"findings"`
	NotRun []struct {
		Component, Reason string
	} `json:"not_run"`
	Limits []string `json:"limits"`
}

// die reports an input that cannot be read and exits 2.
func die(args ...any) {
	fmt.Fprintln(os.Stderr, args...)
	os.Exit(2)
}

func load(path string) report {
	data, err := os.ReadFile(path)
	if err != nil {
		die(err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		die(path, err)
	}
	if len(r.NotRun) > 0 || len(r.Limits) > 0 {
		fmt.Printf("  warning: %s incomplete: %v %v\n", path, r.NotRun, r.Limits)
	}
	return r
}

// goals prints one PASS or FAIL line per goal and remembers a miss.
type goals struct{ failed bool }

func (g *goals) check(ok bool, format string, args ...any) {
	mark := "PASS"
	if !ok {
		mark, g.failed = "FAIL", true
	}
	fmt.Printf("  %s %s\n", mark, fmt.Sprintf(format, args...))
}

func main() {
	labels := flag.String("labels", "", "leaky-repo LABELS.csv")
	leaky := flag.String("leaky", "", "leaky-repo report")
	leakyGitleaks := flag.String("leaky-gitleaks", "", "gitleaks' leaky-repo report")
	corpus := flag.String("corpus", "", "an unlabelled secret corpus (name@commit): compare -tollgate and -gitleaks")
	tgReport := flag.String("tollgate", "", "tollgate's report of -corpus")
	glReport := flag.String("gitleaks", "", "gitleaks' report of -corpus")
	trojan := flag.String("trojan", "", "trojan-source report")
	trojanFiles := flag.Int("trojan-files", 0, "attack files staged")
	nethttp := flag.String("nethttp", "", "net/http report")
	flag.Parse()
	if *corpus != "" {
		compareCorpus(*corpus, tollgateHits(load(*tgReport)), gitleaksHits(*glReport))
		return
	}
	var g goals
	leakyRepo(&g, *labels, tollgateHits(load(*leaky)), gitleaksHits(*leakyGitleaks))
	trojanSource(&g, *trojan, *trojanFiles)
	netHTTP(&g, *nethttp)
	if g.failed {
		os.Exit(1)
	}
}

// riskFiles reads leaky-repo's LABELS.csv: the files with at least one risk line, how many
// risk lines each has, and every labelled file (those with no risk line are its clean files).
func riskFiles(labels string) (map[string]bool, map[string]int, map[string]bool) {
	f, err := os.Open(labels)
	if err != nil {
		die(err)
	}
	rd := csv.NewReader(f)
	rd.Comment = '#'
	rd.FieldsPerRecord = -1
	rows, err := rd.ReadAll()
	if err != nil {
		die(err)
	}
	risk, lines, labelled := map[string]bool{}, map[string]int{}, map[string]bool{}
	for _, row := range rows {
		if len(row) < 2 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(row[1]))
		if err != nil {
			continue
		}
		labelled[strings.TrimSpace(row[0])] = true
		if n > 0 {
			risk[strings.TrimSpace(row[0])] = true
			lines[strings.TrimSpace(row[0])] = n
		}
	}
	return risk, lines, labelled
}

// hits are the lines a tool reported, per path.
type hits map[string]map[int]bool

func (h hits) add(path string, line int) {
	if h[path] == nil {
		h[path] = map[int]bool{}
	}
	h[path][line] = true
}

func tollgateHits(r report) hits {
	h := hits{}
	for _, x := range r.Findings {
		h.add(x.Path, x.Line)
	}
	return h
}

// gitleaksHits reads a gitleaks JSON report (an array of findings with File and StartLine).
func gitleaksHits(path string) hits {
	data, err := os.ReadFile(path)
	if err != nil {
		die(err)
	}
	var fs []struct {
		File      string
		StartLine int
	}
	if err := json.Unmarshal(data, &fs); err != nil {
		die(path, err)
	}
	h := hits{}
	for _, f := range fs {
		h.add(f.File, f.StartLine)
	}
	return h
}

// leakyCounts is what one tool found in leaky-repo.
type leakyCounts struct {
	lines, files           int      // labelled risk lines with a finding (per file at most its count), risk files
	missed, clean, unlabel []string // risk files missed, labelled clean files flagged, unlabelled files flagged
}

func countLeaky(h hits, risk map[string]bool, riskLines map[string]int, labelled map[string]bool) leakyCounts {
	var c leakyCounts
	// The labels count risk lines per file, not which lines: a file's distinct finding lines
	// count up to its labelled number (issue 9's goal: 60% of labelled secrets).
	for p, n := range riskLines {
		c.lines += min(n, len(h[p]))
	}
	flagged := map[string]bool{}
	for p := range h {
		flagged[p] = true
		switch {
		case !labelled[p]:
			c.unlabel = append(c.unlabel, p)
		case !risk[p]:
			c.clean = append(c.clean, p)
		}
	}
	sort.Strings(c.clean)
	sort.Strings(c.unlabel)
	c.missed = notIn(risk, flagged)
	c.files = len(risk) - len(c.missed)
	return c
}

// leakyRepo checks tollgate's catches in leaky-repo, side by side with gitleaks'.
func leakyRepo(g *goals, labels string, tg, gl hits) {
	risk, riskLines, labelled := riskFiles(labels)
	total := 0
	for _, n := range riskLines {
		total += n
	}
	clean := len(labelled) - len(risk)
	t, l := countLeaky(tg, risk, riskLines, labelled), countLeaky(gl, risk, riskLines, labelled)
	fmt.Printf("leaky-repo            %22s %22s\n", "tollgate", "gitleaks")
	fmt.Printf("  risk lines found    %14d/%d %3.0f%% %14d/%d %3.0f%%\n", t.lines, total, pct(t.lines, total), l.lines, total, pct(l.lines, total))
	fmt.Printf("  risk files found    %17d/%d %17d/%d\n", t.files, len(risk), l.files, len(risk))
	fmt.Printf("  clean files flagged %17d/%d %17d/%d\n", len(t.clean), clean, len(l.clean), clean)
	fmt.Printf("  unlabelled flagged  %20d %20d\n", len(t.unlabel), len(l.unlabel))
	fmt.Printf("  tollgate: missed %v; clean flagged %v; unlabelled flagged %v\n", t.missed, t.clean, t.unlabel)
	fmt.Printf("  gitleaks: clean flagged %v; unlabelled flagged %v\n", l.clean, l.unlabel)
	g.check(t.lines*100 >= total*60, "leaky-repo: at least 60%% of the labelled risk lines found (%d of %d; gitleaks %d)", t.lines, total, l.lines)
	g.check(t.files >= 38, "leaky-repo: at least 38 of the risk files found (%d; gitleaks %d)", t.files, l.files)
	g.check(len(t.clean) <= len(l.clean), "leaky-repo: no more labelled clean files flagged than gitleaks (%d; gitleaks %d)", len(t.clean), len(l.clean))
}

// compareCorpus prints the files each tool flagged in a corpus without labels.
func compareCorpus(name string, tg, gl hits) {
	both, onlyT, onlyG := 0, []string{}, []string{}
	for p := range tg {
		if gl[p] != nil {
			both++
		} else {
			onlyT = append(onlyT, p)
		}
	}
	for p := range gl {
		if tg[p] == nil {
			onlyG = append(onlyG, p)
		}
	}
	sort.Strings(onlyT)
	sort.Strings(onlyG)
	fmt.Printf("%s: files flagged: tollgate %d, gitleaks %d, both %d\n", name, len(tg), len(gl), both)
	fmt.Printf("  only tollgate: %v\n  only gitleaks: %v\n", onlyT, onlyG)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// notIn returns the keys of a missing from b, sorted.
func notIn(a, b map[string]bool) []string {
	var out []string
	for p := range a {
		if !b[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// trojanSource checks that every attack file got a finding.
func trojanSource(g *goals, trojan string, trojanFiles int) {
	tr := load(trojan)
	files := map[string]bool{}
	for _, x := range tr.Findings {
		// Found means blocking: a finding at medium or above (a low one is not a catch).
		switch x.Severity {
		case "medium", "high", "critical":
			files[x.Path] = true
		}
	}
	fmt.Printf("trojan-source: %d findings, at medium or above in %d of %d attack files\n", len(tr.Findings), len(files), trojanFiles)
	g.check(len(files) == trojanFiles && trojanFiles > 0, "trojan-source: every attack file found at medium or above (%d/%d)", len(files), trojanFiles)
}

// netHTTP checks that Go's net/http has no finding at medium or above.
func netHTTP(g *goals, nethttp string) {
	nr := load(nethttp)
	bySev := map[string]int{}
	serious := 0
	for _, x := range nr.Findings {
		bySev[x.Severity]++
		switch x.Severity {
		case "medium", "high", "critical":
			serious++
			fmt.Printf("  net/http finding: %s %s %s:%d\n", x.Severity, x.RuleID, x.Path, x.Line)
		}
	}
	fmt.Printf("net/http: %d findings by severity %v\n", len(nr.Findings), bySev)
	g.check(serious == 0, "net/http: no finding at medium or above (%d)", serious)
}
