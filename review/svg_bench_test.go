package review_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/rules"
	"github.com/tollgate-dev/tollgate/review/secrets"
)

// svgUnit is n drawings as an illustration program writes them: a gradient, a title with
// accents, styled groups and lines of path data up to 54,000 characters.
func svgUnit(n int) *diff.Unit {
	rnd := rand.New(rand.NewSource(30))
	var u diff.Unit
	for i := range n {
		lines := []string{`<?xml version="1.0" encoding="UTF-8"?>`,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">`,
			fmt.Sprintf(`  <title>Überblick %d — les données</title>`, i),
			fmt.Sprintf(`  <defs><linearGradient id="g%d"><stop offset="0" stop-color="#fff"/></linearGradient></defs>`, i)}
		for size := 0; size < 116_000; {
			var d strings.Builder
			for d.Len() < []int{300, 2_000, 54_000}[rnd.Intn(3)] {
				fmt.Fprintf(&d, "M%.4f %.3fv%.4fH%.4fc-.2 .1-.4.3-.6.5Z", rnd.Float64()*24, rnd.Float64()*24, rnd.Float64()*9, rnd.Float64()*24)
			}
			l := fmt.Sprintf(`  <g style="fill:#%06x;stroke:none;font-size:12px"><path d="%s"/></g>`, rnd.Intn(1<<24), d.String())
			lines = append(lines, l)
			size += len(l)
		}
		u.Files = append(u.Files, difftest.AddedFile(fmt.Sprintf("art/drawing-%02d.svg", i), append(lines, "</svg>")...))
	}
	return &u
}

// BenchmarkReviewSVG: 56 large drawings (6.5 MB) through every in-process scanner. The
// injection detector's hidden-element check and a secret rule keyed on "linear" walked the
// regexp engine over each long line: the injection scan took 2.8 s a run before, 0.6 s after.
func BenchmarkReviewSVG(b *testing.B) {
	u := svgUnit(56)
	det, err := redact.New(redact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []review.Scanner{&secrets.Scanner{Detector: det}, rules.Scanner{}, injection.Scanner{}} {
		b.Run(s.Name(), func(b *testing.B) {
			b.SetBytes(difftest.AddedBytes(u))
			for b.Loop() {
				var r review.Result
				if err := s.Scan(context.Background(), u, &r); err != nil {
					b.Fatal(err)
				}
				if len(r.Findings) != 0 {
					b.Fatalf("%d findings on drawings: %v", len(r.Findings), r.Findings[0])
				}
			}
		})
	}
}
