package redact

import (
	"strings"
	"sync"
	"testing"
)

// Test secrets: shaped like real ones, valid for nothing.
const (
	ghPAT  = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	awsKey = "AKIAZ7Q2MXV4KJ5T3WRN"
	pemKey = "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n" +
		"7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFc\n" +
		"zGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE\n" +
		"-----END RSA PRIVATE KEY-----"
)

func newDetector(t testing.TB, opts Options) *Detector {
	t.Helper()
	d, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return d
}

// find returns the secrets with the given rule id.
func find(ss []Secret, rule string) []Secret {
	var out []Secret
	for _, s := range ss {
		if s.RuleID == rule {
			out = append(out, s)
		}
	}
	return out
}

func TestScanDefaultRules(t *testing.T) {
	d := newDetector(t, Options{})
	tests := []struct {
		name      string
		text      string
		start     int
		rule      string
		line, end int
		value     string
		lineText  string
	}{
		{"pat alone, no newline", ghPAT, 1, "github-pat", 1, 1, ghPAT, ghPAT},
		{"pat on the middle line", "a := 1\ntoken := \"" + ghPAT + "\"\nb := 2\n", 10, "github-pat", 11, 11, ghPAT, "token := \"" + ghPAT + "\""},
		{"pat on the last line without newline", "a\nb\nt = " + ghPAT, 7, "github-pat", 9, 9, ghPAT, "t = " + ghPAT},
		{"pat on the first line", ghPAT + " first\nsecond\n", 42, "github-pat", 42, 42, ghPAT, ghPAT + " first"},
		{"aws key", "x\nkey " + awsKey + " here\n", 3, "aws-access-token", 4, 4, awsKey, "key " + awsKey + " here"},
		{"aws key on the last line without newline", "x\ny\nid: " + awsKey, 100, "aws-access-token", 102, 102, awsKey, "id: " + awsKey},
		{"private key block", "first\n" + pemKey + "\nafter\n", 20, "private-key", 21, 25, pemKey, pemKey},
		{"private key block at the end without newline", "first\nsecond\n" + pemKey, 1, "private-key", 3, 7, pemKey, pemKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := find(d.mustScan("app/config.go", tt.text, tt.start), tt.rule)
			if len(got) != 1 {
				t.Fatalf("found %d %s secrets, want 1: %+v", len(got), tt.rule, d.mustScan("app/config.go", tt.text, tt.start))
			}
			s := got[0]
			if s.Line != tt.line || s.EndLine != tt.end {
				t.Errorf("lines %d-%d, want %d-%d", s.Line, s.EndLine, tt.line, tt.end)
			}
			if s.Value != tt.value {
				t.Errorf("Value = %q, want %q", s.Value, tt.value)
			}
			if !strings.Contains(s.Match, tt.value) {
				t.Errorf("Match %q does not hold the value", s.Match)
			}
			if s.LineText != tt.lineText {
				t.Errorf("LineText = %q, want %q", s.LineText, tt.lineText)
			}
			if s.PathOnly {
				t.Error("content finding marked PathOnly")
			}
			// The columns point at the match on its line.
			first, _, _ := strings.Cut(s.LineText, "\n")
			if s.StartColumn < 1 || s.StartColumn > len(first) || !strings.HasPrefix(first[s.StartColumn-1:], strings.SplitN(tt.value, "\n", 2)[0]) {
				t.Errorf("StartColumn %d does not point at the value in %q", s.StartColumn, first)
			}
			lines := strings.Split(s.LineText, "\n")
			last := lines[len(lines)-1]
			valueLines := strings.Split(tt.value, "\n")
			lastValue := valueLines[len(valueLines)-1]
			if s.EndColumn < len(lastValue) || s.EndColumn > len(last) || !strings.HasSuffix(last[:s.EndColumn], lastValue) {
				t.Errorf("EndColumn %d does not point at the value's end in %q", s.EndColumn, last)
			}
		})
	}
	// Nothing in clean text, nothing in empty text.
	if got := d.mustScan("a.go", "package main\n\nfunc main() {}\n", 1); len(got) != 0 {
		t.Errorf("clean text: %+v", got)
	}
	if got := d.mustScan("a.go", "", 1); len(got) != 0 {
		t.Errorf("empty text: %+v", got)
	}
	// Two secrets, each at its own line.
	got := d.mustScan("a.go", awsKey+"\n\n"+ghPAT+"\n", 5)
	if a, g := find(got, "aws-access-token"), find(got, "github-pat"); len(a) != 1 || len(g) != 1 || a[0].Line != 5 || g[0].Line != 7 {
		t.Errorf("two secrets: %+v", got)
	}
	// Scan does not run path-only rules.
	if got := d.mustScan("store.p12", "hello\n", 1); len(got) != 0 {
		t.Errorf("Scan reported a path-only rule: %+v", got)
	}
}

func TestScanPath(t *testing.T) {
	d := newDetector(t, Options{})
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"certs/client.p12", true},
		{"client.pfx", true},
		{"deep/dir/Store.P12", true},
		{"certs/client.p12.txt", false},
		{"p12", false},
		{"app/main.go", false},
	} {
		got := find(d.mustScanPath(tt.path), "pkcs12-file")
		if (len(got) == 1) != tt.want {
			t.Errorf("ScanPath(%q) = %+v, want pkcs12-file: %v", tt.path, d.mustScanPath(tt.path), tt.want)
			continue
		}
		if tt.want {
			s := got[0]
			if !s.PathOnly || s.Value != "" || s.Match != "" || s.LineText != "" || s.Description == "" {
				t.Errorf("ScanPath(%q) = %+v: want PathOnly, a description and no content", tt.path, s)
			}
		}
	}
}

const ownRule = `
[[rules]]
id = "acme-token"
description = "ACME internal token"
regex = '''acme_[a-z0-9]{24}'''
keywords = ["acme_"]
`

const acmeToken = "acme_q8w7e6r5t4y3u2i1o0p9a8s7"

func TestRepoConfigExtendDefault(t *testing.T) {
	cfg := "[extend]\nuseDefault = true\n" + ownRule
	// gitleaks keeps a package-global extend depth that is never reset; tollgate does its own
	// extending, so building detectors with an extending config again and again keeps working.
	for i := 0; i < 4; i++ {
		d := newDetector(t, Options{RepoConfig: []byte(cfg)})
		got := d.mustScan("a.go", "x = "+acmeToken+"\ny = "+ghPAT+"\n", 1)
		if len(find(got, "acme-token")) != 1 || len(find(got, "github-pat")) != 1 {
			t.Fatalf("round %d: want the repository's rule and the default rules, got %+v", i, got)
		}
		if w := d.Warnings(); len(w) != 0 {
			t.Errorf("round %d: Warnings = %v, want none", i, w)
		}
		// The default detector is unaffected.
		if got := newDetector(t, Options{}).mustScan("a.go", acmeToken+"\n"+ghPAT, 1); len(find(got, "acme-token")) != 0 || len(find(got, "github-pat")) != 1 {
			t.Fatalf("round %d: default detector = %+v", i, got)
		}
	}
}

func TestRepoConfigConcurrent(t *testing.T) {
	cfg := []byte("[extend]\nuseDefault = true\n" + ownRule)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := New(Options{RepoConfig: cfg})
			if err != nil {
				errs <- err.Error()
				return
			}
			if got := d.mustScan("a.go", acmeToken+"\n"+ghPAT, 1); len(got) < 2 {
				errs <- "missing findings"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestRepoConfigDisabledRules(t *testing.T) {
	d := newDetector(t, Options{RepoConfig: []byte("[extend]\nuseDefault = true\ndisabledRules = [\"github-pat\"]\n" + ownRule)})
	got := d.mustScan("a.go", ghPAT+"\n"+awsKey+"\n", 1)
	if len(find(got, "github-pat")) != 0 {
		t.Errorf("disabled rule still reported: %+v", got)
	}
	if len(find(got, "aws-access-token")) != 1 {
		t.Errorf("other default rules dropped: %+v", got)
	}
}

func TestRepoConfigTargetedAllowlist(t *testing.T) {
	cfg := `
[extend]
useDefault = true

[[allowlists]]
description = "the PAT in the docs is a fake"
targetRules = ["github-pat"]
regexes = ['''ghp_R4nd0m''']
` + ownRule
	d := newDetector(t, Options{RepoConfig: []byte(cfg)})
	got := d.mustScan("a.go", ghPAT+"\n"+awsKey+"\n", 1)
	if len(find(got, "github-pat")) != 0 {
		t.Errorf("targeted allowlist not applied: %+v", got)
	}
	if len(find(got, "aws-access-token")) != 1 {
		t.Errorf("targeted allowlist applied to another rule: %+v", got)
	}
	// A PAT the allowlist does not match is still found.
	other := "ghp_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"
	if got := d.mustScan("a.go", other, 1); len(find(got, "github-pat")) != 1 {
		t.Errorf("allowlist too broad: %+v", got)
	}

	// A global allowlist (no targetRules) and a repository rule extending a default one with
	// only an allowlist.
	cfg = `
[extend]
useDefault = true

[[allowlists]]
paths = ['''^testdata/''']

[[rules]]
id = "aws-access-token"
[[rules.allowlists]]
regexes = ['''AKIAZ7Q2''']
`
	d = newDetector(t, Options{RepoConfig: []byte(cfg)})
	if got := d.mustScan("testdata/x.go", ghPAT, 1); len(got) != 0 {
		t.Errorf("global path allowlist not applied: %+v", got)
	}
	got = d.mustScan("a.go", ghPAT+"\n"+awsKey+"\nAKIAQWERTYUIOPASDFGH\n", 1)
	if len(find(got, "github-pat")) != 1 {
		t.Errorf("default rule lost: %+v", got)
	}
	if a := find(got, "aws-access-token"); len(a) != 1 || a[0].Value != "AKIAQWERTYUIOPASDFGH" {
		t.Errorf("rule allowlist on an extended default rule: %+v", a)
	}
}

func TestRepoConfigWithoutExtend(t *testing.T) {
	d := newDetector(t, Options{RepoConfig: []byte(ownRule), RepoConfigName: "team/.gitleaks.toml"})
	got := d.mustScan("a.go", acmeToken+"\n"+ghPAT+"\n", 1)
	if len(find(got, "acme-token")) != 1 {
		t.Errorf("own rule not run: %+v", got)
	}
	if len(find(got, "github-pat")) != 0 {
		t.Errorf("default rule ran without [extend] useDefault: %+v", got)
	}
	w := d.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "team/.gitleaks.toml") || !strings.Contains(w[0], "only its own rules") {
		t.Errorf("Warnings = %q, want one naming the file and saying only its own rules run", w)
	}
}

func TestRepoConfigErrors(t *testing.T) {
	tests := []struct {
		name, cfg, want string
	}{
		{"extend path", "[extend]\npath = \"/etc/gitleaks.toml\"\n" + ownRule, "not supported"},
		{"extend relative path", "[extend]\npath = \"../other.toml\"\nuseDefault = true\n", "not supported"},
		{"extend url", "[extend]\nurl = \"https://example.com/gitleaks.toml\"\n" + ownRule, "not supported"},
		{"bad regex", "[[rules]]\nid = \"bad\"\nregex = '''([a-z'''\n", "regexp"},
		{"bad regex extending defaults", "[extend]\nuseDefault = true\n[[rules]]\nid = \"bad\"\nregex = '''(?P<'''\n", "failed to load"},
		{"bad allowlist regex", "[extend]\nuseDefault = true\n[[allowlists]]\ntargetRules = [\"github-pat\"]\nregexes = ['''[''']\n", "failed to load"},
		{"no rules", "title = \"empty\"\n", "no rules"},
		{"no rules, all defaults disabled", "", "no rules"},
		{"allowlist for an unknown rule", "[[allowlists]]\ntargetRules = [\"nope\"]\nregexes = ['''x''']\n" + ownRule, "nope"},
		{"not TOML", "[[rules\n", "failed to load"},
		{"rule without id", "[[rules]]\nregex = '''x'''\n", "failed to load"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := New(Options{RepoConfig: []byte(tt.cfg), RepoConfigName: ".gitleaks.toml"})
			if err == nil {
				t.Fatalf("New succeeded (%d warnings), want an error containing %q", len(d.Warnings()), tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), ".gitleaks.toml") {
				t.Errorf("error %q does not contain %q and the file name", err, tt.want)
			}
		})
	}
	// After all those failures the package still builds working detectors.
	d := newDetector(t, Options{RepoConfig: []byte("[extend]\nuseDefault = true\n")})
	if got := d.mustScan("a.go", ghPAT, 1); len(find(got, "github-pat")) != 1 {
		t.Errorf("detector after errors: %+v", got)
	}
}

func TestIgnored(t *testing.T) {
	ignore := strings.Join([]string{
		"# comments and blank lines are skipped",
		"",
		"app/config.go:github-pat:12",
		`win\path\file.go:aws-access-token:3`,
		"0123456789abcdef0123456789abcdef01234567:lib/x.go:private-key:7",
		"  spaced.go:github-pat:1  ",
	}, "\n")
	d := newDetector(t, Options{Ignore: []byte(ignore)})
	tests := []struct {
		commit, path, rule string
		line               int
		want               bool
	}{
		{"", "app/config.go", "github-pat", 12, true},
		{"abc", "app/config.go", "github-pat", 12, true}, // a global entry applies to every commit
		{"", "app/config.go", "github-pat", 13, false},
		{"", "app/config.go", "aws-access-token", 12, false},
		{"", "other.go", "github-pat", 12, false},
		{"", "win/path/file.go", "aws-access-token", 3, true},
		{"0123456789abcdef0123456789abcdef01234567", "lib/x.go", "private-key", 7, true},
		{"", "lib/x.go", "private-key", 7, false}, // a commit entry needs that commit
		{"fedcba9876543210fedcba9876543210fedcba98", "lib/x.go", "private-key", 7, false},
		{"", "spaced.go", "github-pat", 1, true},
		{"", "# comments and blank lines are skipped", "", 0, false},
	}
	for _, tt := range tests {
		if got := d.Ignored(tt.commit, tt.path, tt.rule, tt.line); got != tt.want {
			t.Errorf("Ignored(%q, %q, %q, %d) = %v, want %v", tt.commit, tt.path, tt.rule, tt.line, got, tt.want)
		}
	}
	if newDetector(t, Options{}).Ignored("", "app/config.go", "github-pat", 12) {
		t.Error("Ignored without an ignore file")
	}
}

// FuzzScan: no input panics, and every secret lies within the lines it was given.
func FuzzScan(f *testing.F) {
	d := newDetector(f, Options{})
	f.Add("token := \""+ghPAT+"\"", 3)
	f.Add("a\nb\n"+awsKey, 1)
	f.Add("first\n"+pemKey+"\nafter\n", 10)
	f.Add("x\r\n"+ghPAT+"\r\n", 7)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, text string, start int) {
		if start < 1 || start > 1<<20 {
			return
		}
		lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
		for _, s := range d.mustScan("a.go", text, start) {
			if s.Line < start || s.EndLine < s.Line || s.EndLine >= start+lines {
				t.Fatalf("secret %s at lines %d-%d, outside %d-%d of %q", s.RuleID, s.Line, s.EndLine, start, start+lines-1, text)
			}
			if s.PathOnly || s.RuleID == "" {
				t.Fatalf("bad secret %+v", s)
			}
		}
	})
}

// TestRulesListed: the default rule set lists every gitleaks rule with its description.
func TestRulesListed(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	rules := d.Rules()
	if len(rules) < 150 {
		t.Fatalf("%d rules, want gitleaks' ~200", len(rules))
	}
	byID := map[string]string{}
	for _, r := range rules {
		if r.Description == "" {
			t.Errorf("rule %s has no description", r.ID)
		}
		byID[r.ID] = r.Description
	}
	if !strings.Contains(byID["github-pat"], "GitHub Personal Access Token") {
		t.Errorf("github-pat: %q", byID["github-pat"])
	}
	own, err := New(Options{RepoConfig: []byte("[[rules]]\nid = \"acme-key\"\ndescription = \"Acme key\"\nregex = '''acme_[a-z0-9]{16}'''\n")})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range own.Rules() {
		found = found || r.ID == "acme-key" && r.Description == "Acme key"
	}
	if !found {
		t.Errorf("a repository rule is not listed: %v", own.Rules())
	}
}
