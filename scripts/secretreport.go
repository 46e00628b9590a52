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
	"path/filepath"
	"regexp"
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
	value string // the labelled secret, when the labels give it (SecretScout, fuzzforge)
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
			items = append(items, item{rule: "ci-config", value: r[1], spots: []spot{s}})
		}
	}
	return items
}

func fuzzForge(path string) []item {
	var gt struct {
		Secrets []struct {
			File  string `json:"file"`
			Line  int    `json:"line"`
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"secrets"`
	}
	readJSON(path, &gt)
	var items []item
	for _, s := range gt.Secrets {
		items = append(items, item{rule: s.Type, value: s.Value, spots: []spot{{s.File, s.Line}}})
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

// envVarName is a value spelled as an environment variable's name (MAVEN_PASSWORD).
var envVarName = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// throwawayDefault are the well-known default passwords of CI service containers (root,
// postgres, password, test): SecretScout labels them secrets in some files and not in others.
var throwawayDefault = map[string]bool{"root": true, "postgres": true, "password": true, "test": true,
	"admin": true, "secret": true, "pass": true, "1": true, "minio": true, "mysql": true}

// dispute sorts out the labels that name no secret, read against the staged files under
// root: it returns the items kept (a label one to three lines off the line holding its value
// moved there) and, per reason, the items dropped. Throwaway defaults are a class of their
// own (kept apart, not dropped, in the first adjusted figure).
func dispute(items []item, root string) (kept []item, dropped map[string][]string, moved []string) {
	dropped = map[string][]string{}
	files := map[string][]string{}
	lines := func(p string) []string {
		if ls, ok := files[p]; ok {
			return ls
		}
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			files[p] = nil
			return nil
		}
		files[p] = strings.Split(string(data), "\n")
		return files[p]
	}
	for _, it := range items {
		if it.value == "" || len(it.spots) != 1 {
			kept = append(kept, it)
			continue
		}
		s := it.spots[0]
		ls := lines(s.path)
		text := ""
		if s.line >= 1 && s.line <= len(ls) {
			text = ls[s.line-1]
		}
		where := fmt.Sprintf("%s:%d %q", s.path, s.line, strings.TrimSpace(text))
		why := ""
		switch {
		case it.value == "inherit" && strings.Contains(text, "secrets: inherit"):
			why = "the keyword secrets: inherit (passes the caller's secrets on), no value"
		case envVarName.MatchString(it.value):
			why = "a variable's or secret's name, not its value"
		case strings.Contains(it.value, "EXAMPLE"):
			why = "a documented example value (EXAMPLE)"
		case !strings.Contains(text, it.value):
			if n := near(ls, s.line, it.value); n > 0 {
				it.spots = []spot{{s.path, n}}
				moved = append(moved, fmt.Sprintf("%s:%d -> %d", s.path, s.line, n))
			} else if strings.Contains(text, "***") || strings.TrimSpace(text) == "" || !strings.ContainsAny(text, ":=") {
				why = "the labelled line holds no value (blank, masked *** or a bare key)"
			}
		}
		if why != "" {
			dropped[why] = append(dropped[why], where)
			continue
		}
		kept = append(kept, it)
	}
	return kept, dropped, moved
}

// near returns the line within three of line (1-based) that holds value, 0 if none does.
func near(ls []string, line int, value string) int {
	for d := 1; d <= 3; d++ {
		for _, n := range []int{line - d, line + d} {
			if n >= 1 && n <= len(ls) && strings.Contains(ls[n-1], value) {
				return n
			}
		}
	}
	return 0
}

// throwaways are the items whose value is a CI service's well-known default.
func throwaways(items []item) (rest []item, n int) {
	for _, it := range items {
		if throwawayDefault[strings.ToLower(it.value)] {
			n++
			continue
		}
		rest = append(rest, it)
	}
	return rest, n
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
	root := flag.String("root", "", "the staged corpus (its files read to sort out disputed labels; \"\" for none)")
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
	if *root != "" {
		kept, dropped, moved := dispute(items, *root)
		if n := len(items) - len(kept); n > 0 || len(moved) > 0 {
			kt, kg := count(kept, files, th), count(kept, files, gh)
			fmt.Printf("  labels disputed  %d dropped, %d moved to the line holding their value: found at medium+ raw %d/%d (%.0f%%), adjusted %d/%d (%.0f%%); gitleaks adjusted %d\n",
				n, len(moved), t.blocking, len(items), pct(t.blocking, len(items)), kt.blocking, len(kept), pct(kt.blocking, len(kept)), kg.found)
			if rest, nt := throwaways(kept); nt > 0 {
				rt, rg := count(rest, files, th), count(rest, files, gh)
				fmt.Printf("  without the %d throwaway defaults (root, postgres, password, ...; labelled in some files, not in others): tollgate %d/%d (%.0f%%) at medium+; gitleaks %d\n",
					nt, rt.blocking, len(rest), pct(rt.blocking, len(rest)), rg.found)
			}
			if *verbose && len(moved) > 0 {
				fmt.Printf("    moved: %s\n", strings.Join(moved, " "))
			}
			var whys []string
			for why := range dropped {
				whys = append(whys, why)
			}
			sort.Strings(whys)
			for _, why := range whys {
				fmt.Printf("    %d: %s\n", len(dropped[why]), why)
				if *verbose {
					for _, w := range dropped[why] {
						fmt.Printf("      %s\n", w)
					}
				}
			}
		}
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
