package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkReviewStagedMemory runs `tollgate review --staged` in process on one large staged
// file (issue 13's workloads: 10 million empty lines; 20 MB of Go source) and reports the peak
// Go heap seen while it ran and the bytes allocated per review. The binary's peak RSS (git's
// included) is what `BENCH_MEMORY=1 scripts/bench.sh` measures.
func BenchmarkReviewStagedMemory(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	for _, w := range []struct {
		name    string
		content func(b *testing.B) []byte
	}{
		{"empty-lines-10MB", func(*testing.B) []byte { return bytes.Repeat([]byte("\n"), 10_000_000) }},
		{"go-text-20MB", goText},
	} {
		b.Run(w.name, func(b *testing.B) {
			dir := b.TempDir()
			content := w.content(b)
			benchGit(b, dir, "init", "-q")
			if err := os.WriteFile(filepath.Join(dir, "big.txt"), content, 0o644); err != nil {
				b.Fatal(err)
			}
			benchGit(b, dir, "add", "big.txt")
			b.Setenv("HOME", b.TempDir())
			b.Setenv("XDG_CONFIG_HOME", b.TempDir())
			b.Chdir(dir)
			defer debug.SetGCPercent(debug.SetGCPercent(50))
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(softMemoryLimit))
			b.SetBytes(int64(len(content)))
			var peak, alloc uint64
			for b.Loop() {
				p, a := measureHeap(func() {
					run(context.Background(), []string{"tollgate", "review", "--staged", "--format", "json", "--fail-on", "critical"},
						strings.NewReader(""), io.Discard, io.Discard)
				})
				peak, alloc = max(peak, p), a
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(alloc)/(1<<20), "alloc-MB/op")
		})
	}
}

// goText is 20 MB of this module's Go sources, repeated.
func goText(b *testing.B) []byte {
	var src []byte
	err := filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			data, rerr := os.ReadFile(p)
			src = append(src, data...)
			return rerr
		}
		return err
	})
	if err != nil || len(src) == 0 {
		b.Fatalf("failed to read the module's sources: %v", err)
	}
	const size = 20 << 20
	out := make([]byte, 0, size+len(src))
	for len(out) < size {
		out = append(out, src...)
	}
	return out[:size]
}

// measureHeap runs f and returns the largest heap in use seen while it ran (sampled every
// millisecond) and the bytes it allocated.
func measureHeap(f func()) (peak, alloc uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return peak, after.TotalAlloc - before.TotalAlloc
}

func benchGit(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@tollgate.invalid",
		"GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@tollgate.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
