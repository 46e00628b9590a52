//go:build ignore

// secretreport prints, for one labelled secret corpus staged by scripts/eval-secrets.sh, what
// tollgate and the gitleaks CLI each find, side by side: the labelled items found (a finding on
// one of an item's lines, at any severity and at medium or above) and the clean files (files
// with no label) flagged by a secret rule (secretRule), at any severity and at medium or above (blocking). Three label
// formats: credsweeper (tests/data/output.json: one item per candidate, its line_data_list the
// lines), secretscout (data/evaluation/evaluation-dataset-labels.csv: unique_idx, secret,
// location; one item per labelled line) and fuzzforge (secret_detection_benchmark_GROUND_TRUTH.json:
// one item per secret). With -goal it exits 1 when tollgate finds under that share of the
// items at medium or above, or blocks on more clean files than gitleaks flags (with -deep,
// the clean files of CredSweeper's deep scan: its default run opens no archive or document,
// so a zip holding a key has no expected finding there).
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

// die reports an input that cannot be read and exits 2.
func die(args ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"secretreport:"}, args...)...)
	os.Exit(2)
}

// spot is one line of one file.
type spot struct {
	path string
	line int
}

// item is one labelled secret: found when a tool reports any of its lines.
type item struct {
	rule  string
	spots []spot
}

func readJSON(path string, v any) {
	data, err := os.ReadFile(path)
	if err != nil {
		die(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		die(path, err)
	}
}

func credSweeper(path string) []item {
	var cands []struct {
		Rule  string `json:"rule"`
		Lines []struct {
			Path string `json:"path"`
			Line int    `json:"line_num"`
		} `json:"line_data_list"`
	}
	readJSON(path, &cands)
	var items []item
	for _, c := range cands {
		it := item{rule: c.Rule}
		for _, l := range c.Lines {
			p := strings.TrimPrefix(l.Path, "./tests/samples/")
			if i := strings.IndexAny(p, "!:"); i > 0 {
				p = p[:i] // a member of an archive: the archive is the staged file
			}
			it.spots = append(it.spots, spot{p, l.Line})
		}
		items = append(items, it)
	}
	return items
}

func secretScout(path string) []item {
	f, err := os.Open(path)
	if err != nil {
		die(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		die(path, err)
	}
	seen := map[spot]bool{}
	var items []item
	for _, r := range rows[1:] {
		if len(r) < 3 || r[1] == "" {
			continue
		}
		n, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			die(path, "location", r[2])
		}
		s := spot{"config_" + r[0] + ".yml", int(n)}
		if !seen[s] {
			seen[s] = true
			items = append(items, item{rule: "ci-config", spots: []spot{s}})
		}
	}
	return items
}

func fuzzForge(path string) []item {
	var gt struct {
		Secrets []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Type string `json:"type"`
		} `json:"secrets"`
	}
	readJSON(path, &gt)
	var items []item
	for _, s := range gt.Secrets {
		items = append(items, item{rule: s.Type, spots: []spot{{s.File, s.Line}}})
	}
	return items
}

// hits are the lines a tool reported, per path (true: at medium or above).
type hits map[spot]bool

func (h hits) files(blocking bool) map[string]bool {
	fs := map[string]bool{}
	for s, b := range h {
		if b || !blocking {
			p := s.path
			if i := strings.IndexByte(p, '!'); i > 0 {
				p = p[:i] // a finding in an archive's member flags the archive
			}
			fs[p] = true
		}
	}
	return fs
}

// strip removes prefix from every path of h.
func (h hits) strip(prefix string) hits {
	if prefix == "" {
		return h
	}
	out := hits{}
	for s, b := range h {
		out[spot{strings.TrimPrefix(s.path, prefix), s.line}] = b
	}
	return out
}

func tollgateHits(path string) hits {
	var r struct {
		Findings []struct {
			RuleID   string   `json:"rule_id"`
			Severity string   `json:"severity"`
			CWE      []string `json:"cwe"`
			Path     string   `json:"path"`
			Line     int      `json:"line"`
		} `json:"findings"`
		NotRun []struct{ Component, Reason string } `json:"not_run"`
		Limits []string                             `json:"limits"`
	}
	readJSON(path, &r)
	if len(r.NotRun) > 0 || len(r.Limits) > 0 {
		fmt.Printf("  warning: %s incomplete: %v %v\n", path, r.NotRun, r.Limits)
	}
	h := hits{}
	for _, f := range r.Findings {
		if !secretRule(f.RuleID, f.CWE) {
			continue
		}
		s := spot{f.Path, f.Line}
		h[s] = h[s] || (f.Severity != "info" && f.Severity != "low")
	}
	return h
}

// secretCWE are the weaknesses of tollgate's secret rules: hard-coded credentials and keys,
// cleartext storage of sensitive data, weak password hashes.
var secretCWE = map[string]bool{"CWE-798": true, "CWE-259": true, "CWE-321": true, "CWE-312": true, "CWE-522": true, "CWE-916": true}

// secretRule reports a finding of a secret rule (gitleaks' rules, secrets/*, and tollgate's own
// of a secret's weakness); the code and injection rules are not measured here.
func secretRule(id string, cwe []string) bool {
	if strings.HasPrefix(id, "secrets/") {
		return true
	}
	for _, c := range cwe {
		if secretCWE[c] {
			return true
		}
	}
	return false
}

// gitleaksHits reads a gitleaks JSON report; every gitleaks finding blocks.
func gitleaksHits(path string) hits {
	var fs []struct {
		File      string
		StartLine int
	}
	readJSON(path, &fs)
	h := hits{}
	for _, f := range fs {
		h[spot{strings.TrimPrefix(f.File, "./"), f.StartLine}] = true
	}
	return h
}

// counts is what one tool found.
type counts struct {
	found, blocking int      // items found at any severity, at medium or above
	clean, cleanBlk []string // clean files flagged at any severity, at medium or above
	missed          map[string]int
}

func count(items []item, files []string, h hits) counts {
	c := counts{missed: map[string]int{}}
	labelled := map[string]bool{}
	for _, it := range items {
		any, blk := false, false
		for _, s := range it.spots {
			labelled[s.path] = true
			if b, ok := h[s]; ok {
				any, blk = true, blk || b
			}
		}
		if any {
			c.found++
		}
		if blk {
			c.blocking++
		} else {
			c.missed[it.rule]++
		}
	}
	all, blk := h.files(false), h.files(true)
	for _, f := range files {
		if labelled[f] {
			continue
		}
		if all[f] {
			c.clean = append(c.clean, f)
		}
		if blk[f] {
			c.cleanBlk = append(c.cleanBlk, f)
		}
	}
	return c
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

func main() {
	corpus := flag.String("corpus", "", "name@commit, for the report")
	kind := flag.String("kind", "", "label format: credsweeper, secretscout or fuzzforge")
	labels := flag.String("labels", "", "the corpus's label file")
	list := flag.String("files", "", "the staged files, one a line")
	tg := flag.String("tollgate", "", "tollgate's JSON report")
	gl := flag.String("gitleaks", "", "gitleaks' JSON report")
	goal := flag.Float64("goal", 0, "the share (percent) of items tollgate must find at medium or above")
	verbose := flag.Bool("v", false, "list the clean files flagged and the rules missed")
	under := flag.String("under", "", "the folder the corpus was staged under (stripped from every path)")
	deep := flag.String("deep", "", "credsweeper: a deeper scan's expected findings (depth_3_pedantic.json); its files are not clean either")
	flag.Parse()
	var items []item
	switch *kind {
	case "credsweeper":
		items = credSweeper(*labels)
	case "secretscout":
		items = secretScout(*labels)
	case "fuzzforge":
		items = fuzzForge(*labels)
	default:
		die("unknown -kind", *kind)
	}
	data, err := os.ReadFile(*list)
	if err != nil {
		die(err)
	}
	files := strings.Fields(strings.ReplaceAll(string(data), *under, ""))
	labelled := map[string]bool{}
	for _, it := range items {
		for _, s := range it.spots {
			labelled[s.path] = true
		}
	}
	clean := 0
	for _, f := range files {
		if !labelled[f] {
			clean++
		}
	}
	th, gh := tollgateHits(*tg).strip(*under), gitleaksHits(*gl).strip(*under)
	t, g := count(items, files, th), count(items, files, gh)
	goalT, goalG := t, g // the clean files the goal compares
	fmt.Printf("%s: %d labelled items, %d clean files of %d\n", *corpus, len(items), clean, len(files))
	fmt.Printf("  labelled found   tollgate %d/%d (%.0f%%), at medium+ %d (%.0f%%); gitleaks %d (%.0f%%)\n",
		t.found, len(items), pct(t.found, len(items)), t.blocking, pct(t.blocking, len(items)), g.found, pct(g.found, len(items)))
	fmt.Printf("  clean flagged    tollgate %d/%d, at medium+ %d; gitleaks %d\n", len(t.clean), clean, len(t.cleanBlk), len(g.clean))
	if *deep != "" {
		// CredSweeper's default run opens no archive or document: a file whose secret only its
		// deep scan finds (an RPM, a PDF, a spreadsheet) is no negative sample.
		deepItems := append(credSweeper(*deep), items...)
		dt, dg := count(deepItems, files, th), count(deepItems, files, gh)
		deepClean := 0
		inDeep := map[string]bool{}
		for _, it := range deepItems {
			for _, s := range it.spots {
				inDeep[s.path] = true
			}
		}
		for _, f := range files {
			if !inDeep[f] {
				deepClean++
			}
		}
		fmt.Printf("  clean in the deep scan too: tollgate %d/%d, at medium+ %d; gitleaks %d\n", len(dt.clean), deepClean, len(dt.cleanBlk), len(dg.clean))
		goalT, goalG = dt, dg
	}
	if *verbose {
		fmt.Printf("  tollgate blocks on clean: %s\n", strings.Join(t.cleanBlk, " "))
		if *deep != "" {
			fmt.Printf("  tollgate blocks on clean in the deep scan too: %s; gitleaks flags: %s\n", strings.Join(goalT.cleanBlk, " "), strings.Join(goalG.clean, " "))
		}
		fmt.Printf("  gitleaks flags clean: %s\n", strings.Join(g.clean, " "))
		var rules []string
		for r, n := range t.missed {
			rules = append(rules, fmt.Sprintf("%s=%d", r, n))
		}
		sort.Strings(rules)
		fmt.Printf("  tollgate missed (medium+) by rule: %s\n", strings.Join(rules, " "))
	}
	if *goal > 0 {
		ok := pct(t.blocking, len(items)) >= *goal && len(goalT.cleanBlk) <= len(goalG.clean)
		mark := "PASS"
		if !ok {
			mark = "FAIL"
		}
		fmt.Printf("  %s >= %.0f%% found at medium+, clean files blocked <= gitleaks'\n", mark, *goal)
		if !ok {
			os.Exit(1)
		}
	}
}
