package redact

import (
	"context"
	"go/build"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkNewAndScan100K is what a fresh process does for an agent's 100 KB Write (the
// bench's net/http/server.go) past compiling the rules it needs, which stay compiled between
// iterations here: build the detector and scan once.
func BenchmarkNewAndScan100K(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(build.Default.GOROOT, "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	text := string(data[:min(len(data), 100_000)]) + "\n"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		d, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.ScanContext(context.Background(), "server.go", text, 1); err != nil {
			b.Fatal(err)
		}
	}
}
