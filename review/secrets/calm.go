package secrets

import (
	"strings"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// keyRules are the gitleaks rules for a private key or a key store.
var keyRules = map[string]bool{"private-key": true, "pkcs12-file": true}

// genericRules are the gitleaks rules whose match has no provider's shape: a keyword and a
// random-looking value (generic-api-key), a JWT, a Kubernetes Secret's data, a password or
// header on a command line or in a config. Every other rule finds a value that names its
// provider (ghp_, AKIA, xoxb-, sk_live_, ...).
var genericRules = map[string]bool{
	"generic-api-key": true, "jwt": true, "jwt-base64": true, "kubernetes-secret-yaml": true,
	"curl-auth-header": true, "curl-auth-user": true, "hashicorp-tf-password": true,
	"nuget-config-password": true, "sidekiq-sensitive-url": true,
}

// calmReason says why a gitleaks finding is reported at low, "" if it keeps its severity. One
// rule for every family (the built-in rules follow it too, see the README's rules table):
//   - a value public by design (publicValue), a sample or a specification's example
//     (redact.GenericNotSecret) under generic-api-key, a private key encrypted with a
//     passphrase (redact.EncryptedKey), curl's -u user:$PASS (a variable, a CI expression);
//   - in test code, fixtures and testdata (lang.IsTestPath) or documentation and examples
//     (lang.IsDocPath), every finding but a provider-shaped value that does not look like a
//     sample (redact.LooksLikeSample): a live ghp_ or AKIA key in docs/ stays as it is. A
//     private key or key store is a fixture in test code, and keeps its severity in docs.
func calmReason(path string, sec redact.Secret) string {
	if why := publicValue(sec.RuleID, sec.Value, sec.Match); why != "" {
		return why
	}
	switch sec.RuleID {
	case "curl-auth-user":
		// -u user:$PASS, -u "user:${{ secrets.TOKEN }}": the shell or the CI fills it in
		v := strings.Trim(sec.Value, `"'`)
		if _, pw, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(pw, "$") {
			return "the password is a variable or a CI secret's expression"
		}
	case "private-key":
		if redact.EncryptedKey(sec.Match) {
			return "an encrypted private key, of no use without its passphrase"
		}
	case "generic-api-key":
		if why := redact.GenericNotSecret(sec.Match, sec.Value); why != "" {
			return why
		}
	case "kubernetes-secret-yaml":
		// the value is "key: base64": judge what the data decodes to
		v := sec.Value[strings.LastIndex(sec.Value, ":")+1:]
		if why := redact.GenericNotSecret(sec.Value, strings.Trim(v, " \t\"'")); why != "" {
			return why
		}
	}
	where := ""
	switch {
	case lang.IsTestPath(path):
		where = "in test code"
	case lang.IsDocPath(path) && !keyRules[sec.RuleID]:
		where = "in documentation or an example"
	default:
		return ""
	}
	if keyRules[sec.RuleID] || genericRules[sec.RuleID] || redact.LooksLikeSample(sec.Value) {
		return where
	}
	return ""
}
