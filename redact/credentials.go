package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// tollgate's own credential rules: passwords and secrets written as key = value, XML elements
// and attributes, PHP define() and connection URLs, which gitleaks' token-shaped rules miss.
// Placeholders (${VAR}, {{ }}, changeme, your-...-here), environment lookups, labels with
// spaces, paths and URLs are not secrets.

// Credential is a secret found on one line: the key that names it and its value.
type Credential struct {
	Key   string
	Value string
}

// CredentialOptions say which forms count on a line.
type CredentialOptions struct {
	QuotedOnly bool // only a quoted literal counts as a value (code)
	Attributes bool // password="..." attributes (XML)
	Define     bool // PHP define('DB_PASSWORD', '...')
	Assign     bool // key = value, key: value and friends (not prose)
}

// AllForms is the widest reading, used on text that leaves the machine.
var AllForms = CredentialOptions{Attributes: true, Define: true, Assign: true}

var (
	// key = value, key: value, key := value, key => value, "key": "value"; the key must END in a
	// secret word (db_password, apiKey) so token_url or password_hint do not count.
	credAssign = regexp.MustCompile(`(?i)(?:^|[^\w.\-$])["']?\$?([a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd|pass|secret|secretkey|secret_key|secret-key|apikey|api_key|api-key|accesskey|access_key|access-key|authtoken|auth_token|auth-token|accesstoken|access_token|access-token|clientsecret|client_secret|client-secret|privatekey|private_key|private-key|credentials?))["']?\]?\s*(=>|:=|==|=|:)\s*(.*)$`)
	// <password>value</password>
	credElement = regexp.MustCompile(`(?i)<([\w:.\-]*(?:password|passwd|pass|pwd|secret|token))\b[^>]*>([^<]+)</([\w:.\-]+)>`)
	// password="value" inside a tag
	credAttr = regexp.MustCompile(`(?i)\s([\w:.\-]*(?:password|passwd|pwd|secret|token))\s*=\s*"([^"]*)"`)
	// define('DB_PASSWORD', 'value')
	credDefine = regexp.MustCompile(`(?i)\bdefine\s*\(\s*['"](\w*(?:password|pass|pwd|secret|key|token|salt))['"]\s*,\s*(['"][^'"]*['"])`)
	// scheme://user:password@host
	credURL = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://([^:/\s@'"<>]+):([^@\s/'"<>]+)@[\w.\-]+`)

	placeholderWord = regexp.MustCompile(`(?i)^(?:changeme|change[_\-.]?me|change[_\-.]?it|changethis|password|passwd|pass|pwd|secret|secrets|example|sample|placeholder|dummy|fake|test|testing|todo|tbd|fixme|none|null|nil|undefined|true|false|yes|no|on|off|empty|default|required|optional|string|str|value|foo|bar|baz|qux|quux|foobar|user|username|pw|redacted|hidden|masked|omitted|unset|notset|x+|\*+|\.+|-+|_+|\?+|#+|0+|\$\w+|%\w+%?|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|xxx.*|my[_\-]?password|my[_\-]?secret|your[_\-].*|.*[_\-]here|.*example.*|.*placeholder.*|.*replace.*|.*changeme.*|.*dummy.*)$`)
	envLookup       = regexp.MustCompile(`(?i)\$\{|\{\{|\$\(|%\(|<%|#\{|\bos\.(?:environ|getenv)|\bgetenv\b|process\.env|\bENV\[|System\.getenv|\benv\(|\bsecrets\.|\bvault\b|^ENC\(|^!vault|\bsettings\.|\bconfig\.|\bparams\.|\bargs\.|\bfunc\b|lambda|\(\)|=>`)
)

// secretValue returns the secret in raw (the text after an assignment), or "" when it is no
// literal or a placeholder. In code only quoted literals count; in config a bare word counts.
func secretValue(raw string, quotedOnly bool) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	var v string
	switch q := raw[0]; q {
	case '"', '\'', '`':
		end := strings.IndexByte(raw[1:], q)
		if end < 0 {
			return ""
		}
		v = raw[1 : 1+end]
	default:
		if quotedOnly {
			return ""
		}
		v = raw
		if i := strings.IndexAny(v, " \t,;"); i >= 0 {
			v = v[:i]
		}
		v = strings.TrimRight(v, "})]>")
	}
	if !plausibleSecret(v) {
		return ""
	}
	return v
}

// plausibleSecret rejects placeholders, references and labels.
func plausibleSecret(v string) bool {
	if len(v) < 3 || len(v) > 200 {
		return false
	}
	if strings.Contains(v, "***") {
		return false // masked already (a report's evidence), or a placeholder
	}
	if strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{") {
		return false // a list, an object, a template or a [REDACTED:...] placeholder
	}
	if strings.ContainsAny(v, " \t") {
		return false // labels and messages ("Mot de passe"), not secrets
	}
	if placeholderWord.MatchString(v) || envLookup.MatchString(v) {
		return false
	}
	digits := true
	for _, r := range v {
		if !unicode.IsDigit(r) {
			digits = false
			break
		}
	}
	if digits && len(v) < 6 {
		return false
	}
	// A path or URL is where a secret lives, not the secret.
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") ||
		strings.HasSuffix(v, ".pem") || strings.HasSuffix(v, ".key") || strings.HasSuffix(v, ".json") || strings.Contains(v, "://") {
		return false
	}
	return true
}

// passKey reports whether a key ending in "pass" really names a password (db_pass, IRC_PASS,
// userPass), not bypass or compass.
func passKey(key string) bool {
	lower := strings.ToLower(key)
	if !strings.HasSuffix(lower, "pass") || strings.HasSuffix(lower, "password") {
		return true
	}
	if len(key) == 4 {
		return true
	}
	prev := key[len(key)-5]
	return prev == '_' || prev == '-' || prev == '.' || key[len(key)-4] == 'P'
}

// FindCredential finds the first password or secret written on line.
func FindCredential(line string, o CredentialOptions) (Credential, bool) {
	if line == "" || len(line) > 4000 {
		return Credential{}, false
	}
	lower := strings.ToLower(line)
	if !strings.Contains(lower, "pass") && !strings.Contains(lower, "pwd") && !strings.Contains(lower, "secret") &&
		!strings.Contains(lower, "key") && !strings.Contains(lower, "token") && !strings.Contains(lower, "credential") &&
		!strings.Contains(line, "://") {
		return Credential{}, false
	}
	if m := credURL.FindStringSubmatch(line); m != nil && plausibleSecret(m[2]) && !strings.HasPrefix(m[2], "$") {
		return Credential{Key: "a password in a connection URL", Value: m[2]}, true
	}
	if o.Define {
		if m := credDefine.FindStringSubmatch(line); m != nil {
			if v := secretValue(m[2], true); v != "" {
				return Credential{Key: m[1], Value: v}, true
			}
		}
	}
	if m := credElement.FindStringSubmatch(line); m != nil && strings.EqualFold(m[1], m[3]) {
		if v := strings.TrimSpace(m[2]); plausibleSecret(v) {
			return Credential{Key: m[1], Value: v}, true
		}
	}
	if o.Attributes {
		if m := credAttr.FindStringSubmatch(line); m != nil && plausibleSecret(m[2]) {
			return Credential{Key: m[1], Value: m[2]}, true
		}
	}
	if o.Assign {
		if m := credAssign.FindStringSubmatch(line); m != nil && m[2] != "==" && passKey(m[1]) {
			if v := secretValue(m[3], o.QuotedOnly); v != "" {
				return Credential{Key: m[1], Value: v}, true
			}
		}
	}
	return Credential{}, false
}
