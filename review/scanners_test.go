package review_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/rules"
)

// The review pipeline with every in-process scanner (package injection imports review, so
// these tests are outside package review).

// TestEvidenceMaskedCentrally: a code finding on a line that also holds a token shows the
// token masked, whichever scanner wrote the evidence.
func TestEvidenceMaskedCentrally(t *testing.T) {
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const token = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	u := difftest.AddedUnit("f.py", `r = requests.get(url, verify=False, headers={"Authorization": "token `+token+`"})`)
	rep := review.Run(context.Background(), &diff.Change{Kind: "staged", Units: []diff.Unit{*u}},
		review.Options{Config: policy.Default(), Scanners: []review.Scanner{rules.Scanner{}, injection.Scanner{}}, Detector: det})
	if len(rep.Findings) == 0 {
		t.Fatal("no finding")
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Evidence, token) || strings.Contains(f.Message, token) {
			t.Fatalf("%s shows the token: %q", f.RuleID, f.Evidence)
		}
	}
}

// TestManyFindingsMaskedConcurrently: findings are masked on every core; each one's evidence
// still hides every token on its line (run with -race), and fingerprints stay distinct.
func TestManyFindingsMaskedConcurrently(t *testing.T) {
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var tokens []string
	for i := range 300 {
		tok := "ghp_" + strings.Repeat(string(rune('A'+i%26)), 2) + "R4nd0mT0k3nW1thEnoughEntropyAbCd" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		tokens = append(tokens, tok)
		b.WriteString(`r = requests.get(url, verify=False, headers={"Authorization": "token ` + tok + `"})` + "\n")
	}
	u := difftest.AddedUnit("f.py", b.String())
	cfg := policy.Default()
	cfg.MaxFindings = 10000
	rep := review.Run(context.Background(), &diff.Change{Kind: "staged", Units: []diff.Unit{*u}},
		review.Options{Config: cfg, Scanners: []review.Scanner{rules.Scanner{}}, Detector: det})
	if len(rep.Findings) < 300 {
		t.Fatalf("want a finding per line, got %d", len(rep.Findings))
	}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		for _, tok := range tokens {
			if strings.Contains(f.Evidence, tok) || strings.Contains(f.Message, tok) {
				t.Fatalf("%s:%d shows a token: %q", f.RuleID, f.Line, f.Evidence)
			}
		}
		if seen[f.Fingerprint] {
			t.Fatalf("fingerprint %s twice", f.Fingerprint)
		}
		seen[f.Fingerprint] = true
	}
}
