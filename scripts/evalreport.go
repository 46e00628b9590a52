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

func load(path string) report {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		fmt.Fprintln(os.Stderr, path, err)
		os.Exit(2)
	}
	if len(r.NotRun) > 0 || len(r.Limits) > 0 {
		fmt.Printf("  warning: %s incomplete: %v %v\n", path, r.NotRun, r.Limits)
	}
	return r
}

func main() {
	labels := flag.String("labels", "", "leaky-repo LABELS.csv")
	leaky := flag.String("leaky", "", "leaky-repo report")
	trojan := flag.String("trojan", "", "trojan-source report")
	trojanFiles := flag.Int("trojan-files", 0, "attack files staged")
	nethttp := flag.String("nethttp", "", "net/http report")
	flag.Parse()
	failed := false
	goal := func(ok bool, format string, args ...any) {
		mark := "PASS"
		if !ok {
			mark, failed = "FAIL", true
		}
		fmt.Printf("  %s %s\n", mark, fmt.Sprintf(format, args...))
	}

	// leaky-repo: files with risk lines that got at least one finding.
	f, err := os.Open(*labels)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rd := csv.NewReader(f)
	rd.Comment = '#'
	rd.FieldsPerRecord = -1
	rows, err := rd.ReadAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	risk := map[string]bool{}
	for _, row := range rows {
		if len(row) < 2 {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSpace(row[1])); err == nil && n > 0 {
			risk[strings.TrimSpace(row[0])] = true
		}
	}
	lr := load(*leaky)
	hit := map[string]bool{}
	for _, x := range lr.Findings {
		hit[x.Path] = true
	}
	var missed, extra []string
	caught := 0
	for p := range risk {
		if hit[p] {
			caught++
		} else {
			missed = append(missed, p)
		}
	}
	for p := range hit {
		if !risk[p] {
			extra = append(extra, p)
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	fmt.Printf("leaky-repo: %d findings; %d of %d files with risk lines found; missed %v; flagged without risk lines %v\n",
		len(lr.Findings), caught, len(risk), missed, extra)
	goal(caught >= 38, "leaky-repo: at least 38 of the risk files found (%d)", caught)

	tr := load(*trojan)
	files := map[string]bool{}
	for _, x := range tr.Findings {
		files[x.Path] = true
	}
	fmt.Printf("trojan-source: %d findings in %d of %d attack files\n", len(tr.Findings), len(files), *trojanFiles)
	goal(len(files) == *trojanFiles && *trojanFiles > 0, "trojan-source: every attack file found (%d/%d)", len(files), *trojanFiles)

	nr := load(*nethttp)
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
	goal(serious == 0, "net/http: no finding at medium or above (%d)", serious)
	if failed {
		os.Exit(1)
	}
}
