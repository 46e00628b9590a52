package secrets

import (
	"context"
	"math/rand"
	"testing"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// embeddedImage is a drawing's embedded PNG, as base64 on one long line.
func embeddedImage(rnd *rand.Rand, n int) string {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[rnd.Intn(len(b64))]
	}
	return `<image width="10" height="10" href="data:image/png;base64,` + string(b) + `"/>`
}

// TestSecretsInSVG: an SVG with long lines of embedded images is matched around the rules'
// keywords only (redact's windows), and a secret in it is still found: in its own element,
// and on the long line itself, next to the image data.
func TestSecretsInSVG(t *testing.T) {
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(30))
	img := embeddedImage(rnd, 60_000)
	snyk := "snyk_token = \"" + "3f9a2c1e-7b4d-4e8a-9c6f-1d2e3f4a5b6c" + "\""
	lines := []string{`<svg xmlns="http://www.w3.org/2000/svg">`, img,
		`<desc>token ` + testPAT + `</desc>`,
		img[:30_000] + " " + snyk + " " + img[30_000:],
		img[:40_000] + `" data-t="` + testPAT2 + `" x="` + img[40_000:], "</svg>"}
	u := &diff.Unit{Files: []diff.FileDiff{difftest.AddedFile("docs/img/drawing.svg", lines...)}}
	var r review.Result
	if err := (&Scanner{Detector: det}).Scan(context.Background(), u, &r); err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, f := range r.Findings {
		got[f.Line] = f.RuleID
	}
	for line, rule := range map[int]string{3: "secrets/github-pat", 4: "secrets/snyk-api-token", 5: "secrets/github-pat"} {
		if got[line] != rule {
			t.Errorf("line %d: %s not found in the SVG (findings by line: %v)", line, rule, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("findings on lines %v, want 3, 4 and 5 only", got)
	}
}
