package redact

import (
	"math/rand"
	"strings"
	"testing"
)

// TestLineIndex: every line's offset, asked for in any order (ascending runs, jumps back,
// repeats), is the one a full index of the text gives.
func TestLineIndex(t *testing.T) {
	rnd := rand.New(rand.NewSource(27))
	for _, n := range []int{1, 2, markEvery - 1, markEvery, markEvery + 1, 3*markEvery + 7} {
		var b strings.Builder
		var want []int
		for range n {
			want = append(want, b.Len())
			b.WriteString(strings.Repeat("x", rnd.Intn(5)) + "\n")
		}
		text := b.String()
		x := newLineIndex(text)
		if x.n != n {
			t.Fatalf("%d lines counted as %d", n, x.n)
		}
		check := func(i int) {
			wantOff := len(text)
			if i < n {
				wantOff = want[i]
			}
			if got := x.start(i); got != wantOff {
				t.Fatalf("%d lines: line %d at %d, want %d", n, i, got, wantOff)
			}
		}
		for i := 0; i <= n; i++ {
			check(i)
		}
		for range 4 * n {
			check(rnd.Intn(n + 1))
		}
		for i := n; i >= 0; i-- {
			check(i)
		}
	}
}
