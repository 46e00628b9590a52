package secrets

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// secretFindings scans one added file with gitleaks' default rules.
func secretFindings(t *testing.T, path, text string) []review.Finding {
	t.Helper()
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var r review.Result
	if err := (&Scanner{Detector: det}).Scan(context.Background(), difftest.AddedUnit(path, text), &r); err != nil {
		t.Fatal(err)
	}
	return r.Findings
}

// TestCalmSecrets: gitleaks' findings in test code, fixtures and docs are low unless the value
// has a provider's shape and does not look like a sample; generic-api-key's words, RFC samples
// and base64 of words are low; true neighbours still block (issue 30, causes 1, 4, 7).
func TestCalmSecrets(t *testing.T) {
	// a JWT (no provider shape) and a generic key, both random-looking
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiJ1c2VyLTQyIiwicm9sZSI6ImFkbWluIn0." + "Qm9ndXNTaWduYXR1cmVGb3JUZXN0czEyMzQ1Njc4OTBhYg"
	generic := "Xk3p9QzL7wVn2RtY8bHc4Jm6"
	livePAT := "ghp_" + "q8Wz2LmR5tXv9KpB3nYc7HdJ4sFg6AeU1oQi"
	notSecret := base64.StdEncoding.EncodeToString([]byte("not-secret"))
	keyBody := "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
	pemKey := func(kind, headers string) string {
		return "-----BEGIN " + kind + "-----\n" + headers + keyBody + "-----END " + kind + "-----\n"
	}
	cases := []struct {
		name, path, text, rule string
		blocking               bool
	}{
		{"jwt in test", "tests/test_auth.py", `TOKEN = "` + jwt + `"`, "secrets/jwt", false},
		{"generic key in test_main", "test_main.py", `api_key = "` + generic + `"`, "secrets/generic-api-key", false},
		{"generic key in spec", "spec/client_spec.rb", `api_key = "` + generic + `"`, "secrets/generic-api-key", false},
		{"sample github pat in docs", "docs/auth.md", "export GITHUB_TOKEN=ghp_" + "EXAMPLEexampleEXAMPLEexample012345", "secrets/github-pat", false},
		{"aws example key in docs", "docs/aws.md", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "secrets/aws-access-token", false},
		{"float32-slice", "pkg/flags/flag.go", `	key := "float32-slice"`, "secrets/generic-api-key", false},
		{"websocket rfc sample", "lib/ws.py", `headers = {"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}`, "secrets/generic-api-key", false},
		{"k8s secret not-secret", "deploy/secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  api_key: " + notSecret + "\n", "", false},
		{"posthog project key", "app/analytics.py", `posthog_project_api_key = "phc_` + "q8Wz2LmR5tXv9KpB3nYc7HdJ4sFg6AeU1oQiZx" + `"`, "secrets/generic-api-key", false},
		{"mixpanel project token", "aider/analytics.py", `mixpanel_project_token = "` + "6da9a43058a5d1b9f3353153921fb04d" + `"`, "secrets/generic-api-key", false},
		{"traditional encrypted key", "deploy/server.txt", pemKey("RSA PRIVATE KEY", "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0F3A\n\n"), "secrets/private-key", false},
		{"pkcs8 encrypted key", "deploy/server.txt", pemKey("ENCRYPTED PRIVATE KEY", ""), "secrets/private-key", false},
		{"curl -u with a CI secret", "ci/publish.sh", `curl -vX PUT -u "bot:${{ secrets.GH_PACKAGE }}" -F package=@pkg.nupkg https://nuget.pkg.github.com/acme/`, "secrets/curl-auth-user", false},
		{"curl -u with a variable", "ci/publish.sh", `curl -s -u bot:$DOCKER_TOKEN https://auth.docker.io/token`, "secrets/curl-auth-user", false},
		// true neighbours
		{"mixpanel api secret", "app/analytics.py", `mixpanel_api_secret = "` + "6da9a43058a5d1b9f3353153921fb04d" + `"`, "secrets/generic-api-key", true},
		{"curl -u with a password", "ci/publish.sh", `curl -s -u bot:Zq8mK2vR9xT4wL https://auth.docker.io/token`, "secrets/curl-auth-user", true},
		{"unencrypted key", "deploy/server.txt", pemKey("RSA PRIVATE KEY", ""), "secrets/private-key", true},
		{"github pat in docs", "docs/auth.md", "export GITHUB_TOKEN=" + livePAT, "secrets/github-pat", true},
		{"github pat in test", "tests/test_api.py", `TOKEN = "` + livePAT + `"`, "secrets/github-pat", true},
		{"aws key in docs", "docs/aws.md", "aws_access_key_id = " + testAWS, "secrets/aws-access-token", true},
		{"generic key in app", "app/client.py", `api_key = "` + generic + `"`, "secrets/generic-api-key", true},
		{"jwt in app", "app/auth.py", `TOKEN = "` + jwt + `"`, "secrets/jwt", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			found, worst := false, policy.Severity(0)
			for _, f := range secretFindings(t, c.path, c.text) {
				if c.rule == "" || f.RuleID == c.rule {
					found = true
					worst = max(worst, f.Severity)
				}
			}
			switch {
			case c.blocking && (!found || worst < policy.Medium):
				t.Errorf("%s: %s found %v at %s, want medium or above", c.path, c.rule, found, worst)
			case !c.blocking && worst > policy.Low:
				t.Errorf("%s: %q: %s at %s, want low or none", c.path, c.text, c.rule, worst)
			}
		})
	}
}
