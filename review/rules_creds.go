package review

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
)

// credentialRule finds passwords and secrets written into config and code that gitleaks'
// default rules (which look for known token shapes) do not know.
var credentialRule = Rule{
	ID: "tollgate/hardcoded-credential", Severity: policy.High, CWE: []string{"CWE-798", "CWE-259"},
	Description: "a password or secret is written into the file",
	Catches:     Example{"config/database.yml", "  password: s3cr3t-Pr0d-pw"},
	Leaves:      Example{"config/database.yml", "  password: ${DB_PASSWORD}"},
}

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
func secretValue(raw string, k kind) string {
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
		if k.isCode() && k != kShell && k != kDocker && k != kMake {
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

// scanCredentials reports a secret written on an added line.
func scanCredentials(u *Unit, p string, k kind, l Line, r *Result) {
	text := l.Text
	if k.isCode() || k.isConfig() {
		text = codePart(k, text)
	}
	if text == "" || len(text) > 4000 {
		return
	}
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "pass") && !strings.Contains(lower, "pwd") && !strings.Contains(lower, "secret") &&
		!strings.Contains(lower, "key") && !strings.Contains(lower, "token") && !strings.Contains(lower, "credential") &&
		!strings.Contains(text, "://") {
		return
	}
	var value, what string
	if m := credURL.FindStringSubmatch(text); m != nil && plausibleSecret(m[2]) && !strings.HasPrefix(m[2], "$") {
		value, what = m[2], "a password in a connection URL"
	} else if m := credDefine.FindStringSubmatch(text); m != nil && k == kPHP {
		value, what = secretValue(m[2], k), m[1]
	} else if m := credElement.FindStringSubmatch(text); m != nil && strings.EqualFold(m[1], m[3]) {
		value, what = strings.TrimSpace(m[2]), m[1]
		if !plausibleSecret(value) {
			value = ""
		}
	} else if m := credAttr.FindStringSubmatch(text); m != nil && (k == kXML || strings.HasPrefix(strings.TrimSpace(text), "<")) {
		value, what = m[2], m[1]
		if !plausibleSecret(value) {
			value = ""
		}
	} else if m := credAssign.FindStringSubmatch(text); m != nil && m[2] != "==" && passKey(m[1]) {
		if k.isProse() {
			return
		}
		value, what = secretValue(m[3], k), m[1]
	}
	if value == "" {
		return
	}
	conf := 0.9
	if k.isCode() {
		conf = 0.8
	}
	sev, msg := testSeverity(p, credentialRule.Severity, credentialRule.Description+" ("+what+")")
	r.add(Finding{
		RuleID: credentialRule.ID, Severity: sev, Confidence: conf, CWE: credentialRule.CWE,
		Path: p, Line: l.New, EndLine: l.New, Message: msg + inCommit(u),
		Evidence: redact.Mask(l.Text, value), Source: "builtin",
	})
}
