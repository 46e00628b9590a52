package guard

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func BenchmarkWriteServerGo(b *testing.B) {
	o := testOptions()
	o.Detector = testDetector(b)
	data, _ := os.ReadFile(filepath.Join(runtime.GOROOT(), "src/net/http/server.go"))
	content := string(data[:100000])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Decide(Call{Kind: Write, Path: "/home/u/project/server.go", Content: content}, o)
	}
}
