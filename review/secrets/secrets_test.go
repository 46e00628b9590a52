package secrets

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Test secrets: shaped like real ones, valid for nothing.
const (
	testPAT  = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	testPAT2 = "ghp_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"
	testAWS  = "AKIAZ7Q2MXV4KJ5T3WRN"
)

var testPEM = []string{
	"-----BEGIN RSA PRIVATE KEY-----",
	"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw",
	"7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFc",
	"zGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE",
	"-----END RSA PRIVATE KEY-----",
}

// The secrets scanner reports each secret at its new-file line, masks the evidence, honours
// inline markers and .gitleaksignore (counting what it suppressed), and skips deleted lines.
func TestScanner(t *testing.T) {
	det, err := redact.New(redact.Options{Ignore: []byte("main.go:github-pat:11\n")})
	if err != nil {
		t.Fatal(err)
	}
	var pem []diff.Line
	for i, l := range testPEM {
		pem = append(pem, difftest.Add(40+i, l))
	}
	commit := "0123456789abcdef0123456789abcdef01234567"
	ch := &diff.Change{Kind: "commit", Units: []diff.Unit{{Commit: commit, Files: []diff.FileDiff{
		{NewPath: "app/config.go", Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 3,
			difftest.Add(1, "package app"),
			difftest.Add(2, `var token = "`+testPAT+`"`),
			difftest.Add(3, `var aws = "`+testAWS+`" // tollgate:allow=secrets/aws-access-token`))}},
		{OldPath: "main.go", NewPath: "main.go", Status: diff.Modified, Hunks: []diff.Hunk{
			difftest.Hunk(10, 1, 10, 2, difftest.Del(10, `old := "`+testAWS+`"`), difftest.Add(10, "x := 1"), difftest.Add(11, `k := "`+testPAT2+`"`)),
			difftest.Hunk(39, 0, 40, 5, pem...),
		}},
		{OldPath: "gone.go", Status: diff.Deleted, Hunks: []diff.Hunk{difftest.Hunk(1, 1, 0, 0, difftest.Del(1, testPAT))}},
		{NewPath: "certs/client.p12", Status: diff.Added, Binary: true},
	}}}}
	rep := review.Run(context.Background(), ch, review.Options{Config: policy.Default(), Scanners: []review.Scanner{&Scanner{Detector: det}}})

	type want struct {
		rule      string
		path      string
		line, end int
		sev       policy.Severity
		evidence  string
	}
	wants := []want{
		{"secrets/private-key", "main.go", 40, 44, policy.Critical, "-----BEGIN RSA PRIVATE KEY-----****"},
		{"secrets/github-pat", "app/config.go", 2, 2, policy.High, `var token = "ghp_****"`},
		{"secrets/pkcs12-file", "certs/client.p12", 1, 1, policy.High, "file name: certs/client.p12"},
	}
	got := map[string]review.Finding{}
	for _, f := range rep.Findings {
		got[f.RuleID+" "+f.Path] = f
		for _, s := range append([]string{testPAT, testPAT2, testAWS}, testPEM[1:4]...) {
			if strings.Contains(f.Evidence, s) || strings.Contains(f.Message, s) {
				t.Errorf("finding %s shows a secret: %q", f.RuleID, f.Evidence)
			}
		}
		if f.Path == "gone.go" {
			t.Errorf("deleted file reported: %+v", f)
		}
		if f.RuleID == "secrets/github-pat" && f.Path == "main.go" {
			t.Errorf(".gitleaksignore entry not honoured: %+v", f)
		}
		if f.RuleID == "secrets/aws-access-token" {
			t.Errorf("inline allow marker not honoured, or a deleted line scanned: %+v", f)
		}
	}
	for _, w := range wants {
		f, ok := got[w.rule+" "+w.path]
		if !ok {
			t.Errorf("no %s in %s; findings: %+v", w.rule, w.path, rep.Findings)
			continue
		}
		if f.Line != w.line || f.EndLine != w.end || f.Severity != w.sev || f.Evidence != w.evidence {
			t.Errorf("%s: lines %d-%d severity %s evidence %q; want %d-%d %s %q",
				w.rule, f.Line, f.EndLine, f.Severity, f.Evidence, w.line, w.end, w.sev, w.evidence)
		}
		if !strings.HasSuffix(f.Message, "(in commit 0123456789ab)") || f.Source != "secrets" || f.Fingerprint == "" {
			t.Errorf("%s: message %q source %q fingerprint %q", w.rule, f.Message, f.Source, f.Fingerprint)
		}
	}
	if rep.Suppressed != 2 {
		t.Errorf("suppressed = %d, want 2 (the inline marker and the .gitleaksignore entry)", rep.Suppressed)
	}
	if len(rep.Binary) != 1 || rep.Binary[0] != "certs/client.p12" {
		t.Errorf("binary = %q", rep.Binary)
	}
	if rep.ExitCode() != 1 || rep.Status != "findings" {
		t.Errorf("exit %d status %q", rep.ExitCode(), rep.Status)
	}
}

func TestAddedBlocks(t *testing.T) {
	tests := []struct {
		name string
		h    diff.Hunk
		want [][]diff.Line
	}{
		{"empty hunk", difftest.Hunk(1, 0, 1, 0), nil},
		{"deletions only", difftest.Hunk(1, 2, 0, 0, difftest.Del(1, "a"), difftest.Del(2, "b")), nil},
		{"one run", difftest.Hunk(0, 0, 1, 3, difftest.Add(1, "a"), difftest.Add(2, "b"), difftest.Add(3, "c")),
			[][]diff.Line{{difftest.Add(1, "a"), difftest.Add(2, "b"), difftest.Add(3, "c")}}},
		{"a context line splits", difftest.Hunk(1, 1, 1, 3, difftest.Add(1, "a"), difftest.Ctx(1, 2, "k"), difftest.Add(3, "c")),
			[][]diff.Line{{difftest.Add(1, "a")}, {difftest.Add(3, "c")}}},
		{"deleted lines between consecutive additions do not split",
			difftest.Hunk(1, 2, 1, 2, difftest.Del(1, "x"), difftest.Add(1, "a"), difftest.Del(2, "y"), difftest.Add(2, "b")),
			[][]diff.Line{{difftest.Add(1, "a"), difftest.Add(2, "b")}}},
		{"a gap in new numbering splits", difftest.Hunk(1, 0, 1, 2, difftest.Add(1, "a"), difftest.Add(5, "b")),
			[][]diff.Line{{difftest.Add(1, "a")}, {difftest.Add(5, "b")}}},
		{"leading and trailing context", difftest.Hunk(1, 2, 1, 4, difftest.Ctx(1, 1, "k"), difftest.Add(2, "a"), difftest.Add(3, "b"), difftest.Ctx(2, 4, "k")),
			[][]diff.Line{{difftest.Add(2, "a"), difftest.Add(3, "b")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := addedBlocks(&tt.h); !reflect.DeepEqual(got, blocksOf(tt.want)) {
				t.Errorf("addedBlocks = %+v, want %+v", got, tt.want)
			}
		})
	}
	// On real git output: the -U3 hunk's single change, and every -U0 hunk of hunks.diff.
	fds, err := diff.ParseDiff(readDiffFixture(t, "context.diff"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := addedBlocks(&fds[0].Hunks[0]), blocksOf([][]diff.Line{{difftest.Add(5, "THIRD")}}); !reflect.DeepEqual(got, want) {
		t.Errorf("context.diff blocks = %+v, want %+v", got, want)
	}
}

// blocksOf is the blocks of runs of added lines, each line ending in a newline.
func blocksOf(runs [][]diff.Line) []block {
	var out []block
	for _, run := range runs {
		var text strings.Builder
		for _, l := range run {
			text.WriteString(l.Text + "\n")
		}
		out = append(out, block{start: run[0].New, text: text.String()})
	}
	return out
}

func readDiffFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "diff", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPublicValues: a Stripe publishable key and a JWT with jwt.io's sample signature are
// public by design (reported low); a Stripe secret key, a restricted key and a JWT with its
// own signature keep their severity.
func TestPublicValues(t *testing.T) {
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const sampleSig = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	cases := []struct {
		line string
		rule string
		sev  policy.Severity
	}{
		{`PUBLISHABLE_KEY = env.get("publishable_key", "pk_live_Q7wErT5yUiOp3aSdF9gHjK1L")`, "secrets/generic-api-key", policy.Low},
		{`auth = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiSmFuZSJ9.` + sampleSig + `"`, "secrets/jwt", policy.Low},
		{`STRIPE_SK = env.get("stripe_sk", "sk_live_Q7wErT5yUiOp3aSdF9gHjK1L")`, "secrets/stripe-access-token", policy.High},
		{`auth = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiSmFuZSJ9.Xq3vR8mN2pL5kJ7hG4fD1sA9zC6bV0nM8wE2rT5yU1i"`, "secrets/jwt", policy.High},
	}
	for _, c := range cases {
		ch := &diff.Change{Kind: "commit", Units: []diff.Unit{{Commit: "0123456789abcdef0123456789abcdef01234567", Files: []diff.FileDiff{
			{NewPath: "app/settings.py", Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 1, difftest.Add(1, c.line))}},
		}}}}
		rep := review.Run(context.Background(), ch, review.Options{Config: policy.Default(), Scanners: []review.Scanner{&Scanner{Detector: det}}})
		found := false
		for _, f := range rep.Findings {
			if f.RuleID == c.rule {
				found = true
				if f.Severity != c.sev {
					t.Errorf("%q: %s at %s, want %s", c.line, c.rule, f.Severity, c.sev)
				}
			}
		}
		if !found {
			t.Errorf("%q: no %s; findings: %+v", c.line, c.rule, rep.Findings)
		}
	}
}
