package review

import (
	"context"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func benchScanner(b *testing.B, s Scanner, u *diff.Unit) {
	b.SetBytes(difftest.AddedBytes(u))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r Result
		if err := s.Scan(context.Background(), u, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuiltinNetHTTP(b *testing.B) {
	benchScanner(b, BuiltinScanner{}, difftest.NetHTTPUnit(b))
}

func BenchmarkBuiltinBase64(b *testing.B) { benchScanner(b, BuiltinScanner{}, difftest.Base64Unit(b)) }
