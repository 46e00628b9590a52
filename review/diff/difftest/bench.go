package difftest

import (
	"crypto/rand"
	"encoding/base64"
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// The scanners' benchmark workloads, the same as scripts/bench.sh: Go's net/http sources and
// 1 MB of random base64, each staged as new files.

// GoSource is a folder of the Go toolchain's own sources (src/ under GOROOT), which the
// benchmarks and some tests read as real-world material. go/build's default context finds GOROOT
// without the deprecated runtime.GOROOT.
func GoSource(elem ...string) string {
	return filepath.Join(append([]string{build.Default.GOROOT, "src"}, elem...)...)
}

// NetHTTPUnit is Go's net/http sources as new files (skips the benchmark when they are absent).
func NetHTTPUnit(tb testing.TB) *diff.Unit {
	tb.Helper()
	dir := GoSource("net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Skip("no net/http sources:", err)
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
			tb.Fatal(err)
		}
		u.Files = append(u.Files, AddedUnit(n, strings.TrimSuffix(string(data), "\n")).Files[0])
	}
	return u
}

// Base64Unit is 1 MB of random base64 in 76-character lines, as one new file.
func Base64Unit(tb testing.TB) *diff.Unit {
	tb.Helper()
	raw := make([]byte, 768<<10)
	if _, err := rand.Read(raw); err != nil {
		tb.Fatal(err)
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	var lines []string
	for len(enc) > 76 {
		lines = append(lines, enc[:76])
		enc = enc[76:]
	}
	lines = append(lines, enc)
	return AddedUnit("blob.b64", strings.Join(lines, "\n"))
}

// AddedBytes is the size of the unit's added lines, newlines included (for b.SetBytes).
func AddedBytes(u *diff.Unit) int64 {
	n := 0
	for i := range u.Files {
		for l := range u.Files[i].Added() {
			n += len(l.Text) + 1
		}
	}
	return int64(n)
}
