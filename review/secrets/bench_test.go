package secrets

import (
	"context"
	"testing"

	"github.com/tollgate-dev/tollgate/redact"
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

func newBenchDetector(b *testing.B) *redact.Detector {
	d, err := redact.New(redact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkSecretsNetHTTP(b *testing.B) {
	benchScanner(b, &Scanner{Detector: newBenchDetector(b)}, difftest.NetHTTPUnit(b))
}

func BenchmarkSecretsBase64(b *testing.B) {
	benchScanner(b, &Scanner{Detector: newBenchDetector(b)}, difftest.Base64Unit(b))
}

// BenchmarkDetectorSetup is the cost of building the secrets detector (gitleaks' rules).
func BenchmarkDetectorSetup(b *testing.B) {
	for i := 0; i < b.N; i++ {
		newBenchDetector(b)
	}
}
