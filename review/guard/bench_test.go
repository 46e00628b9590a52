package guard

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/redact"
)

func BenchmarkShell(b *testing.B) {
	o := testOptions()
	for i := 0; i < b.N; i++ {
		Decide(Call{Kind: Shell, Command: `git add -A && git commit -m "fix: handle --no-verify in docs" && git push origin main`}, o)
	}
}

func BenchmarkWrite100K(b *testing.B) {
	o := testOptions()
	o.Detector = testDetector(b)
	r := rand.New(rand.NewSource(1))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n=;{}()"
	var sb strings.Builder
	for sb.Len() < 100_000 {
		sb.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	content := sb.String()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Decide(Call{Kind: Write, Path: "/home/u/project/big.go", Content: content}, o)
	}
}

func BenchmarkDetectorNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		det, _ := redact.New(redact.Options{})
		det.Redact("git commit -m x")
	}
}
