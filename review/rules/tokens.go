package rules

import (
	"path"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Secrets that identify themselves by their shape, with no keyword next to them
// (redact.FindTokens): the ones gitleaks' default rules find only next to a keyword (Telegram,
// Discord, Mailgun) or not at all (password hashes). Every line of every file is read, prose
// and comments too: a token in a README is as live as one in code. The tokens gitleaks finds
// by shape alone (Slack webhooks, SendGrid, npm, PyPI, Hugging Face, OpenAI, Anthropic, JWTs)
// are its findings, not these rules'. Provider tokens (redact/providers.go: Groq, Figma,
// Notion, Vercel, ...) are one rule, tollgate/provider-token, whose message names the provider.

// The examples are built from parts so that this file holds no token a scanner would stop.
var (
	exTelegram = "5843021967:" + "AAodJFCrnl2edlBDdz1C5Jau2RJtBRnlWmT"
	exDiscord  = "MzA5NDgxNzI2NTMwMTk0ODU3" + "." + "SHf6pW" + "." + "kLUyifDLkDmWJ6UuVTAIjvFu7WICPhDeOZIiBO"
	exHook     = "https://discord.com/api/webhooks/" + "1174862930571638475/" + "B-Y6sHrFH2ZUCr-lgotu2iXW7GboIRoL3u6aHwnMztVuaP_coUNEhEkk_iqq8vH2BzNZ"
	exMailgun  = "key-" + "bee3772a077021721a278f64f7fd633d"
	exBcrypt   = "$2b$" + "12$" + "R0Y5ekfXPlDww3p0vH5Dh2ke/jCtY87zXftU.VF4I08rwJzffMfe7"
	exGroq     = "gsk_" + "yQ7cW2rT9mLp4XzN8vB3kHj6" + "Fd1sGa5eRu0iOw2qYt7nMb3cVx9Z"
)

// tokenRules are the rules of redact.FindTokens' kinds, by kind.
var tokenRules = map[string]review.Rule{
	redact.TelegramBotToken: {ID: "tollgate/" + redact.TelegramBotToken, Severity: policy.High, CWE: []string{"CWE-798"},
		Description: "a Telegram bot token is written into the file",
		Catches:     example("bot.py", `updater = Updater("`+exTelegram+`")`),
		Leaves:      example("bot.py", `updater = Updater(os.environ["BOT_TOKEN"])`)},
	redact.DiscordBotToken: {ID: "tollgate/" + redact.DiscordBotToken, Severity: policy.High, CWE: []string{"CWE-798"},
		Description: "a Discord bot token is written into the file",
		Catches:     example("index.js", `client.login("`+exDiscord+`");`),
		Leaves:      example("index.js", `client.login(process.env.BOT_TOKEN);`)},
	redact.DiscordWebhook: {ID: "tollgate/" + redact.DiscordWebhook, Severity: policy.High, CWE: []string{"CWE-798"},
		Description: "a Discord webhook URL with its token is written into the file",
		Catches:     example("notify.sh", `curl -H "Content-Type: application/json" -d @msg.json `+exHook),
		Leaves:      example("notify.sh", `curl -H "Content-Type: application/json" -d @msg.json "$DISCORD_WEBHOOK"`)},
	redact.MailgunAPIKey: {ID: "tollgate/" + redact.MailgunAPIKey, Severity: policy.High, CWE: []string{"CWE-798"},
		Description: "a Mailgun API key is written into the file",
		Catches:     example("mail.py", `auth = ("api", "`+exMailgun+`")`),
		Leaves:      example("mail.py", `cache.set("key-" + digest, value)`)},
	redact.PasswordHash: {ID: "tollgate/" + redact.PasswordHash, Severity: policy.Medium, CWE: []string{"CWE-522", "CWE-916"},
		Description: "a password hash (bcrypt, sha-crypt, md5-crypt, yescrypt) is written into the file: it can be cracked offline",
		Catches:     example("data/users.json", `[{"name": "ann", "hash": "`+exBcrypt+`"}]`),
		Leaves:      example("auth.go", `hash, err := bcrypt.GenerateFromPassword(pw, 12) // "$2b$12$" + 53 characters`)},
	redact.ProviderToken: {ID: "tollgate/" + redact.ProviderToken, Severity: policy.High, CWE: []string{"CWE-798"},
		Description: "a provider's API key or access token is written into the file",
		Catches:     example("llm.py", `client = Groq(api_key="`+exGroq+`")`),
		Leaves:      example("llm.py", `client = Groq(api_key=os.environ["GROQ_API_KEY"])  # gsk_xxxxxxxx`)},
}

// tokenRuleList is tokenRules in redact.TokenKinds' order (for All).
func tokenRuleList() []review.Rule {
	out := make([]review.Rule, 0, len(redact.TokenKinds))
	for _, k := range redact.TokenKinds {
		out = append(out, tokenRules[k])
	}
	return out
}

// scanTokens reports the self-identifying secrets on an added line. hashesTold is set in a file
// already reported as a whole as a store of password hashes (shadow, htpasswd): its hashes are
// that one problem.
func scanTokens(u *diff.Unit, p string, k lang.Kind, l diff.Line, hashesTold bool, r *review.Result) {
	for _, t := range redact.FindTokens(l.Text) {
		if t.Kind == redact.PasswordHash && hashesTold {
			continue
		}
		rule := tokenRules[t.Kind]
		sev, msg := tokenSeverity(p, k, l.Text, t, rule)
		if t.Kind == redact.ProviderToken {
			sev, msg = providerSeverity(sev, msg, t)
		}
		r.Add(review.Finding{
			RuleID: rule.ID, Severity: sev, Confidence: 0.9, CWE: rule.CWE,
			Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
		}.LineEvidence(l.Text, t.Start, t.Value))
	}
}

// tokenSeverity is a token finding's severity and message. A provider's token (Telegram,
// Discord, Mailgun) keeps its severity in test code and documentation unless it looks like a
// sample; a password hash there is lowered to low, and so is one on a commented-out line of a
// Helm values file (values.yaml's documented example).
func tokenSeverity(p string, k lang.Kind, line string, t redact.Token, rule review.Rule) (policy.Severity, string) {
	if t.Kind != redact.PasswordHash && !redact.LooksLikeSample(t.Value) {
		return rule.Severity, rule.Description
	}
	sev, msg := placeSeverity(p, rule.Severity, rule.Description)
	if t.Kind == redact.PasswordHash && valuesFile(p) && sev > policy.Low && t.Start >= len(lang.CodePart(k, line)) {
		sev, msg = lowerFor(sev, msg, "on a commented-out line")
	}
	return sev, msg
}

// providerSeverity names a provider token's provider in msg; a client-side key, public by
// design (a PostHog project key), is low.
func providerSeverity(sev policy.Severity, msg string, t redact.Token) (policy.Severity, string) {
	msg = strings.Replace(msg, "a provider's API key or access token", t.Provider, 1)
	if t.Public && sev > policy.Low {
		return policy.Low, msg + " (a client-side key, public by design)"
	}
	return sev, msg
}

// reported reports whether r already holds a finding of rule on path.
func reported(r *review.Result, p, rule string) bool {
	for i := range r.Findings {
		if r.Findings[i].RuleID == rule && r.Findings[i].Path == p {
			return true
		}
	}
	return false
}

// valuesFile reports a Helm values file (values.yaml, values-prod.yml), whose comments document
// the chart's options with examples.
func valuesFile(p string) bool {
	b := strings.ToLower(path.Base(p))
	return strings.HasPrefix(b, "values") && (strings.HasSuffix(b, ".yaml") || strings.HasSuffix(b, ".yml"))
}
