package rules

import (
	"context"
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
