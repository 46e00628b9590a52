package secrets

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Git metadata is scanned like added text and reported at its name, line and kind; a token in
// a file's path is reported at that file, masked; near misses (names that only mention
// tokens) are left alone.
func TestScannerMeta(t *testing.T) {
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	commit := "0123456789abcdef0123456789abcdef01234567"
	ch := &diff.Change{Kind: "push", Units: []diff.Unit{
		{Commit: commit, Meta: []diff.FileDiff{
			diff.NewMeta(diff.MetaMessage, "(commit 0123456789ab message)", "fix token refresh\n\nthe token is read from GITHUB_TOKEN\nold one: "+testPAT+"\n"),
			diff.NewMeta(diff.MetaAuthor, "(commit 0123456789ab author)", "Token Rotator <"+testPAT2+"@example.com>"),
		}, Files: []diff.FileDiff{
			{NewPath: testAWS + "/notes.txt", Status: diff.Added},
			{NewPath: "docs/api-key-rotation.md", Status: diff.Added},
			{NewPath: "src/secret_key_handler.go", Status: diff.Added},
			{OldPath: "a.go", NewPath: "tokens.go", Status: diff.Renamed},
		}},
		{Meta: []diff.FileDiff{
			diff.NewMeta(diff.MetaRef, "(pushed refs)", "refs/heads/fix/token-refresh\nrefs/heads/"+testPAT+"\n"),
			diff.NewMeta(diff.MetaTagMessage, "(tag 89abcdef0123 message)", "release notes\n"+strings.Join(testPEM, "\n")+"\n"),
			diff.NewMeta(diff.MetaTagger, "(tag 89abcdef0123 tagger)", "Release Bot <bot@example.com>"),
		}},
	}}
	rep := review.Run(context.Background(), ch, review.Options{Config: policy.Default(), Scanners: []review.Scanner{&Scanner{Detector: det}}, Detector: det})
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.RuleID+" "+f.Path+":"+strconv.Itoa(f.Line)+" "+f.Metadata)
		for _, s := range []string{testPAT, testPAT2, testAWS} {
			if strings.Contains(f.Path+f.Evidence+f.Message, s) {
				t.Errorf("%s: a secret in clear: path %q evidence %q", f.RuleID, f.Path, f.Evidence)
			}
		}
	}
	want := []string{
		"secrets/private-key (tag 89abcdef0123 message):2 tag-message",
		"secrets/github-pat (commit 0123456789ab author):1 author",
		"secrets/github-pat (commit 0123456789ab message):4 commit-message",
		"secrets/github-pat (pushed refs):2 ref",
		"secrets/aws-access-token AKIA****/notes.txt:0 path",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
