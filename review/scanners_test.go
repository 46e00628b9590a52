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
