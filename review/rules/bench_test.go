package rules

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func benchScanner(b *testing.B, s review.Scanner, u *diff.Unit) {
	b.SetBytes(difftest.AddedBytes(u))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r review.Result
		if err := s.Scan(context.Background(), u, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuiltinNetHTTP(b *testing.B) {
	benchScanner(b, Scanner{}, difftest.NetHTTPUnit(b))
}

func BenchmarkBuiltinBase64(b *testing.B) { benchScanner(b, Scanner{}, difftest.Base64Unit(b)) }

// BenchmarkBuiltinFlowWorst: a long scope of SQL runs of variables defined through other
// variables, the cross-line reader's worst case (its look-back budget bounds each line).
func BenchmarkBuiltinFlowWorst(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("def f(a0):\n")
	for i := 1; i < 20000; i++ {
		fmt.Fprintf(&sb, "    a%d = a%d + b%d + c%d + d%d + e%d + g%d\n    cur.execute(a%d, a%d, b%d, c%d, d%d, e%d)\n",
			i%500, (i+1)%500, i%7, i%11, i%13, i%17, i%19, i%500, (i+3)%500, i%7, i%11, i%13, i%17)
	}
	benchScanner(b, Scanner{}, difftest.AddedUnit("q.py", sb.String()))
}
