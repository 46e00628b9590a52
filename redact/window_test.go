package redact

import (
	"context"
	"math/rand"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// windowed is a default rule that window.go matches around its keywords: its regex and windows.
type windowed struct {
	id string
	re *regexp.Regexp
	w  windows
}

func windowedRules(t testing.TB) []windowed {
	d := newDetector(t, Options{})
	def, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	var out []windowed
	for _, id := range d.e.ids {
		r := def.Rules[id]
		if r.Regex == nil {
			continue
		}
		if w := newWindows(r.Regex.String(), r.Keywords); w.kws != nil {
			out = append(out, windowed{id, r.Regex, w})
		}
	}
	return out
}

// filler is a long line of an SVG's embedded image: base64, as an illustration program writes it.
func filler(rnd *rand.Rand, n int) string {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[rnd.Intn(len(b64))]
	}
	return string(b)
}

// TestWindowsAreOn: the rules whose regex walked SVG lines of base64 for seconds (their
// keywords occur in base64 by chance) are matched around their keywords.
func TestWindowsAreOn(t *testing.T) {
	on := map[string]bool{}
	for _, r := range windowedRules(t) {
		on[r.id] = true
	}
	for _, id := range []string{"snyk-api-token", "sumologic-access-id", "sumologic-access-token", "jwt", "square-access-token"} {
		if !on[id] {
			t.Errorf("%s is matched on the whole text", id)
		}
	}
}

// TestWindowsMatchLikeTheRegex: for every windowed rule, a sample of its regex put into a long
// line of base64 (at its start, end, middle, next to a word byte or a space) is matched by the
// windows exactly when the regex matches the whole line; so is the line alone.
func TestWindowsMatchLikeTheRegex(t *testing.T) {
	rnd := rand.New(rand.NewSource(30))
	n := 0
	for _, r := range windowedRules(t) {
		re, err := syntax.Parse(r.re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 2; k++ {
			var b strings.Builder
			sample(re.Simplify(), rnd, &b)
			s := b.String()
			pad := filler(rnd, windowedMin)
			for _, text := range []string{pad, s + " " + pad, pad + " " + s, pad[:100] + s + pad, pad + "=" + s + "\n" + pad, pad[:2000] + " " + s + " " + pad, strings.ToUpper(pad) + s} {
				n++
				if got, want := r.w.match(text, lowerASCIIBytes(text), r.re.MatchString), r.re.MatchString(text); got != want {
					t.Fatalf("%s: windows say %v, the regex %v, on a sample %q in %d bytes", r.id, got, want, s, len(text))
				}
			}
		}
	}
	t.Logf("%d texts compared", n)
}

// FuzzWindows: the windows and the regex agree on any text of windowedMin bytes or more.
func FuzzWindows(f *testing.F) {
	rules := windowedRules(f)
	for _, s := range []string{"snyk_token = '12345678-1234-1234-1234-123456789012'", "Sumo_key: su0123456789AB", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghij",
		"EAAAl0123456789abcdefghijk", "ſumo=su0123456789AB", "é sumo = su0123456789AB"} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, at int) {
		pad := filler(rand.New(rand.NewSource(int64(at))), windowedMin)
		at = max(0, min(len(pad), at))
		text := pad[:at] + s + pad[at:]
		if !foldsInASCII(text) {
			return // matched whole (windows.use)
		}
		for _, r := range rules {
			if got, want := r.w.match(text, lowerASCIIBytes(text), r.re.MatchString), r.re.MatchString(text); got != want {
				t.Fatalf("%s: windows say %v, the regex %v, on %q", r.id, got, want, text)
			}
		}
	})
}

// BenchmarkScanEmbeddedImages: lines of base64 image data (an SVG's embedded PNGs, 2 MB), where
// the short keywords of some rules occur by chance: 5.1 s a run (on two loaded cores) when
// those rules' regexes walked the whole lines, 0.44 s with windows.
func BenchmarkScanEmbeddedImages(b *testing.B) {
	d := newDetector(b, Options{})
	rnd := rand.New(rand.NewSource(30))
	var sb strings.Builder
	for range 20 {
		sb.WriteString(`<image href="data:image/png;base64,` + filler(rnd, 100_000) + "\"/>\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := d.ScanContext(context.Background(), "docs/img/drawing.svg", text, 1); err != nil {
			b.Fatal(err)
		}
	}
}
