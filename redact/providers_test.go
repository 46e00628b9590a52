package redact

import (
	"regexp"
	"strings"
	"testing"
)

// Alphabets of the provider shapes. Tokens are built from them at run time, so this file
// holds no token a scanner would stop.
const (
	alnum   = "aB3cD5eF7gH9jK2mN4pQ6rS8tU1vW0xYzLk"
	wordA   = alnum + "_-"
	hexLow  = "0123456789abcdef"
	lowNum  = "abcdefghijklmnopqrstuvwxyz0123456789"
	upNum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	base64s = alnum + "+/"
)

// gen is n characters of alphabet, spread so that no run repeats and every class appears.
func gen(alphabet string, n, seed int) string {
	var b strings.Builder
	x := seed*7919 + 17
	for i := 0; i < n; i++ {
		x = (x*1103515245 + 12345) & 0x7fffffff
		b.WriteByte(alphabet[(x>>8)%len(alphabet)])
	}
	return b.String()
}

// providerRow is one provider's shape: the token's parts (prefix, then bodies of an alphabet
// and a length, joined by sep) so that rows can shorten, lengthen and spoil it.
type providerRow struct {
	name   string // a word of the provider's name in Token.Provider
	prefix string
	body   []part
	suffix string
}

type part struct {
	alphabet string
	n        int
	sep      string // written before the part
}

func (r providerRow) build(seed int, edit func(i int, s string) string) string {
	s := r.prefix
	for i, p := range r.body {
		b := gen(p.alphabet, p.n, seed+i)
		if edit != nil {
			b = edit(i, b)
		}
		s += p.sep + b
	}
	return s + r.suffix
}

var providerRows = []providerRow{
	{"Anthropic", "sk-ant-" + "api03-", []part{{wordA, 93, ""}}, "AA"},
	{"Figma", "fi" + "gd_", []part{{wordA, 40, ""}}, ""},
	{"Groq", "gs" + "k_", []part{{alnum, 52, ""}}, ""},
	{"Heroku", "HR" + "KU-", []part{{wordA, 60, ""}}, ""},
	{"Heroku", "HR" + "KU-", []part{{hexLow, 8, ""}, {hexLow, 4, "-"}, {hexLow, 4, "-"}, {hexLow, 4, "-"}, {hexLow, 12, "-"}}, ""},
	{"Netlify", "nf" + "p_", []part{{alnum, 36, ""}}, ""},
	{"New Relic API", "NR" + "AK-", []part{{upNum, 27, ""}}, ""},
	{"New Relic API", "NR" + "JS-", []part{{hexLow, 19, ""}}, ""},
	{"New Relic license", "", []part{{lowNum, 36, ""}}, "NR" + "AL"},
	{"Notion", "nt" + "n_", []part{{alnum, 46, ""}}, ""},
	{"PostHog personal", "ph" + "x_", []part{{alnum, 60, ""}}, ""},
	{"PostHog project", "ph" + "c_", []part{{alnum, 40, ""}}, ""},
	{"Supabase", "sb" + "p_", []part{{hexLow, 40, ""}}, ""},
	{"Together", "tgp_" + "v1_", []part{{wordA, 43, ""}}, ""},
	{"Vercel", "vc" + "p_", []part{{alnum, 56, ""}}, ""},
	{"xAI", "xa" + "i-", []part{{alnum, 80, ""}}, ""},
	{"Tavily", "tv" + "ly-", []part{{alnum, 32, ""}}, ""},
	{"NuGet", "oy" + "2", []part{{lowNum, 43, ""}}, ""},
	{"1Password", "ops_" + "eyJ", []part{{wordA, 300, ""}}, ""},
	{"Mailchimp", "", []part{{hexLow, 32, ""}}, "-us" + "21"},
	{"Dropbox", "", []part{{alnum, 11, ""}, {wordA, 43, "AAAAA" + "AAAAA"}}, ""},
	{"Braintree", "access_token" + "$production$", []part{{lowNum, 16, ""}, {hexLow, 32, "$"}}, ""},
	{"Cloudflare", "cf" + "at_", []part{{alnum, 48, ""}}, ""},
	{"Docker access", "dckr_" + "pat_", []part{{wordA, 27, ""}}, ""},
	{"Swarm", "SWM" + "TKN-1-", []part{{lowNum, 50, ""}, {lowNum, 25, "-"}}, ""},
	{"Llama", "ll" + "x-", []part{{wordA, 48, ""}}, ""},
	{"Postman", "PM" + "AK-", []part{{hexLow, 24, ""}, {hexLow, 34, "-"}}, ""},
	{"Google", "GOC" + "SPX-", []part{{wordA, 28, ""}}, ""},
	{"GitLab", "gl" + "rtr-", []part{{wordA, 40, ""}}, ""},
	{"Stripe", "wh" + "sec_", []part{{alnum, 32, ""}}, ""},
	{"Defined", "dn" + "key-", []part{{upNum, 26, ""}, {upNum, 52, "-"}}, ""},
	{"Bedrock", "bedrock-" + "api-key-", []part{{base64s, 44, ""}}, ""},
	{"Atlassian", "ATA" + "TT3", []part{{wordA, 186, ""}}, ""},
	{"Bitbucket app", "AT" + "BB", []part{{alnum, 32, ""}}, ""},
	{"Bitbucket Data", "BB" + "DC-", []part{{base64s, 44, ""}}, ""},
	{"OpenAI", "sk-" + "proj-", []part{{alnum, 20, ""}, {wordA, 20, "T3Blbk" + "FJ"}}, ""},
	{"Google OAuth access", "ya" + "29.", []part{{wordA, 40, ""}}, ""},
	{"Google OAuth refresh", "1//" + "0", []part{{wordA, 80, ""}}, ""},
	{"Instagram", "IG" + "QV", []part{{wordA, 150, ""}}, ""},
	{"NATS", "S" + "U", []part{{"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 56, ""}}, ""},
	{"WunderGraph", "cos" + "mo_", []part{{hexLow, 32, ""}}, ""},
	{"Akamai", "ak" + "ab-", []part{{lowNum, 16, ""}, {lowNum, 16, "-"}}, ""},
}

// only applies f to the j-th part of a token.
func only(j int, f func(string) string) func(int, string) string {
	return func(i int, s string) string {
		if i == j {
			return f(s)
		}
		return s
	}
}

// ranged are the shapes whose length varies (a range, not one length).
var ranged = map[string]bool{"1Password": true, "Bedrock": true, "Anthropic": true, "GitLab": true,
	"PostHog personal": true, "PostHog project": true, "Cloudflare": true, "Docker access": true,
	"OpenAI": true, "Google OAuth access": true, "Google OAuth refresh": true, "Instagram": true}

// providerIn returns the provider tokens FindTokens reports on line.
func providerIn(line string) []Token {
	var out []Token
	for _, t := range FindTokens(line) {
		if t.Kind == ProviderToken {
			out = append(out, t)
		}
	}
	return out
}

// TestProviderTokens: each provider's token is caught in a line of code, with its provider
// named; its placeholders and near misses are left alone.
func TestProviderTokens(t *testing.T) {
	for _, r := range providerRows {
		tok := r.build(1, nil)
		t.Run(r.name+"/catch", func(t *testing.T) {
			line := `client = Client(token="` + tok + `")`
			got := providerIn(line)
			if len(got) != 1 || got[0].Value != tok || !strings.Contains(got[0].Provider, r.name) {
				t.Fatalf("FindTokens(%q) = %+v, want %q as %s", line, got, tok, r.name)
			}
			if line[got[0].Start:got[0].Start+len(tok)] != tok {
				t.Errorf("value not at offset %d", got[0].Start)
			}
			if got := providerIn("export TOKEN=" + tok); len(got) != 1 {
				t.Errorf("bare in a shell line: %+v", got)
			}
		})
		last, longest := len(r.body)-1, 0
		for i, p := range r.body {
			if p.n > r.body[longest].n {
				longest = i
			}
		}
		leaves := map[string]string{
			"x run":      r.build(1, func(i int, s string) string { return strings.Repeat("x", len(s)) }),
			"EXAMPLE":    r.build(1, only(longest, func(s string) string { return "EXAMPLE" + s[7:] })),
			"one char":   r.build(1, func(i int, s string) string { return strings.Repeat("7", len(s)) }),
			"half":       r.build(1, only(longest, func(s string) string { return s[:len(s)/2] })),
			"in a word":  "my" + tok + "Z",
			"wrong char": r.build(1, only(longest, func(s string) string { return s[:len(s)/2] + "." + s[len(s)/2+1:] })),
		}
		if !ranged[r.name] {
			// Shapes with one length: one character less or more is no token.
			leaves["too short"] = r.build(1, only(last, func(s string) string { return s[:len(s)-1] }))
			leaves["too long"] = r.build(1, only(last, func(s string) string { return s + s[:1] }))
		}
		for why, v := range leaves {
			t.Run(r.name+"/leave/"+why, func(t *testing.T) {
				if got := providerIn(`token = "` + v + `"`); len(got) != 0 {
					t.Errorf("%q: found %+v", v, got)
				}
			})
		}
	}
}

// TestProviderPrefilters: every shape's literal is implied by its expression (a match starts
// with the literal, or holds it in its first run) and every match passes FindTokens' run gate
// (or holds a base64 shape's literal); otherwise a shape would silently never fire.
func TestProviderPrefilters(t *testing.T) {
	for _, r := range providerRows {
		for seed := 0; seed < 20; seed++ {
			checkPrefilter(t, r.build(seed, nil))
		}
	}
	for i, p := range providers {
		lit, _ := regexp.MustCompile(strings.TrimPrefix(p.re.String(), "^")).LiteralPrefix()
		if !strings.HasPrefix(p.re.String(), "^") || !p.inside && !strings.HasPrefix(lit, p.lit) {
			t.Errorf("provider %d (%s): expression %q is not anchored or does not start with its literal %q", i, p.name, p.re.String(), p.lit)
		}
	}
}

// checkPrefilter fails when an expression matches s where its literal or the run gate would
// not let it run.
func checkPrefilter(t *testing.T, s string) {
	t.Helper()
	for _, p := range providers {
		loc := p.re.FindStringIndex(s)
		if loc == nil {
			continue
		}
		v := s[:loc[1]]
		run := len(v)
		for j := 0; j < len(v); j++ {
			if !tokenByte(v[j]) {
				run = j
				break
			}
		}
		if p.inside && !strings.Contains(v[:run], p.lit) || !p.inside && !strings.HasPrefix(v, p.lit) {
			t.Errorf("%s matches %q without its literal %q", p.name, v, p.lit)
		}
		if w, _ := longestRuns(v); w < providerMinRun && !base64Provider(v) {
			t.Errorf("%s matches %q, whose longest run %d is under the gate %d", p.name, v, w, providerMinRun)
		}
		if p.inside && run < 36 {
			t.Errorf("%s matches %q, whose first run %d is under the inside gate 36", p.name, v, run)
		}
	}
}

// FuzzProviderPrefilters: whatever the text, a shape that matches holds its literal and
// passes the gates; FindTokens never panics and reports tokens where they are.
func FuzzProviderPrefilters(f *testing.F) {
	for i, r := range providerRows {
		f.Add(r.build(i, nil))
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPrefilter(t, s)
		for _, tok := range FindTokens(s) {
			if s[tok.Start:tok.Start+len(tok.Value)] != tok.Value {
				t.Fatalf("%q not at %d", tok.Value, tok.Start)
			}
		}
	})
}

// TestFilterRedactsProviderTokens: the outgoing filter replaces every provider's token before
// a send, whatever its random part.
func TestFilterRedactsProviderTokens(t *testing.T) {
	f, err := NewFilter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range providerRows {
		for seed := 3; seed < 13; seed++ {
			tok := r.build(seed, nil)
			out, _, err := f.Redact("client = Client(\""+tok+"\")\n", nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, tok) {
				t.Errorf("%s: the token left the filter in clear: %q", r.name, out)
			}
		}
	}
}

// TestIssuedTokenShapes: SendGrid keys (SG. + 22 + . + 43) and GitHub's classic, OAuth, user,
// server and refresh tokens (gh?_ + 36) are found at their issued lengths by the default
// rules; a placeholder of their prefix (a repeated word, a run of zeros, a length short) is no
// such token (the generic rule may still judge a keyword's value).
func TestIssuedTokenShapes(t *testing.T) {
	d := newDetector(t, Options{})
	catches := []struct{ text, rule string }{
		{"SENDGRID_API_KEY=" + "SG." + gen(wordA, 22, 1) + "." + gen(wordA, 43, 2), "sendgrid-api-token"},
		{`token = "` + "gh" + "p_" + gen(alnum, 36, 3) + `"`, "github-pat"},
		{`token = "` + "gh" + "o_" + gen(alnum, 36, 4) + `"`, "github-oauth"},
		{`token = "` + "gh" + "u_" + gen(alnum, 36, 5) + `"`, "github-app-token"},
		{`token = "` + "gh" + "s_" + gen(alnum, 36, 6) + `"`, "github-app-token"},
		{`token = "` + "gh" + "r_" + gen(alnum, 36, 7) + `"`, "github-refresh-token"},
	}
	for _, c := range catches {
		if got := find(d.mustScan("app/config.go", c.text, 1), c.rule); len(got) != 1 {
			t.Errorf("%q: want one %s, got %+v", c.text, c.rule, d.mustScan("app/config.go", c.text, 1))
		}
	}
	leaves := []string{
		"SG." + strings.Repeat("gireogi", 2) + "gi." + strings.Repeat("gireogi", 2) + "gi",
		`token = "` + "gh" + "p_" + strings.Repeat("0", 36) + `"`,
		`token = "` + "gh" + "o_" + gen(alnum, 20, 8) + `"`,
	}
	for _, text := range leaves {
		for _, s := range d.mustScan("app/config.go", text, 1) {
			if strings.HasPrefix(s.RuleID, "github-") || strings.HasPrefix(s.RuleID, "sendgrid-") {
				t.Errorf("%q: a placeholder found as %s", text, s.RuleID)
			}
		}
	}
}
