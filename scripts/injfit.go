//go:build ignore

// injfit fits the weights of the prompt-injection scorer (review/injection, score.go)
// and writes them as Go (review/injection/weights_gen.go): a logistic regression over the
// scorer's own features (injection.Features), fitted by batch gradient descent with L2
// regularisation from zero weights, classes weighed to balance, files read in sorted order:
// the same input gives the same weights. scripts/fit-injection.sh stages the public training
// sets and runs it; held-out sets (scripts/eval-injection.sh) are never read here.
//
// The features are the scorer's signals that fire in a block and every pair of them
// (injection.Features); a pair never seen keeps weight 0.
//
// An attack file's positive block is the one the current weights score highest (the first fit
// takes the block with the most signals); every block of a benign file is negative. The fit
// runs three rounds of that choice. The threshold is the lowest in 0.50-0.99 at which at most
// maxBenign of the benign files have a block at or above it.
//
// A sample is a file under a -pos or -neg folder, read as if it were added at its path there;
// a .tsv file under one holds a sample a line (path TAB text, "\n" for a newline).
//
// Usage: go run scripts/injfit.go -pos DIR[,DIR] -neg DIR[,DIR] [-out FILE]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/review/injection"
)

// maxBenign: the share of benign training files the threshold may flag.
const maxBenign = 0.001

type sample struct {
	name   string
	blocks [][]int // per block, the indexes of its active features
}

// vocab numbers the feature names in the order first seen (files are read in sorted order).
type vocab struct {
	index map[string]int
	names []string
}

func (v *vocab) ids(names []string) []int {
	out := make([]int, 0, len(names))
	for _, n := range names {
		i, ok := v.index[n]
		if !ok {
			i = len(v.names)
			v.index[n] = i
			v.names = append(v.names, n)
		}
		out = append(out, i)
	}
	return out
}

func main() {
	pos := flag.String("pos", "", "comma-separated folders of attack samples")
	neg := flag.String("neg", "", "comma-separated folders of benign samples")
	out := flag.String("out", "", "Go file to write (default: print)")
	verbose := flag.Bool("v", false, "list the benign files flagged and the attack files missed")
	flag.Parse()
	if *pos == "" || *neg == "" {
		fmt.Fprintln(os.Stderr, "usage: injfit -pos DIR[,DIR] -neg DIR[,DIR] [-out FILE]")
		os.Exit(2)
	}
	voc := &vocab{index: map[string]int{}}
	ps := load(*pos, voc)
	ns := load(*neg, voc)
	names := voc.names
	var negX [][]int
	for _, s := range ns {
		negX = append(negX, s.blocks...)
	}
	w := make([]float64, len(names)+1) // w[0] is the bias
	for round := 0; round < 3; round++ {
		var posX [][]int
		for _, s := range ps {
			if b := best(s.blocks, w, round == 0); b != nil {
				posX = append(posX, b)
			}
		}
		w = fit(posX, negX, len(names))
	}
	t, benign := threshold(ns, w)
	found := 0
	for _, s := range ps {
		if maxScore(s.blocks, w) >= t {
			found++
		}
	}
	fmt.Fprintf(os.Stderr, "injfit: %d attack files (%d with a block), %d benign files (%d blocks); threshold %.2f: attacks %d/%d, benign %d/%d\n",
		len(ps), countWith(ps), len(ns), len(negX), t, found, len(ps), benign, len(ns))
	if *verbose {
		for _, s := range ns {
			if maxScore(s.blocks, w) >= t {
				fmt.Fprintf(os.Stderr, "  benign flagged: %s %.2f\n", s.name, maxScore(s.blocks, w))
			}
		}
		for _, s := range ps {
			if maxScore(s.blocks, w) < t {
				fmt.Fprintf(os.Stderr, "  attack missed: %s %.2f\n", s.name, maxScore(s.blocks, w))
			}
		}
	}
	src, err := format.Source([]byte(render(names, w, t, found, len(ps), benign, len(ns))))
	if err != nil {
		fail(err)
	}
	if *out == "" {
		os.Stdout.Write(src)
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fail(err)
	}
}

func countWith(ss []sample) int {
	n := 0
	for _, s := range ss {
		if len(s.blocks) > 0 {
			n++
		}
	}
	return n
}

// load reads every sample under the folders.
func load(dirs string, voc *vocab) []sample {
	var out []sample
	for _, dir := range strings.Split(dirs, ",") {
		var files []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			fail(err)
		}
		sort.Strings(files)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				fail(err)
			}
			rel, _ := filepath.Rel(dir, p)
			if strings.HasSuffix(p, ".tsv") {
				sc := bufio.NewScanner(strings.NewReader(string(data)))
				for sc.Scan() {
					at, text, ok := strings.Cut(sc.Text(), "\t")
					if !ok || strings.HasPrefix(at, "#") {
						continue
					}
					out = append(out, sample{rel + ":" + at, ids(injection.Features(at, strings.ReplaceAll(text, `\n`, "\n")), voc)})
				}
				continue
			}
			out = append(out, sample{rel, ids(injection.Features(filepath.ToSlash(rel), string(data)), voc)})
		}
	}
	return out
}

func ids(blocks [][]string, voc *vocab) [][]int {
	out := make([][]int, len(blocks))
	for i, b := range blocks {
		out[i] = voc.ids(b)
	}
	return out
}

// best returns the block of an attack file the weights score highest (first: the one with
// the most features that fire), or nil.
func best(blocks [][]int, w []float64, first bool) []int {
	var b []int
	top := math.Inf(-1)
	for _, x := range blocks {
		s := float64(len(x))
		if !first {
			s = dot(w, x)
		}
		if s > top {
			top, b = s, x
		}
	}
	return b
}

func dot(w []float64, x []int) float64 {
	z := w[0]
	for _, i := range x {
		z += w[i+1]
	}
	return z
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// fit is a class-balanced, L2-regularised logistic regression by batch gradient descent.
func fit(posX, negX [][]int, n int) []float64 {
	const (
		iters  = 4000
		rate   = 0.5
		lambda = 0.01
	)
	w := make([]float64, n+1)
	wp, wn := 0.5/float64(max(1, len(posX))), 0.5/float64(max(1, len(negX)))
	g := make([]float64, n+1)
	for it := 0; it < iters; it++ {
		clear(g)
		step := func(x []int, y, weight float64) {
			d := (sigmoid(dot(w, x)) - y) * weight
			g[0] += d
			for _, i := range x {
				g[i+1] += d
			}
		}
		for _, x := range posX {
			step(x, 1, wp)
		}
		for _, x := range negX {
			step(x, 0, wn)
		}
		for i := range w {
			reg := 0.0
			if i > 0 {
				reg = lambda * w[i]
			}
			w[i] -= rate * (g[i] + reg)
		}
	}
	return w
}

func maxScore(blocks [][]int, w []float64) float64 {
	top := 0.0
	for _, x := range blocks {
		top = max(top, sigmoid(dot(w, x)))
	}
	return top
}

// threshold returns the lowest threshold at which at most maxBenign of the benign files are
// flagged, and how many are.
func threshold(ns []sample, w []float64) (float64, int) {
	scores := make([]float64, len(ns))
	for i, s := range ns {
		scores[i] = maxScore(s.blocks, w)
	}
	for t := 50; t <= 99; t++ {
		n := 0
		for _, s := range scores {
			if s >= float64(t)/100 {
				n++
			}
		}
		if float64(n) <= maxBenign*float64(len(ns)) {
			return float64(t) / 100, n
		}
	}
	n := 0
	for _, s := range scores {
		if s >= 0.99 {
			n++
		}
	}
	return 0.99, n
}

func render(names []string, w []float64, t float64, found, pos, benign, neg int) string {
	var b strings.Builder
	b.WriteString("// Code generated by scripts/injfit (scripts/fit-injection.sh); DO NOT EDIT.\n\n")
	b.WriteString("package injection\n\n")
	fmt.Fprintf(&b, "// The fitted weights of the scorer's features (score.go). On the training sets: attack files\n// found %d/%d, benign files flagged %d/%d at the threshold.\n", found, pos, benign, neg)
	b.WriteString("var fittedWeights = map[string]float64{\n")
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, c int) bool { return names[order[a]] < names[order[c]] })
	for _, i := range order {
		if math.Abs(w[i+1]) >= 0.0005 {
			fmt.Fprintf(&b, "\t%q: %.3f,\n", names[i], w[i+1])
		}
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "const (\n\tfittedBias      = %.3f\n\tfittedThreshold = %.2f\n)\n", w[0], t)
	return b.String()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "injfit:", err)
	os.Exit(1)
}
