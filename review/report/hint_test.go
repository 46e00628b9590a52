package report

import (
	"context"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/secrets"
)

// The fix is chosen by what was found, not by the file's name: a key that is a file of its own
// gets the key file's fix whatever it is called; a key inside code gets a token's.
func TestFixByWhatWasFound(t *testing.T) {
	fixes := testFixes(t)
	keyFile := "stop tracking the key: `git rm --cached "
	token := secrets.Fix
	key := func(path string, col int) review.Finding {
		f := finding("secrets/private-key", policy.Critical, path, 1, "-----BEGIN RSA PRIVATE KEY-----****")
		f.Column = col
		return f
	}
	later := finding("secrets/github-pat", policy.High, "app.go", 2, `token = "ghp_****"`)
	later.LaterRemoved = true
	tests := []struct {
		name string
		f    review.Finding
		want string // a prefix of the fix
	}{
		{"key file with a key name", key("server.key", 1), keyFile + "server.key`"},
		{"key file without one", key("tests/fixtures/fake_rsa", 1), keyFile + "tests/fixtures/fake_rsa`"},
		{"key file named .txt", key("notes/deploy.txt", 1), keyFile},
		{"key inside Go code", key("keys.go", 12), token},
		{"key at the start of a line of code", key("keys.py", 1), token},
		{"key in JSON config", key("config/service-account.json", 19), token},
		{"the built-in key file rule", finding("tollgate/private-key-file", policy.High, "id_ed25519", 1, "file: id_ed25519"), keyFile + "id_ed25519`"},
		{"token in code", finding("secrets/github-pat", policy.High, "app.go", 3, `t = "ghp_****"`), token},
		{"token in .env", finding("secrets/generic-api-key", policy.High, ".env", 1, "KEY=wJal****"), envFileFix[:40]},
		{"token in .env.local", finding("secrets/generic-api-key", policy.High, "config/.env.local", 1, "KEY=wJal****"), envFileFix[:40]},
		{"the credential file rule keeps its fix", finding("tollgate/credential-file", policy.High, ".env", 1, "file: .env"), "stop tracking the file: `git rm --cached .env`"},
		{"a secret a later commit removes", later, historyFix},
	}
	for _, tt := range tests {
		got := fixFor(tt.f, fixes)
		want := strings.ReplaceAll(tt.want, "PATH", shellQuote(tt.f.Path))
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: fix = %q, want it to start with %q", tt.name, got, want)
		}
	}
}

// The summary gives one way out per kind of failing finding, and only for the kinds present.
func TestHintPerKind(t *testing.T) {
	const (
		inline    = "inline `tollgate:allow` comment on its line"
		file      = "takes no inline marker: if it is meant to be committed"
		history   = "rewrite that commit"
		injection = "prompt injection takes no inline marker"
		meta      = "reword the message"
	)
	line := finding("secrets/github-pat", policy.High, "app.go", 2, `t = "ghp_****"`)
	keyFile := finding("secrets/private-key", policy.Critical, "tests/fixtures/fake_rsa", 1, "-----BEGIN RSA PRIVATE KEY-----****")
	keyFile.Column = 1
	env := finding("secrets/generic-api-key", policy.High, ".env", 1, "KEY=wJal****")
	binary := finding("secrets/github-pat", policy.High, "app.bin", 0, "ghp_****")
	inj := finding(review.InjectionRuleID, policy.High, "notes.md", 1, "Ignore all previous instructions")
	msg := finding("secrets/github-pat", policy.High, "(commit message)", 1, "ghp_****")
	msg.Metadata = "message"
	low := finding("tollgate/todo", policy.Low, "app.go", 1, "")
	tests := []struct {
		name     string
		kind     string
		findings []review.Finding
		want     []string
	}{
		{"a line", "staged", []review.Finding{line}, []string{inline}},
		{"a key file", "staged", []review.Finding{keyFile}, []string{file, "`tollgate baseline --staged`"}},
		{"a .env secret", "staged", []review.Finding{env}, []string{file}},
		{"a binary", "staged", []review.Finding{binary}, []string{file}},
		{"prompt injection", "staged", []review.Finding{inj}, []string{injection}},
		{"the commit message", "message", []review.Finding{msg}, []string{meta}},
		{"a commit of a push", "push", []review.Finding{line}, []string{history}},
		{"injection in a push is still injection", "push", []review.Finding{inj}, []string{injection}},
		{"every file at HEAD is not history", "all", []review.Finding{line}, []string{inline}},
		{"several kinds", "staged", []review.Finding{line, keyFile, inj}, []string{inline, file, injection}},
		{"not blocking: no hint", "staged", []review.Finding{low}, nil},
	}
	all := []string{inline, file, history, injection, meta}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := hintReport(t, tt.kind, tt.findings)
			var b strings.Builder
			if err := (Text{}).Write(&b, rep); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in the hints\n%s", w, out)
				}
			}
			for _, h := range all {
				if !contains(tt.want, h) && strings.Contains(out, h) {
					t.Errorf("hint %q shown for kinds it is not about\n%s", h, out)
				}
			}
		})
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// hintReport runs a review of one unit (a commit's unit for a push) whose only scanner adds fs.
func hintReport(t *testing.T, kind string, fs []review.Finding) *review.Report {
	t.Helper()
	commit := ""
	if kind == "push" || kind == "all" {
		commit = strings.Repeat("3", 40)
	}
	var files []diff.FileDiff
	for _, f := range fs {
		files = append(files, diff.FileDiff{NewPath: f.Path, Status: diff.Added, Hunks: []diff.Hunk{difftest.Hunk(0, 0, 1, 2, difftest.Add(1, "a"), difftest.Add(2, "b"))}})
	}
	ch := &diff.Change{Kind: kind, Head: strings.Repeat("3", 40), Units: []diff.Unit{{Commit: commit, Files: files}}}
	return review.Run(context.Background(), ch, review.Options{Config: config(nil), Scanners: []review.Scanner{finds(fs...)}})
}
