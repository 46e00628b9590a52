//go:build ignore

// evalreport prints the numbers scripts/eval.sh measures and checks the goals:
// leaky-repo >= 38 of 42 risk files found, every Trojan Source attack file found, no finding at
// medium or above in Go's net/http. It exits 1 when a goal is missed.
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
	trojan := flag.String("trojan", "", "trojan-source report")
	trojanFiles := flag.Int("trojan-files", 0, "attack files staged")
	nethttp := flag.String("nethttp", "", "net/http report")
	flag.Parse()
	var g goals
	leakyRepo(&g, *labels, *leaky)
	trojanSource(&g, *trojan, *trojanFiles)
	netHTTP(&g, *nethttp)
	if g.failed {
		os.Exit(1)
	}
}

// riskFiles reads leaky-repo's LABELS.csv: the files with at least one risk line, and how
// many risk lines each has.
func riskFiles(labels string) (map[string]bool, map[string]int) {
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
	risk, lines := map[string]bool{}, map[string]int{}
	for _, row := range rows {
		if len(row) < 2 {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSpace(row[1])); err == nil && n > 0 {
			risk[strings.TrimSpace(row[0])] = true
			lines[strings.TrimSpace(row[0])] = n
		}
	}
	return risk, lines
}

// leakyRepo checks the files with risk lines that got at least one finding.
func leakyRepo(g *goals, labels, leaky string) {
	risk, riskLines := riskFiles(labels)
	lr := load(leaky)
	hit := map[string]bool{}
	found := map[string]map[int]bool{}
	for _, x := range lr.Findings {
		hit[x.Path] = true
		if found[x.Path] == nil {
			found[x.Path] = map[int]bool{}
		}
		found[x.Path][x.Line] = true
	}
	// The labels count risk lines per file, not which lines: a file's distinct finding lines
	// count up to its labelled number (issue 9's goal: 60% of labelled secrets).
	total, got := 0, 0
	for p, n := range riskLines {
		total += n
		got += min(n, len(found[p]))
	}
	fmt.Printf("leaky-repo: %d of %d labelled risk lines have a finding (%.0f%%; per file, at most its labelled count)\n",
		got, total, 100*float64(got)/float64(max(total, 1)))
	g.check(got*100 >= total*60, "leaky-repo: at least 60%% of the labelled risk lines found (%d of %d)", got, total)
	missed, extra := notIn(risk, hit), notIn(hit, risk)
	caught := len(risk) - len(missed)
	fmt.Printf("leaky-repo: %d findings; %d of %d files with risk lines found; missed %v; flagged without risk lines %v\n",
		len(lr.Findings), caught, len(risk), missed, extra)
	g.check(caught >= 38, "leaky-repo: at least 38 of the risk files found (%d)", caught)
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
		files[x.Path] = true
	}
	fmt.Printf("trojan-source: %d findings in %d of %d attack files\n", len(tr.Findings), len(files), trojanFiles)
	g.check(len(files) == trojanFiles && trojanFiles > 0, "trojan-source: every attack file found (%d/%d)", len(files), trojanFiles)
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
