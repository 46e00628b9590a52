//go:build ignore

// injreport prints what scripts/eval-injection.sh measures: per corpus set, the samples
// tollgate flags as prompt injection next to the samples gitleaks flags at all, and checks the
// goals (attack sets >= 80% found, documentation <= 1% flagged: issue 29's goal, 3% before), tuned and
// held-out sets apart. It exits 1 when a goal is missed. -v lists misses and false flags.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type set struct {
	name, class, split, repo, commit string
	samples                          int
}

func main() {
	setsPath := flag.String("sets", "", "sets.tsv written by eval-injection.sh")
	tgPath := flag.String("tollgate", "", "tollgate JSON report")
	glPath := flag.String("gitleaks", "", "gitleaks JSON report")
	root := flag.String("root", "", "staged corpus folder")
	verbose := flag.Bool("v", false, "list misses (attack sets) and flagged samples (documentation)")
	flag.Parse()

	sets := readSets(*setsPath)
	tg := tollgateFiles(*tgPath)
	gl := gitleaksFiles(*glPath, *root)

	fmt.Printf("%-22s %-10s %-8s %7s %16s %16s  %s\n", "set", "class", "split", "samples", "tollgate", "gitleaks", "repository@commit")
	totals := map[string]*agg{}
	for _, s := range sets {
		n, hit := printSet(s, *root, tg, gl, *verbose)
		keys := []string{s.split + " " + group(s.class)}
		switch s.class {
		case "override", "extraction":
			// an earlier issue's goal names these two classes: their own line, beside all attacks
			keys = append(keys, s.split+" ovr+extr attack")
		case "coercion", "agent", "code":
			// issue 29's threat model, classes 1-3 (docs/injection.md)
			keys = append(keys, s.split+" class1-3 attack")
		}
		for _, key := range keys {
			if totals[key] == nil {
				totals[key] = &agg{}
			}
			totals[key].n += n
			totals[key].hit += hit
		}
	}
	if !goals(totals) {
		os.Exit(1)
	}
}

type agg struct{ n, hit int }

// printSet prints one set's line (and, with verbose, the misses or false flags of a tuned set)
// and returns its samples and the samples tollgate flagged.
func printSet(s set, root string, tg map[string]string, gl map[string]bool, verbose bool) (int, int) {
	files := listSamples(root, s.name)
	hit, ghit := 0, 0
	var shown []string
	attack := s.class != "docs"
	for _, f := range files {
		if tg[f] != "" {
			hit++
		}
		if gl[f] {
			ghit++
		}
		if verbose && s.split == "tune" && attack == (tg[f] == "") {
			shown = append(shown, f+"  "+tg[f])
		}
	}
	fmt.Printf("%-22s %-10s %-8s %7d %16s %16s  %s@%.12s\n", s.name, s.class, s.split, len(files),
		pct(hit, len(files)), pct(ghit, len(files)), s.repo, s.commit)
	for _, x := range shown {
		fmt.Println("    ", x)
	}
	return len(files), hit
}

// goals prints the totals per split and group against the goals and reports whether all are met.
func goals(totals map[string]*agg) bool {
	keys := make([]string, 0, len(totals))
	for k := range totals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ok := true
	for _, k := range keys {
		a := totals[k]
		mark, goal := "PASS", "<= 1% flagged"
		switch {
		case strings.HasSuffix(k, " info"):
			mark, goal = "INFO", "no goal"
		case strings.HasSuffix(k, " attack"):
			goal = ">= 80% found"
			if a.hit*100 < 80*a.n {
				mark, ok = "FAIL", false
			}
		case a.hit*100 > a.n:
			mark, ok = "FAIL", false
		}
		fmt.Printf("  %s %-16s %s (%s)\n", mark, k, pct(a.hit, a.n), goal)
	}
	return ok
}

func group(class string) string {
	switch class {
	case "override", "extraction", "persona", "coercion", "agent", "code":
		return "attack"
	case "docs":
		return "docs"
	}
	return "info"
}

func pct(n, d int) string {
	if d == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d %5.1f%%", n, d, 100*float64(n)/float64(d))
}

func readSets(p string) []set {
	f, err := os.Open(p)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	var out []set
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 6 {
			continue
		}
		n, _ := strconv.Atoi(c[5])
		out = append(out, set{name: c[0], class: c[1], split: c[2], repo: c[3], commit: c[4], samples: n})
	}
	return out
}

func listSamples(root, name string) []string {
	var files []string
	_ = filepath.WalkDir(filepath.Join(root, name), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	return files
}

// tollgateFiles maps each file with a prompt-injection finding at medium or above (the goals'
// severity) to its first message.
func tollgateFiles(p string) map[string]string {
	var r struct {
		Findings []struct {
			RuleID   string `json:"rule_id"`
			Severity string `json:"severity"`
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Message  string `json:"message"`
		} `json:"findings"`
	}
	load(p, &r)
	out := map[string]string{}
	for _, x := range r.Findings {
		if x.RuleID == "tollgate/prompt-injection-attempt" && x.Severity != "low" && x.Severity != "info" && out[x.Path] == "" {
			msg := x.Message
			if len(msg) > 160 {
				msg = msg[:160]
			}
			out[x.Path] = fmt.Sprintf("%d: %s", x.Line, msg)
		}
	}
	return out
}

func gitleaksFiles(p, root string) map[string]bool {
	var r []struct {
		File string `json:"File"`
	}
	load(p, &r)
	out := map[string]bool{}
	for _, x := range r {
		f := x.File
		if rel, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		out[filepath.ToSlash(f)] = true
	}
	return out
}

func load(p string, v any) {
	data, err := os.ReadFile(p)
	if err != nil {
		fail(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		fail(fmt.Errorf("%s: %w", p, err))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "injreport:", err)
	os.Exit(2)
}
