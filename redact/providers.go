package redact

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Provider tokens: API keys and access tokens whose issuer gave them a shape of their own (a
// prefix, a fixed length, an alphabet), found with no keyword next to them. Each shape is its
// provider's documented or observed format; a value that is only close (a length off by one,
// a character outside the alphabet, an x run, EXAMPLE, a repeated character) is no token.
// gitleaks' default rules find none of these by shape alone: they want a keyword (Figma,
// Heroku, Netlify, New Relic, Mailchimp, Dropbox, Atlassian, Akamai), expect another length
// (Anthropic keys ending in AA), or have no rule (Groq, Notion, PostHog, Supabase, Together,
// Vercel, xAI, Tavily, NuGet, 1Password, Cloudflare, Docker, Llama, Postman, Defined
// Networking, Amazon Bedrock, NATS seeds, WunderGraph, Google OAuth refresh tokens 1//0...),
// or only at lengths others are issued in (OpenAI keys, whose T3BlbkFJ is base64 of "OpenAI").
//
// Matching: a token starts where a run of [A-Za-z0-9_-] starts (the byte before it is none of
// those) and ends where one ends. Each shape names a literal its every match holds, at its
// start (lit) or inside its first run (inside): the expression runs only where the literal
// is (the literal is implied by the expression; TestProviderPrefilters holds it).

// provider is one provider's token shape.
type provider struct {
	name   string     // what the token is, for the finding's message
	lit    string     // a literal every match holds: its prefix, or (inside) in its first run
	inside bool       // lit is anywhere in the token's first run, not its prefix
	public bool       // a client-side key, public by design: reported at low
	re     *lazyre.RE // the token, anchored at its start
	ok     func(string) bool
}

// providerMinRun is the shortest longest-run of [A-Za-z0-9_-] any provider token has: a line
// without one holds none (most lines of code).
const providerMinRun = 20

// base64Lits start the shapes whose alphabet holds + and / (base64), so that a token of
// theirs may have no run of providerMinRun: their lines are looked at whatever their runs.
var base64Lits = []string{"BBDC-", "bedrock-api-key-"}

// base64Provider reports a line holding the start of a base64 shape.
func base64Provider(line string) bool {
	for _, l := range base64Lits {
		if strings.Contains(line, l) {
			return true
		}
	}
	return false
}

// ProviderToken is the kind of a provider token (Token.Provider names which).
const ProviderToken = "provider-token"

var providers = []provider{
	{name: "an Anthropic API key", lit: "sk-ant-", re: lazyre.New(`^sk-ant-(?:api03|admin01)-[A-Za-z0-9_\-]{94,95}`), ok: mixedCase},
	{name: "a Figma personal access token", lit: "figd_", re: lazyre.New(`^figd_[A-Za-z0-9_\-]{40}`), ok: mixedCase},
	{name: "a Groq API key", lit: "gsk_", re: lazyre.New(`^gsk_[A-Za-z0-9]{52}`), ok: mixedCase},
	{name: "a Heroku API key", lit: "HRKU-", re: lazyre.New(`^HRKU-(?:[A-Za-z0-9_\-]{60}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`), ok: randomText},
	{name: "a Netlify access token", lit: "nf", re: lazyre.New(`^nf[pcoub]_[A-Za-z0-9]{36}`), ok: mixedCase},
	{name: "a New Relic API key", lit: "NR", re: lazyre.New(`^NR(?:AK-[A-Z0-9]{27}|II-[A-Za-z0-9_\-]{26,32}|JS-[a-f0-9]{19}|BR-[a-f0-9]{19})`), ok: randomText},
	{name: "a New Relic license key", lit: "NRAL", inside: true, re: lazyre.New(`^[a-z0-9]{36}NRAL`), ok: randomText},
	{name: "a Notion integration token", lit: "ntn_", re: lazyre.New(`^ntn_[A-Za-z0-9]{46}`), ok: mixedCase},
	{name: "a PostHog project API key", lit: "phc_", public: true, re: lazyre.New(`^phc_[A-Za-z0-9]{40,60}`), ok: mixedCase},
	{name: "a PostHog personal or secret API key", lit: "ph", re: lazyre.New(`^ph[srax]_[A-Za-z0-9]{40,60}`), ok: mixedCase},
	{name: "a Supabase access token", lit: "sbp_", re: lazyre.New(`^sbp_(?:v0_)?[a-f0-9]{40}`), ok: hexMixed},
	{name: "a Together AI API key", lit: "tgp_v1_", re: lazyre.New(`^tgp_v1_[A-Za-z0-9_\-]{43}`), ok: mixedCase},
	{name: "a Vercel token", lit: "vc", re: lazyre.New(`^vc[pikar]_[A-Za-z0-9]{56}`), ok: mixedCase},
	{name: "an xAI API key", lit: "xai-", re: lazyre.New(`^xai-[A-Za-z0-9]{80}`), ok: mixedCase},
	{name: "a Tavily API key", lit: "tvly-", re: lazyre.New(`^tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}`), ok: mixedCase},
	{name: "a NuGet API key", lit: "oy2", re: lazyre.New(`^oy2[a-z0-9]{43}`), ok: randomText},
	{name: "a 1Password service account token", lit: "ops_eyJ", re: lazyre.New(`^ops_eyJ[A-Za-z0-9_\-]{250,}`), ok: mixedCase},
	{name: "a Mailchimp API key", lit: "-us", inside: true, re: lazyre.New(`^[0-9A-Za-z]{32}-us[0-9]{1,2}`), ok: randomText},
	{name: "a Dropbox long-lived access token", lit: "AAAAAAAAAA", inside: true, re: lazyre.New(`^[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_\-]{43}`), ok: dropboxRandom},
	{name: "a PayPal Braintree access token", lit: "access_token$production$", re: lazyre.New(`^access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}`), ok: randomText},
	{name: "a Cloudflare API token", lit: "cf", re: lazyre.New(`^cf(?:at|ut|k)_[A-Za-z0-9]{40,50}`), ok: mixedCase},
	{name: "a Docker access token", lit: "dckr_", re: lazyre.New(`^dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27,32}`), ok: mixedCase},
	{name: "a Docker Swarm join token or unlock key", lit: "SWM", re: lazyre.New(`^SWM(?:TKN-1-[a-z0-9]{50}-[a-z0-9]{25}|KEY-1-[A-Za-z0-9]{43})`), ok: randomText},
	{name: "a Llama Cloud API key", lit: "llx-", re: lazyre.New(`^llx-[A-Za-z0-9_\-]{48}`), ok: mixedCase},
	{name: "a Postman API key", lit: "PMA", re: lazyre.New(`^PMA[KT]-(?:[A-Z0-9]{26}|[a-f0-9]{24}-[a-f0-9]{34})`), ok: randomText},
	{name: "a Google OAuth client secret", lit: "GOCSPX-", re: lazyre.New(`^GOCSPX-[A-Za-z0-9_\-]{28}`), ok: mixedCase},
	{name: "a GitLab runner or workspace token", lit: "gl", re: lazyre.New(`^gl(?:rtr|wt)-[A-Za-z0-9_\-]{30,64}`), ok: mixedCase},
	{name: "a Stripe webhook signing secret", lit: "whsec_", re: lazyre.New(`^whsec_[A-Za-z0-9]{32}`), ok: mixedCase},
	{name: "a Defined Networking API key", lit: "dnkey-", re: lazyre.New(`^dnkey-[A-Z0-9]{26}-[A-Z0-9]{52}`), ok: randomText},
	{name: "an Amazon Bedrock API key", lit: "bedrock-api-key-", re: lazyre.New(`^bedrock-api-key-[A-Za-z0-9+/=]{32,200}`), ok: mixedCase},
	{name: "an Atlassian API token", lit: "AT", re: lazyre.New(`^AT(?:ATT|CTT)3[A-Za-z0-9_\-=]{186}`), ok: mixedCase},
	{name: "a Bitbucket app password", lit: "ATBB", re: lazyre.New(`^ATBB[A-Za-z0-9]{32}`), ok: mixedCase},
	{name: "a Bitbucket Data Center access token", lit: "BBDC-", re: lazyre.New(`^BBDC-[A-Za-z0-9+/]{44}`), ok: mixedCase},
	{name: "an OpenAI API key", lit: "sk-", re: lazyre.New(`^sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{20,74}T3BlbkFJ[A-Za-z0-9_\-]{20,74}`), ok: mixedCase},
	{name: "a Google OAuth access token", lit: "ya29.", re: lazyre.New(`^ya29\.[A-Za-z0-9_\-]{30,400}`), ok: mixedCase},
	{name: "a Google OAuth refresh token", lit: "1//0", re: lazyre.New(`^1//0[A-Za-z0-9_\-]{60,300}`), ok: mixedCase},
	{name: "an Instagram access token", lit: "IGQV", re: lazyre.New(`^IGQV[A-Za-z0-9_\-]{100,400}`), ok: mixedCase},
	{name: "a NATS user seed (nkey)", lit: "SU", re: lazyre.New(`^SU[A-Z2-7]{56}`), ok: randomText},
	{name: "a WunderGraph Cosmo API key", lit: "cosmo_", re: lazyre.New(`^cosmo_[a-f0-9]{32}`), ok: hexMixed},
	{name: "an Akamai client token", lit: "akab-", re: lazyre.New(`^akab-[a-z0-9]{16}-[a-z0-9]{16}`), ok: randomText},
}

// providersByFirst indexes providers with a prefix by its first byte; providersInside are the
// others.
var providersByFirst, providersInside = func() (by [256][]int, inside []int) {
	for i, p := range providers {
		if p.inside {
			inside = append(inside, i)
		} else {
			by[p.lit[0]] = append(by[p.lit[0]], i)
		}
	}
	return by, inside
}()

// findProviderTokens appends the provider tokens on line to out.
func findProviderTokens(line string, out []Token) []Token {
	for i := 0; i < len(line); {
		if !tokenByte(line[i]) {
			i++
			continue
		}
		end := i + 1
		for end < len(line) && tokenByte(line[end]) {
			end++
		}
		if t, ok := providerAt(line, i, end); ok {
			out = append(out, t)
			end = max(end, t.Start+len(t.Value))
		}
		i = end
	}
	return out
}

// providerAt returns the provider token starting at i, whose first run of [A-Za-z0-9_-]
// ends at end.
func providerAt(line string, i, end int) (Token, bool) {
	rest := line[i:]
	for _, n := range providersByFirst[line[i]] {
		if strings.HasPrefix(rest, providers[n].lit) {
			if t, ok := providers[n].match(line, i); ok {
				return t, true
			}
		}
	}
	if end-i < 36 {
		return Token{}, false
	}
	for _, n := range providersInside {
		if strings.Contains(line[i:end], providers[n].lit) {
			if t, ok := providers[n].match(line, i); ok {
				return t, true
			}
		}
	}
	return Token{}, false
}

// match returns p's token at line[i:] when it ends where a run of [A-Za-z0-9_-] ends and is
// no placeholder.
func (p *provider) match(line string, i int) (Token, bool) {
	loc := p.re.FindStringIndex(line[i:])
	if loc == nil {
		return Token{}, false
	}
	end := i + loc[1]
	if end < len(line) && tokenByte(line[end]) {
		return Token{}, false
	}
	v := line[i:end]
	if body := v[len(p.litPrefix()):]; placeholderToken(v) || sameRuns(body) || !p.ok(body) {
		return Token{}, false
	}
	return Token{Kind: ProviderToken, Value: v, Start: i, Provider: p.name, Public: p.public}, true
}

// litPrefix is the part of lit that is the token's prefix ("" for an inside literal).
func (p *provider) litPrefix() string {
	if p.inside {
		return ""
	}
	return p.lit
}

// randomText reports text with both letters and digits that is not mostly one character.
func randomText(s string) bool {
	var letter, digit bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter = letter || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digit = digit || c >= '0' && c <= '9'
	}
	return letter && digit && !sameRuns(s)
}

// dropboxRandom judges a long-lived Dropbox token by its random part (after the run of A's).
func dropboxRandom(s string) bool {
	return mixedCase(s[strings.LastIndex(s, "AAAAAAAAAA")+10:])
}
