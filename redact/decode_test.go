package redact

import (
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// gitleaksDecodes reports whether gitleaks' own decoder decodes anything on line.
func gitleaksDecodes(line string) bool {
	_, segs := codec.NewDecoder().Decode(line, nil)
	return len(segs) > 0
}

func TestMayBeEncoded(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`import "net/http/httptest"`, false},
		{`func (w *ResponseWriterWithHeaders) WriteHeaderAndFlush() {`, false},
		{`x := strings.TrimPrefix(path, "/debug/pprof/profile")`, false},
		{`blob: ` + base64.StdEncoding.EncodeToString([]byte("a token it carries")), true},
		{`blob: ` + base64.RawURLEncoding.EncodeToString([]byte("url-safe, no padding?")), true},
		{`sum := "` + hex.EncodeToString([]byte("sixteen bytes!!!")) + `"`, true},
		{`u := "/a%2Fb"`, true},
		{`s := "\u0041\u0042"`, true},
		{`U+0041 U+0042`, true},
		{`U+0041`, true},
		{`<image href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAU+0a1bAAAAU+AAAAnWjG+Q"/>`, false}, // U+ inside base64
		{`name U+00zz `, false},
		{`hash = "sha256:c600e85f2ffd9f1035222b1a312aff85fd11ea39baff1d705b9b047aad2ce267"`, false},
		{`- uses: actions/checkout@c85c95e3d7251135ab7dc9ce3241c5835cc595a9`, false},
		{`h := "` + hex.EncodeToString([]byte("printable 0123456789")) + `"`, true},
	} {
		if got := mayBeEncoded(c.line); got != c.want {
			t.Errorf("mayBeEncoded(%q) = %v, want %v", c.line, got, c.want)
		}
		if c.want != gitleaksDecodes(c.line) {
			t.Errorf("the case is wrong: gitleaks decodes %q: %v", c.line, !c.want)
		}
	}
}

// FuzzMayBeEncoded: mayBeEncoded is a superset of gitleaks' decoder on one line (a line it
// calls plain is never decoded by gitleaks).
func FuzzMayBeEncoded(f *testing.F) {
	for _, s := range []string{
		"import \"net/http/httptest\"", base64.StdEncoding.EncodeToString([]byte("a token it carries")),
		"x=" + strings.Repeat("ab", 20), "x=" + hex.EncodeToString([]byte("sixteen bytes!!!")), "g" + strings.Repeat("7f", 17), strings.Repeat("0", 33), "%41", "\\u0041", "U+0041 ", "aGVsbG8gd29ybGQhIQ==", "Zm9vYmFyYmF6cXV4cXV1eA",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		if gitleaksDecodes(line) && !mayBeEncoded(line) {
			t.Fatalf("gitleaks decodes %q, mayBeEncoded says it cannot", line)
		}
	})
}

// TestMayBeEncodedHexRuns: on lines mixing hex digits (of printable text, of hashes, and mostly
// low digits), base64 and separators, mayBeEncoded never says no where gitleaks decodes; the
// fuzzer rarely writes 32 hex digits in a row.
func TestMayBeEncodedHexRuns(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rnd.Intn(len(alphabet))]
		}
		return string(b)
	}
	chunks := []func() string{
		func() string { return hex.EncodeToString([]byte(pick("abc XYZ!~\t", 8+rnd.Intn(20)))) },
		func() string { return pick("0123456789abcdef", 20+rnd.Intn(50)) },
		func() string { return pick("01234567", 10+rnd.Intn(30)) + pick("89abcdef", 1) },
		func() string { return base64.StdEncoding.EncodeToString([]byte(pick("abc XYZ!~", 12+rnd.Intn(20)))) },
		func() string { return pick(" .:\"/=_-", 1+rnd.Intn(2)) },
	}
	decodes := 0
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rnd.Intn(5) + 1; k > 0; k-- {
			b.WriteString(chunks[rnd.Intn(len(chunks))]())
		}
		line := b.String()
		if gitleaksDecodes(line) {
			decodes++
			if !mayBeEncoded(line) {
				t.Fatalf("gitleaks decodes %q, mayBeEncoded says it cannot", line)
			}
		}
	}
	if decodes < 1000 {
		t.Fatalf("only %d lines decode: the case is wrong", decodes)
	}
}
