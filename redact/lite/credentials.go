package lite

import (
	"strings"
	"unicode"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// tollgate's own credential rules: passwords and secrets written as key = value, XML elements
// and attributes, PHP define() and connection URLs, which gitleaks' token-shaped rules miss.
// Placeholders (${VAR}, {{ }}, changeme, your-...-here), environment lookups, references
// (Terraform var./data./local./module. and resource attributes, template expressions, Helm
// $var, shell expansions), labels with spaces, package version pins, sudoers NOPASSWD, flags
// naming a secret object (--secret=prod-env-auth, --set-secrets=KEY=name), paths and URLs are
// not secrets.

// Credential is a secret found on one line: the key that names it and its value.
type Credential struct {
	Key   string
	Value string
	// Wired is set for a password given to a connection or a program (a URL, a DSN, a command
	// line, a Basic header, an auth tuple): forms that docs and scripts often fill with a local
	// service's default, which a reviewer may report lower.
	Wired bool
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
	credAssign = lazyre.New(`(?i)(?:^|[^\w.\-$])["']?\$?([a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd|pass|secret|secretkey|secret_key|secret-key|apikey|api_key|api-key|accesskey|access_key|access-key|authtoken|auth_token|auth-token|accesstoken|access_token|access-token|clientsecret|client_secret|client-secret|privatekey|private_key|private-key|credentials?))["']?\]?(?:\s+string)?\s*(=>|:=|==|\|\|=|\?\?=|=|:)\s*(.*)$`)
	// <password>value</password>
	credElement = lazyre.New(`(?i)<([\w:.\-]*(?:password|passwd|pass|pwd|secret|token))\b[^>]*>([^<]+)</([\w:.\-]+)>`)
	// password="value" inside a tag
	credAttr = lazyre.New(`(?i)\s([\w:.\-]*(?:password|passwd|pwd|secret|token))\s*=\s*"([^"]*)"`)
	// define('DB_PASSWORD', 'value')
	credDefine = lazyre.New(`(?i)\bdefine\s*\(\s*['"](\w*(?:password|pass|pwd|secret|key|token|salt))['"]\s*,\s*(['"][^'"]*['"])`)
	// scheme://user:password@host
	credURL = lazyre.New(`\b[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://([^:/\s@'"<>]*):([^@\s/'"<>]+)@[\w.\-]+`)

	placeholderWord = lazyre.New(`(?i)^(?:changeme|change[_\-.]?me|change[_\-.]?it|changethis|dev|development|local|password|passwd|pass|pwd|secret|secrets|example|sample|placeholder|dummy|fake|test|testing|todo|tbd|fixme|none|null|nil|undefined|true|false|yes|no|on|off|empty|default|required|optional|string|str|value|foo|bar|baz|qux|quux|foobar|user|username|pw|token|api[_\-]?key|access[_\-]?(?:key|token)|secret[_\-]?key|auth[_\-]?token|redacted|hidden|masked|omitted|unset|notset|x+|\*+|\.+|-+|_+|\?+|#+|0+|\$\w+|%\w+%?|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|xxx.*|my[_\-]?password|my[_\-]?secret|your[_\-].*|.*[_\-]here|.*example.*|.*placeholder.*|.*replace.*|.*changeme.*|.*dummy.*)$`)
	// references to a secret held elsewhere: Terraform/HCL var., data., local., module. and
	// resource attributes (random_password.db.result), and package version pins.
	hclRef     = lazyre.New(`^(?:var|data|local|module|each|self|count|path|terraform)\.[\w.\-\[\]"*]+$|^[a-z_][a-z0-9_\-]*(?:\.[a-z_][a-z0-9_\-]*){2,}$`)
	versionPin = lazyre.New(`^(?:[\^~<>=!]=?|~>)?\s*v?\d+(?:\.(?:\d+|[x*]))+(?:[\-+.][\w.\-]*)?$|^(?:latest|\*|workspace:.*|npm:.*)$`)
	// <input type="password" ... value="...">: the value of a password field.
	credInput = lazyre.New(`(?i)<input\b[^>]*\btype\s*=\s*["']?password\b[^>]*\bvalue\s*=\s*"([^"]*)"|<input\b[^>]*\bvalue\s*=\s*"([^"]*)"[^>]*\btype\s*=\s*["']?password\b`)
	// a flag whose value names secret objects (--set-secrets=API_KEY=name:latest): the keys in it
	// are not assignments of secrets.
	secretsFlag = lazyre.New(`(?i)--[\w\-]*secrets?[\w\-]*[= ]\s*["']?$`)
	envLookup   = lazyre.New(`(?i)\$\{|\{\{|\$\(|%\(|<%|#\{|\bos\.(?:environ|getenv)|\bgetenv\b|process\.env|\bENV\[|System\.getenv|\benv\(|\bsecrets\.|\bvault\b|^ENC\(|^ENC\[|^!vault|\bsettings\.|\bconfig\.|\bparams\.|\bargs\.|\bfunc\b|lambda|\(\)|=>`)
)

// secretValue returns the secret in raw (the text after an assignment), or "" when it is no
// literal or a placeholder. In code only quoted literals count; in config a bare word counts.
func secretValue(raw string, quotedOnly bool) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	if v, ok := escapedQuoted(raw); ok {
		return v
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

// escapedQuoted reads a literal whose quotes are escaped because it sits inside another
// string (generated code: "session({ secret: \'...\' })"): ok is true when raw starts so, and
// v is the plausible secret between the escaped quotes, or "".
func escapedQuoted(raw string) (v string, ok bool) {
	if len(raw) < 3 || raw[0] != '\\' || (raw[1] != '"' && raw[1] != '\'') {
		return "", false
	}
	end := strings.Index(raw[2:], raw[:2])
	if end < 0 || !plausibleSecret(raw[2:2+end]) {
		return "", true
	}
	return raw[2 : 2+end], true
}

// plausibleSecret rejects placeholders, references, labels and locations.
func plausibleSecret(v string) bool {
	return secretShape(v) && !isReference(v) && !isLocation(v)
}

// secretShape rejects what cannot be a secret by its shape: too short or long, masked, a list,
// object or expression, a label with spaces, a short number.
func secretShape(v string) bool {
	if len(v) < 3 || len(v) > 200 {
		return false
	}
	if strings.Contains(v, "***") {
		return false // masked already (a report's evidence), or a placeholder
	}
	if strings.ContainsAny(v[:1], "[{(<") {
		return false // a list, an object, an expression, a template, a tag or a [REDACTED:...] placeholder
	}
	if strings.ContainsAny(v, " \t") {
		return false // labels and messages ("Mot de passe"), not secrets
	}
	return !allDigits(v) || len(v) >= 6
}

func allDigits(v string) bool {
	for _, r := range v {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// isReference reports a value that refers to a secret kept elsewhere (an environment lookup, a
// template expression, a Terraform reference, a shell expansion), a placeholder, or a package
// version.
func isReference(v string) bool {
	return placeholderWord.MatchString(v) || envLookup.MatchString(v) || hclRef.MatchString(v) || versionPin.MatchString(v) ||
		strings.IndexByte(v, '$') >= 0 && shellVar.MatchString(v) || strings.IndexByte(v, '-') > 0 && psCmdlet.MatchString(v) ||
		strings.ContainsAny(v, `:'"`) && wrappedEnvName.MatchString(v)
}

var (
	// a shell or PowerShell variable with the quotes around it that an unquoted assignment's
	// value keeps: echo "key_pwd=$KEY_PWD", password="'$K8S_PASSWORD'", -String $env:SECRET
	shellVar = lazyre.New(`^['"]*\$(?:env:)?\w+['"]*$`)
	// an environment variable's name that an unquoted assignment kept a colon or quote around:
	// echo "::set-output name=secret::SNAPCRAFT_LOGIN"
	wrappedEnvName = lazyre.New(`^(?::+['"]*|['"]+)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+['"]*$|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+['"]+$`)
	// a PowerShell cmdlet: the value is a call's result ($cred = New-Object PSCredential ...)
	psCmdlet = lazyre.New(`^(?:New|ConvertTo|ConvertFrom|Get|Read|Import)-[A-Z][A-Za-z]+$`)
)

// isLocation reports a path or URL: where a secret lives, not the secret.
func isLocation(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") ||
		strings.HasSuffix(v, ".pem") || strings.HasSuffix(v, ".key") || strings.HasSuffix(v, ".json") || strings.Contains(v, "://")
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

// namesObject reports a key that names something other than a secret value: sudoers' NOPASSWD
// tag, a CLI flag naming a secret object (--secret=prod-env-auth, --secrets).
func namesObject(key string) bool {
	lower := strings.ToLower(key)
	if strings.HasSuffix(lower, "nopasswd") {
		return true
	}
	if strings.HasPrefix(lower, "-") {
		bare := strings.TrimLeft(lower, "-")
		return bare == "secret" || bare == "secrets"
	}
	return false
}

// credentialWords are the words mayHoldCredential looks for, lower-case.
// "auth" is there for Authorization: Basic and auth=(...), the rest for the command lines
// and DSNs of cmdline.go.
var credentialWords = [...]string{"pass", "pwd", "secret", "key", "token", "credential", "auth",
	"mysql", "mariadb", "login", "curl", "@tcp(", "@unix(", "@udp("}

// credentialSlots has a bit set for the first two bytes of every credential word and of "://",
// and credentialAt lists the words starting with each such pair: one pass over a line tests
// them all (the words one by one, each over the whole line, cost the guard ~0.7 ms on a 100 KB
// Write of code, where their first letters are everywhere).
var credentialSlots, credentialAt = func() (bits [1 << 16 / 64]uint64, at map[uint16][]string) {
	at = map[uint16][]string{}
	for _, w := range append(credentialWords[:], "://") {
		slot := uint16(w[0])<<8 | uint16(w[1])
		bits[slot/64] |= 1 << (slot % 64)
		at[slot] = append(at[slot], w)
	}
	return bits, at
}()

// mayHoldCredential is the cheap test before any regex: a secret word or a URL. An ASCII line
// (most of them) is read once, lower-cased byte by byte as it goes.
func mayHoldCredential(line string) bool {
	if hold, ascii := asciiHoldsCredentialWord(line); hold || ascii {
		return hold
	}
	if strings.Contains(line, "://") {
		return true
	}
	lower := strings.ToLower(line)
	for _, w := range credentialWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// asciiHoldsCredentialWord reports whether line, its ASCII letters lower-cased, holds a
// credential word or "://" before its first byte that is not ASCII (hold), and whether line is
// ASCII only: then hold is the whole answer, as strings.ToLower would lower it the same.
func asciiHoldsCredentialWord(line string) (hold, ascii bool) {
	for i := 0; i+1 < len(line); i++ {
		c, d := line[i], line[i+1]
		if c >= 0x80 {
			return false, false
		}
		slot := uint16(lowerASCII(c))<<8 | uint16(lowerASCII(d))
		if credentialSlots[slot/64]&(1<<(slot%64)) == 0 {
			continue
		}
		for _, w := range credentialAt[slot] {
			if hasPrefixFoldASCII(line[i:], w) {
				return true, true
			}
		}
	}
	return false, len(line) == 0 || line[len(line)-1] < 0x80
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFoldASCII reports whether s starts with w (lower-case ASCII) once its ASCII letters
// are lower-cased.
func hasPrefixFoldASCII(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if lowerASCII(s[k]) != w[k] {
			return false
		}
	}
	return true
}

// keyStems are parts of credAssign's key words: each of those words holds one, and the rest
// of the word is [a-z0-9_-].
var keyStems = [...]string{"pass", "pwd", "secret", "api", "access", "auth", "private", "credential"}

// FoldLower lower-cases s as (?i) matches it: strings.ToLower, and the long s (U+017F), which
// case-folds to s, as s.
func FoldLower(s string) string {
	lower := strings.ToLower(s)
	if strings.Contains(lower, "\u017f") {
		lower = strings.ReplaceAll(lower, "\u017f", "s")
	}
	return lower
}

// WordFollowedBy reports whether one of words occurs in lower with next true of what follows
// it: the cheap test put before a case-insensitive regex whose match holds one of the words and
// then a shape next can check.
func WordFollowedBy(lower string, words []string, next func(rest string) bool) bool {
	for _, w := range words {
		for rest := lower; ; {
			i := strings.Index(rest, w)
			if i < 0 {
				break
			}
			rest = rest[i+len(w):]
			if next(rest) {
				return true
			}
		}
	}
	return false
}

// assignAfterKey is a fast superset of credAssign on lower (the line lower-cased): a key stem,
// then key characters, an optional quote and ']', spaces, and '=' or ':'.
func assignAfterKey(lower string) bool { return WordFollowedBy(lower, keyStems[:], assignNext) }

// assignNext reports whether s (what follows a key stem) goes on as credAssign's key and then
// its operator.
func assignNext(s string) bool {
	i := SkipWhile(s, 0, keyByte)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	j := SkipWhile(s, i, spaceByte)
	if j > i && strings.HasPrefix(s[j:], "string") {
		i = SkipWhile(s, j+len("string"), spaceByte) // Go: const password string = "..."
	} else {
		i = j
	}
	return i < len(s) && (s[i] == '=' || s[i] == ':' || strings.HasPrefix(s[i:], "||=") || strings.HasPrefix(s[i:], "??="))
}

// skipWhile returns the index of the first byte of s from i on that is not in the class.
func SkipWhile(s string, i int, in func(byte) bool) int {
	for i < len(s) && in(s[i]) {
		i++
	}
	return i
}

// keyByte is a byte of credAssign's key ([a-z0-9_.-], the line lower-cased).
func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// spaceByte is \s (and \v).
func spaceByte(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// userInfoAfterScheme is a fast superset of credURL: a ':' and then an '@' after the first
// "://" (a match's "://" is that one or a later one, and its user part, ':' and '@' follow it).
// Most URLs in code and docs have no user part, and the regex tried at every letter of such a
// line is most of what finding credentials costs.
func userInfoAfterScheme(line string) bool {
	i := strings.Index(line, "://")
	if i < 0 {
		return false
	}
	rest := line[i+3:]
	j := strings.IndexByte(rest, ':')
	return j >= 0 && strings.IndexByte(rest[j+1:], '@') >= 0
}

// credentialForms are the ways a credential is written, tried in order.
var credentialForms = [...]func(line string, o CredentialOptions) (Credential, bool){
	findURL, findDSN, findDefine, findElement, findAttribute, findAssign, findBasic, findTuple, findCommandLine,
}

// FindCredential finds the first password or secret written on line.
func FindCredential(line string, o CredentialOptions) (Credential, bool) {
	if line == "" || len(line) > 4000 || !mayHoldCredential(line) {
		return Credential{}, false
	}
	for _, find := range credentialForms {
		if c, ok := find(line, o); ok {
			return c, true
		}
	}
	return Credential{}, false
}

// findURL finds scheme://user:password@host.
func findURL(line string, _ CredentialOptions) (Credential, bool) {
	if !userInfoAfterScheme(line) {
		return Credential{}, false
	}
	if m := credURL.FindStringSubmatch(line); m != nil && plausibleSecret(m[2]) && !strings.HasPrefix(m[2], "$") {
		return Credential{Key: "a password in a connection URL", Value: m[2], Wired: true}, true
	}
	return Credential{}, false
}

// findDefine finds PHP define('DB_PASSWORD', '...').
func findDefine(line string, o CredentialOptions) (Credential, bool) {
	if !o.Define {
		return Credential{}, false
	}
	if m := credDefine.FindStringSubmatch(line); m != nil {
		if v := secretValue(m[2], true); v != "" {
			return Credential{Key: m[1], Value: v}, true
		}
	}
	return Credential{}, false
}

// findElement finds <password>value</password>.
func findElement(line string, _ CredentialOptions) (Credential, bool) {
	if m := credElement.FindStringSubmatch(line); m != nil && strings.EqualFold(m[1], m[3]) {
		if v := strings.TrimSpace(m[2]); plausibleSecret(v) {
			return Credential{Key: m[1], Value: v}, true
		}
	}
	return Credential{}, false
}

// findAttribute finds password="value" in a tag and the value of an HTML password field.
func findAttribute(line string, o CredentialOptions) (Credential, bool) {
	if !o.Attributes {
		return Credential{}, false
	}
	if m := credAttr.FindStringSubmatch(line); m != nil && plausibleSecret(m[2]) {
		return Credential{Key: m[1], Value: m[2]}, true
	}
	if m := credInput.FindStringSubmatch(line); m != nil {
		if v := m[1] + m[2]; plausibleSecret(v) {
			return Credential{Key: "a password field's value", Value: v}, true
		}
	}
	return Credential{}, false
}

// findAssign finds key = value and friends, where the key names a secret.
func findAssign(line string, o CredentialOptions) (Credential, bool) {
	if !o.Assign {
		return Credential{}, false
	}
	if !assignAfterKey(FoldLower(line)) {
		return Credential{}, false
	}
	m := credAssign.FindStringSubmatchIndex(line)
	if m == nil {
		return Credential{}, false
	}
	key, op := line[m[2]:m[3]], line[m[4]:m[5]]
	if op == "==" || !passKey(key) || namesObject(key) || secretsFlag.MatchString(line[:m[2]]) {
		return Credential{}, false
	}
	raw := strings.TrimSpace(line[m[6]:m[7]])
	if inTemplateAction(line[:m[2]]) && raw != "" && !strings.ContainsRune("\"'`", rune(raw[0])) {
		return Credential{}, false
	}
	if v := secretValue(raw, o.QuotedOnly); v != "" {
		return Credential{Key: key, Value: v}, true
	}
	return Credential{}, false
}

// inTemplateAction reports text that ends inside an open {{ ... }} action (Go, Helm, Jinja): a
// bare word there is a function or a variable ({{ $secret := index .Values "secret" }}); only
// a quoted literal can be a secret.
func inTemplateAction(before string) bool {
	i := strings.LastIndex(before, "{{")
	return i >= 0 && !strings.Contains(before[i:], "}}")
}
