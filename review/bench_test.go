package review

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// Benchmarks for the scanners on the same workloads as scripts/bench.sh: Go's net/http sources
// and 1 MB of random base64, each staged as new files.

func netHTTPUnit(b *testing.B) *diff.Unit {
	b.Helper()
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Skip("no net/http sources:", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	u := &diff.Unit{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		u.Files = append(u.Files, difftest.AddedUnit(n, strings.TrimSuffix(string(data), "\n")).Files[0])
	}
	return u
}

func base64Unit(b *testing.B) *diff.Unit {
	b.Helper()
	raw := make([]byte, 768<<10)
	if _, err := rand.Read(raw); err != nil {
		b.Fatal(err)
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	var lines []string
	for len(enc) > 76 {
		lines = append(lines, enc[:76])
		enc = enc[76:]
	}
	lines = append(lines, enc)
	return difftest.AddedUnit("blob.b64", strings.Join(lines, "\n"))
}

func unitBytes(u *diff.Unit) int64 {
	n := 0
	for i := range u.Files {
		for _, l := range u.Files[i].AddedLines() {
			n += len(l.Text) + 1
		}
	}
	return int64(n)
}

func benchScanner(b *testing.B, s Scanner, u *diff.Unit) {
	b.SetBytes(unitBytes(u))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r Result
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
	benchScanner(b, &SecretsScanner{Detector: newBenchDetector(b)}, netHTTPUnit(b))
}

func BenchmarkSecretsBase64(b *testing.B) {
	benchScanner(b, &SecretsScanner{Detector: newBenchDetector(b)}, base64Unit(b))
}

func BenchmarkBuiltinNetHTTP(b *testing.B) { benchScanner(b, BuiltinScanner{}, netHTTPUnit(b)) }

func BenchmarkBuiltinBase64(b *testing.B) { benchScanner(b, BuiltinScanner{}, base64Unit(b)) }

// BenchmarkDetectorSetup is the cost of building the secrets detector (gitleaks' rules).
func BenchmarkDetectorSetup(b *testing.B) {
	for i := 0; i < b.N; i++ {
		newBenchDetector(b)
	}
}
