//go:build ignore

// injfit fits the signal scorer's weights (review/injection/score.go, docs/injection.md) on the
// tuning sets staged by scripts/eval-injection.sh (INJ_STAGE_ONLY=1) and prints
// signal_weights.json. It never reads a held-out set. A sample of an attack set gives one
// positive row, its block with the most signals (a long jailbreak holds many innocent
// paragraphs); every block of a documentation set is a negative row. Each set weighs the same
// within its side, and both sides weigh the same. The fit is an L2-regularised logistic
// regression by full-batch gradient descent from zero, a fixed number of steps: the same
// input gives the same weights. The thresholds are the smallest scores (0.50 to 0.99, by
// hundredths) at which at most 0.5% (medium) and 0.1% (high) of the tuning documentation
// files would be flagged. The carriers are not weighted: the tuning sets' attacks and
// documentation sit in different carriers (code comments against Markdown), so a carrier's
// weight would learn the staging, not the attack. -v prints the top-scoring documentation
// blocks.
// Usage: go run scripts/injfit.go -sets SETS.TSV -root CORPUS [-commit C]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/review/injection"
)

// The fit's constants. A single signal is weak by design, so it is held nearer zero
// (lambdaSingle) than a pair the threat model names (lambdaPair).
const (
	steps        = 3000
	rate         = 0.5
	lambdaSingle = 0.02
	lambdaPair   = 0.002
)

type row struct {
	x []int // feature indexes
	y float64
	w float64
}

func main() {
	setsPath := flag.String("sets", "", "sets.tsv written by eval-injection.sh")
	root := flag.String("root", "", "staged corpus folder")
	commit := flag.String("commit", "", "the project commit the fit ran at (recorded)")
	verbose := flag.Bool("v", false, "print the top-scoring documentation blocks to stderr")
	flag.Parse()
	feats := injection.Features()
	index := map[string]int{}
	for i, f := range feats {
		index[f] = i
	}
	var rows []row
	docFiles := map[string][][]int{} // documentation file -> its blocks
	var names, unscored []string
	for _, s := range readSets(*setsPath) {
		if s[2] != "tune" || group(s[1]) == "" {
			continue
		}
		names = append(names, s[0])
		attack := group(s[1]) == "attack"
		var set []row
		for _, f := range listSamples(*root, s[0]) {
			data, err := os.ReadFile(filepath.Join(*root, f))
			if err != nil {
				fail(err)
			}
			bs := injection.BlockSignals(f, string(data), false)
			var xs [][]int
			for _, b := range bs {
				if !injection.Eligible(b) {
					continue // scores zero whatever the weights
				}
				var x []int
				for _, name := range b {
					x = append(x, index[name])
				}
				xs = append(xs, x)
			}
			if attack {
				if best := mostSignals(xs); best != nil {
					set = append(set, row{x: best, y: 1})
				} else {
					unscored = append(unscored, f) // no eligible block: a miss whatever the weights
				}
				continue
			}
			docFiles[f] = xs
			for _, x := range xs {
				set = append(set, row{x: x, y: 0})
			}
		}
		for i := range set {
			set[i].w = 1 / float64(len(set))
		}
		rows = append(rows, set...)
	}
	balance(rows)
	lam := make([]float64, len(feats))
	for i, f := range feats {
		lam[i] = lambdaSingle
		if strings.Contains(f, "&") {
			lam[i] = lambdaPair
		}
		if strings.HasPrefix(f, "carrier=") {
			lam[i] = -1 // not weighted: its weight stays zero
		}
	}
	w, b := fit(rows, lam)
	m := injection.Model{Bias: round(b), Weights: map[string]float64{}}
	for i, f := range feats {
		if math.Abs(w[i]) >= 0.005 {
			m.Weights[f] = round(w[i])
		}
	}
	m.Medium = threshold(&m, feats, docFiles, 0.005)
	m.High = max(m.Medium, threshold(&m, feats, docFiles, 0.001))
	if *verbose {
		top(&m, feats, docFiles)
		found, n := 0, 0
		for _, r := range rows {
			if r.y == 1 {
				n++
				var names []string
				for _, i := range r.x {
					names = append(names, feats[i])
				}
				if m.Score(names) >= m.Medium {
					found++
				} else {
					fmt.Fprintf(os.Stderr, "miss %.3f %s\n", m.Score(names), strings.Join(names, " "))
				}
			}
		}
		for _, f := range unscored {
			fmt.Fprintf(os.Stderr, "miss (no eligible block) %s\n", f)
		}
		fmt.Fprintf(os.Stderr, "tuning attacks at medium: %d/%d\n", found, n+len(unscored))
	}
	m.FittedOn = fmt.Sprintf("scripts/fit-injection.sh at %s: tuning sets %s", *commit, strings.Join(names, ", "))
	m.Threshold = "medium and high: the smallest scores (by hundredths, from 0.50) at which at most 0.5% and 0.1% of the tuning documentation files are flagged"
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		fail(err)
	}
	fmt.Println(string(out))
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// mostSignals returns the block with the most features (the first of equals).
func mostSignals(xs [][]int) []int {
	var best []int
	for _, x := range xs {
		if len(x) > len(best) {
			best = x
		}
	}
	return best
}

// balance scales the weights so that each side sums to one.
func balance(rows []row) {
	var pos, neg float64
	for _, r := range rows {
		if r.y == 1 {
			pos += r.w
		} else {
			neg += r.w
		}
	}
	for i := range rows {
		if rows[i].y == 1 {
			rows[i].w /= pos
		} else {
			rows[i].w /= neg
		}
	}
}

// fit runs the gradient descent and returns the weights and the bias.
func fit(rows []row, lam []float64) ([]float64, float64) {
	w := make([]float64, len(lam))
	g := make([]float64, len(lam))
	b := 0.0
	for range steps {
		clear(g)
		gb := 0.0
		for _, r := range rows {
			z := b
			for _, i := range r.x {
				z += w[i]
			}
			d := r.w * (1/(1+math.Exp(-z)) - r.y)
			gb += d
			for _, i := range r.x {
				g[i] += d
			}
		}
		for i := range w {
			if lam[i] >= 0 {
				w[i] -= rate * (g[i] + lam[i]*w[i])
			}
		}
		b -= rate * gb
	}
	return w, b
}

// threshold returns the smallest score at which at most frac of the documentation files have a
// block scoring that high.
func threshold(m *injection.Model, feats []string, docs map[string][][]int, frac float64) float64 {
	var top []float64
	for _, xs := range docs {
		best := 0.0
		for _, x := range xs {
			var names []string
			for _, i := range x {
				names = append(names, feats[i])
			}
			best = max(best, m.Score(names))
		}
		top = append(top, best)
	}
	sort.Float64s(top)
	for t := 50; t < 100; t++ {
		th := float64(t) / 100
		n := len(top) - sort.SearchFloat64s(top, th)
		if float64(n) <= frac*float64(len(top)) {
			return th
		}
	}
	return 0.99
}

// group: the positives are the threat model's classes 1-3 only (coercion, agent, code); the
// overrides, extractions and personas of class 5 stay with the phrase checks.
// top prints the 30 documentation files with the highest block scores.
func top(m *injection.Model, feats []string, docs map[string][][]int) {
	type fx struct {
		f string
		p float64
		e string
	}
	var all []fx
	for f, xs := range docs {
		best := fx{f: f}
		for _, x := range xs {
			var names []string
			for _, i := range x {
				names = append(names, feats[i])
			}
			if p := m.Score(names); p > best.p {
				best.p, best.e = p, strings.Join(names, " ")
			}
		}
		all = append(all, best)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].p > all[b].p || all[a].p == all[b].p && all[a].f < all[b].f })
	for _, x := range all[:min(30, len(all))] {
		fmt.Fprintf(os.Stderr, "%.3f %s  %s\n", x.p, x.f, x.e)
	}
}

func group(class string) string {
	switch class {
	case "coercion", "agent", "code":
		return "attack"
	case "docs":
		return "docs"
	}
	return ""
}

func readSets(p string) [][]string {
	f, err := os.Open(p)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if c := strings.Split(sc.Text(), "\t"); len(c) == 6 {
			out = append(out, c)
		}
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
	sort.Strings(files)
	return files
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "injfit:", err)
	os.Exit(2)
}
