package redact

import (
	"encoding/base64"
	"encoding/hex"
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
		"x=" + strings.Repeat("ab", 20), "%41", "\\u0041", "U+0041 ", "aGVsbG8gd29ybGQhIQ==", "Zm9vYmFyYmF6cXV4cXV1eA",
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
