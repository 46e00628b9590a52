package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// credentialRule finds passwords and secrets written into config and code that gitleaks'
// default rules (which look for known token shapes) do not know.
var credentialRule = review.Rule{
	ID: "tollgate/hardcoded-credential", Severity: policy.High, CWE: []string{"CWE-798", "CWE-259"},
	Description: "a password or secret is written into the file",
	Catches:     example("config/database.yml", "  password: s3cr3t-Pr0d-pw"),
	Leaves:      example("config/database.yml", "  password: ${DB_PASSWORD}"),
}

// djangoDevKey starts the SECRET_KEY that django-admin startproject generates.
const djangoDevKey = "django-insecure-"

// localServiceFile matches files that configure throwaway local services: docker-compose files
// and CI configurations (GitHub Actions services:, GitLab services, CircleCI images).
var localServiceFile = lazyre.New(`(?i)(?:^|/)(?:docker-)?compose(?:[.\-_][\w.\-]*)?\.ya?ml$|(?:^|/)\.github/workflows/[^/]+\.ya?ml$|(?:^|/)\.gitlab-ci\.ya?ml$|(?:^|/)\.gitlab/ci/[^/]+\.ya?ml$|(?:^|/)\.circleci/config\.ya?ml$|(?:^|/)\.travis\.ya?ml$|(?:^|/)bitbucket-pipelines\.ya?ml$|(?:^|/)\.drone\.ya?ml$|(?:^|/)\.woodpecker\.ya?ml$`)

// isLocalServiceFile reports whether localServiceFile matches p. Every path it matches ends in
// .yml or .yaml (y, a, m and l fold to nothing but their ASCII cases): that test first, as
// the regex, which has no literal to look for first, costs as much as a line rule on each of
// the many files of a history.
func isLocalServiceFile(p string) bool {
	if !hasFoldSuffix(p, ".yml") && !hasFoldSuffix(p, ".yaml") {
		return false
	}
	return localServiceFile.MatchString(p)
}

// serviceLine is a line only a CI job or a compose file writes: a GitHub Actions job's
// runs-on:, a compose file's top-level services:.
var serviceLine = lazyre.New(`^\s+runs-on:\s*\S|^services:\s*$`)

// serviceConfig reports a YAML file at any other path whose added lines configure a CI job or
// compose services (a workflow template, a copied or generated workflow): its local services'
// throwaway passwords are what they are in .github/workflows.
func serviceConfig(p string, f *diff.FileDiff) bool {
	if !hasFoldSuffix(p, ".yml") && !hasFoldSuffix(p, ".yaml") {
		return false
	}
	for l := range f.Added() {
		if strings.Contains(l.Text, "runs-on:") || strings.HasPrefix(l.Text, "services:") {
			if serviceLine.MatchString(l.Text) {
				return true
			}
		}
	}
	return false
}

// hasFoldSuffix reports whether s ends in suffix, ASCII case ignored.
func hasFoldSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// wellKnownDefault is a default password of a local service image or a tutorial.
var wellKnownDefault = lazyre.New(`(?i)^(?:postgres|postgresql|root|toor|mysql|mariadb|redis|mongo|mongodb|guest|rabbitmq|elastic|changeme\w*|keycloak|minio\w*|docker|circle_?test|ci|local|dev|development|password\d*|pass(?:word)?123|secret\d*|mysecretpassword|supersecret\w*|test\w*|\w*_?test|example|admin\d*|sa|pgpass|app)$`)

// localHost names this machine: a connection to it, or a command run against it, is a local
// service's.
var localHost = lazyre.New(`(?i)(?:^|[^\w.\-])(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|::1)(?:[^\w.\-]|$)`)

// serviceNames collects the names a local-service file gives (users, databases, services):
// a password equal to one of them is a throwaway.
var serviceName = lazyre.New(`(?i)^\s*-?\s*["']?(?:\w*[_\-])?(?:user|username|db|database|dbname|name|login|host)["']?\s*[:=]\s*["']?([\w.\-]+)|^\s{0,6}([\w.\-]+):\s*$`)

func serviceNames(f *diff.FileDiff) map[string]bool {
	names := map[string]bool{}
	for l := range f.Added() {
		if m := serviceName.FindStringSubmatch(l.Text); m != nil {
			names[strings.ToLower(m[1]+m[2])] = true
		}
	}
	return names
}

// throwaway reports a credential of a local service (names non-nil: the file configures
// them) that is its default or repeats a user, database or service name.
func throwaway(value string, names map[string]bool) bool {
	if names == nil {
		return false
	}
	lower := strings.ToLower(value)
	if names[lower] {
		return true
	}
	return lower != "admin" && wellKnownDefault.MatchString(value)
}

// credentialText returns the code part of a line of a code or config file ("" for any other
// kind) and the text the credential rule reads on it: that code part, or the whole line.
func credentialText(k lang.Kind, line string) (code, text string) {
	if k.IsCode() || k.IsConfig() {
		code = lang.CodePart(k, line)
		return code, code
	}
	return "", line
}

// credentialSeverity is the severity and message of credential c found on text in the file at
// p: high, lowered in tests and docs (placeSeverity), for a value that is no secret, a default
// (defaultValue), and a connection or command line to this machine or with a well-known
// default password.
func credentialSeverity(p string, c redact.Credential, text string, names map[string]bool) (policy.Severity, string) {
	value := bareValue(c.Value)
	sev, msg := placeSeverity(p, credentialRule.Severity, credentialRule.Description+" ("+c.Key+")")
	sev, msg = lowerFor(sev, msg, notASecret(text, value))
	sev, msg = lowerFor(sev, msg, defaultValue(p, c.Key, value, names))
	if c.Wired && (wellKnownDefault.MatchString(value) || localHost.MatchString(text)) {
		sev, msg = lowerFor(sev, msg, "a local service or a default password")
	}
	return sev, msg
}

// bareValue is a value without the quotes, backslashes and escaped line ends a shell string
// leaves around it (\`password\`\n" in an echo -e): the word that is judged a default.
func bareValue(v string) string {
	for {
		t := strings.Trim(v, "`'\"\\")
		t = strings.TrimSuffix(strings.TrimSuffix(t, `\n`), `\t`)
		if t == v || t == "" {
			return v
		}
		v = t
	}
}

// scanCredentials reports a secret written on text, the credential text of an added line
// (credentialText); names is non-nil in a file that configures local services (see throwaway).
func scanCredentials(u *diff.Unit, p string, k lang.Kind, l diff.Line, text string, names map[string]bool, r *review.Result) {
	if text == "" || len(text) > 4000 {
		return
	}
	c, ok := redact.FindCredential(text, redact.CredentialOptions{
		QuotedOnly: k.IsCode() && k != lang.Shell && k != lang.Docker && k != lang.Make,
		Attributes: k == lang.XML || strings.HasPrefix(strings.TrimSpace(text), "<"),
		Define:     k == lang.PHP,
		Assign:     !k.IsProse(),
	})
	if !ok {
		return
	}
	value := c.Value
	conf := 0.9
	if k.IsCode() {
		conf = 0.8
	}
	if inExpansion(text, value) {
		return // ${MVNW_PASSWORD:+has-password}: the shell's text for a set variable
	}
	sev, msg := credentialSeverity(p, c, text, names)
	r.Add(review.Finding{
		RuleID: credentialRule.ID, Severity: sev, Confidence: conf, CWE: credentialRule.CWE,
		Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
	}.LineEvidence(l.Text, max(strings.Index(l.Text, value), 0), value))
}

// jwkPrivate is a JSON Web Key's private member: "d" (an RSA private exponent, an EC or OKP
// private scalar) or "k" (an oct key's secret), base64url of 16 characters or more.
var jwkPrivate = lazyre.New(`"(d|k)"\s*:\s*"([A-Za-z0-9_\-]{16,})"`)

// reportJWK reports the private members of JSON Web Keys in f (RFC 7517: an object with a
// "kty" member; "d" in a private RSA, EC or OKP key, "k" in a symmetric oct key): a key
// written into the file, at the credential rule's severity (lowered in tests and docs, and
// for a sample value). A public key ("kty" with "n" and "e", or "x" and "y") has neither.
func reportJWK(u *diff.Unit, f *diff.FileDiff, p string, r *review.Result) {
	kty, oct := false, false
	var members []diff.Line
	for l := range f.Added() {
		if strings.Contains(l.Text, `"kty"`) {
			kty = true
			oct = oct || strings.Contains(l.Text, `"oct"`)
		}
		if strings.Contains(l.Text, `"d"`) || strings.Contains(l.Text, `"k"`) {
			members = append(members, l)
		}
	}
	if !kty {
		return
	}
	for _, l := range members {
		for _, m := range jwkPrivate.FindAllStringSubmatch(l.Text, -1) {
			if m[1] == "k" && !oct {
				continue
			}
			sev, msg := placeSeverity(p, credentialRule.Severity, "a JSON Web Key's private member is written into the file")
			if redact.LooksLikeSample(m[2]) {
				sev, msg = lowerFor(sev, msg, "a sample value")
			}
			r.Add(review.Finding{
				RuleID: credentialRule.ID, Severity: sev, Confidence: 0.9, CWE: []string{"CWE-798", "CWE-321"},
				Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
			}.LineEvidence(l.Text, max(strings.Index(l.Text, m[2]), 0), m[2]))
		}
	}
}

// defaultValue says why a credential's value is a default, not a secret ("" if it may be
// one): a local service's throwaway (names non-nil: the file configures them; a chosen word
// only under a service's key, POSTGRES_PASSWORD, not a release key's or a mail account's), a Helm chart's
// placeholder default, Django's generated development key.
func defaultValue(p, key, value string, names map[string]bool) string {
	switch {
	case throwaway(value, names) || names != nil && (wordy(value) || testWords(value)) && serviceKey.MatchString(key):
		return "a local service's throwaway default"
	case valuesFile(p) && (wordy(value) || wellKnownDefault.MatchString(value)):
		return "a Helm chart's placeholder default"
	case strings.HasPrefix(value, djangoDevKey):
		// startproject writes this key into every new project's settings, marked insecure: a
		// development key. Reported, not blocking; a production key has no such prefix.
		return "Django's generated development key; production must read its own"
	}
	return ""
}

// inExpansion reports a value inside a shell parameter expansion's word (${VAR:+word},
// ${VAR:-word}): text the shell substitutes, not a secret.
func inExpansion(line, value string) bool {
	i := strings.Index(line, value)
	if i < 0 {
		return false
	}
	open := strings.LastIndex(line[:i], "${")
	return open >= 0 && !strings.Contains(line[open:i], "}") && strings.Contains(line[i:], "}")
}

// envName is a value spelled like an environment variable's name (OPENAI_API_KEY).
var envName = lazyre.New(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// typeWords are values that name a type, cast or validation rule, not a secret: Laravel's
// 'password' => 'hashed', a schema's password: string.
var typeWords = lang.SetOf("hashed", "encrypted", "hidden", "string", "str", "text", "boolean",
	"bool", "integer", "int", "array", "object", "date", "datetime", "required", "nullable",
	"confirmed", "sometimes", "bcrypt", "argon", "argon2id", "sha256")

// localURL is a connection string to this machine or a documentation host.
var localURL = lazyre.New(`(?i)@(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|(?:[\w-]+\.)?example\.(?:com|org|net))\b`)

// notASecret says why a value the credential rule found is no secret, "" if it may be one: an
// environment variable's name, a type or cast, a validation rule list, a well-known default
// password of a service on localhost.
func notASecret(line, value string) string {
	switch {
	case cliFlag.MatchString(value):
		return "a command-line flag, its value added at run time"
	case envName.MatchString(value):
		return "the name of an environment variable"
	case wordPath(value):
		return "an identifier made of words (a rule id, a path), not a secret"
	case namedReference(line, value):
		return "the name of a variable that holds the secret, not the secret"
	case typeWords[strings.ToLower(value)] || validationRules(value):
		return "a type, cast or validation rule"
	case ansiEscape.MatchString(value):
		return "a terminal colour sequence"
	case strings.HasPrefix(value, "phc_") || strings.HasPrefix(value, "pk_live_") || strings.HasPrefix(value, "pk_test_"):
		return "a public, client-side key by design (a PostHog project key, a Stripe publishable key)"
	case callAfter(line, value):
		return "the start of an expression (a call), not a literal"
	case localURL.MatchString(line) && (wellKnownDefault.MatchString(value) || userRepeated(line, value)):
		return "a well-known default password on localhost"
	}
	return ""
}

// wordPath reports a value of lower-case words joined by slashes (guard/secret-read,
// secrets/db-password): a rule id, a path or a secret's name, which a person spells, not a
// generated secret. Every segment is one to three words (wordy, or a word of letters alone).
func wordPath(v string) bool {
	if !strings.Contains(v, "/") || strings.ToLower(v) != v || len(v) > 80 {
		return false
	}
	for _, seg := range strings.Split(v, "/") {
		if !wordy(seg) && !lowerWords(seg) {
			return false
		}
	}
	return true
}

// lowerWords reports up to three letter-only words joined by - or _ (secret-read-guard).
func lowerWords(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' })
	if len(parts) == 0 || len(parts) > 3 {
		return false
	}
	for _, w := range parts {
		if !wordLetters(w) {
			return false
		}
	}
	return true
}

// credWord is a word that names a credential, in an identifier (dockerPassword, db_token).
var credWord = lazyre.New(`(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credential|auth|pat)$`)

// namedReference reports an unquoted value that is an identifier of two words or more, the
// last naming a credential (password: dockerPassword, with a flow mapping's comma or none):
// the name of a variable or secret that holds the value, as a matrix or a function argument
// passes it. A quoted value is a literal and stays reported.
func namedReference(line, value string) bool {
	i := strings.Index(line, value)
	if i < 0 || i > 0 && strings.IndexByte("\"'`", line[i-1]) >= 0 || !identifier.MatchString(value) {
		return false
	}
	if rest := strings.TrimSpace(line[i+len(value):]); rest != "" && strings.IndexByte(",})", rest[0]) < 0 {
		return false // what follows is an item's end (a comma, a closing brace) or nothing
	}
	var words []string
	for _, part := range strings.FieldsFunc(value, func(r rune) bool { return r == '_' }) {
		words = append(words, splitCamel(part)...)
	}
	return len(words) >= 2 && wordy(value) && credWord.MatchString(words[len(words)-1])
}

var identifier = lazyre.New(`^[A-Za-z][A-Za-z0-9_]*$`)

// ansiEscape is a terminal escape sequence written into a string (\033[1;31m, \x1b[0m, \e[...).
var ansiEscape = lazyre.New(`(?:\\(?:033|x1[bB]|u001[bB]|e)|\x1b)\[[0-9;]*[A-Za-z]`)

// callAfter reports an unquoted value that a call follows on the line: a command or
// constructor of an expression ($c = New-Object System.Net.NetworkCredential($env:U, $env:P)).
func callAfter(line, value string) bool {
	i := strings.Index(line, value)
	if i < 0 || i > 0 && strings.IndexByte("\"'`", line[i-1]) >= 0 {
		return false
	}
	return exprCall.MatchString(line[i+len(value):])
}

var exprCall = lazyre.New(`^\s+[A-Za-z_][\w.:]*\s*\(`)

// validationRules reports a list of rules like required|min:8|confirmed.
func validationRules(v string) bool {
	if !strings.Contains(v, "|") {
		return false
	}
	for _, part := range strings.Split(v, "|") {
		name, _, _ := strings.Cut(part, ":")
		if !typeWords[name] && name != "min" && name != "max" && name != "regex" {
			return false
		}
	}
	return true
}

// userRepeated reports a URL whose password repeats its user (postgres:postgres@).
func userRepeated(line, value string) bool {
	return strings.Contains(line, "/"+value+":"+value+"@") || strings.Contains(line, "//"+value+":"+value+"@")
}

// cliFlag is a command-line option's name, its value joined on later ('--password='.$pw).
var cliFlag = lazyre.New(`^--?[A-Za-z][\w-]*=?$`)

// wordy reports a value made of words a person chose (Forge123, randomSecret, another_pw,
// secret_pw): each part, split at separators and lower-to-upper case changes, is letters
// with a vowel (or two or three letters), then at most four digits; one or two of them. A
// generated secret is not, nor is a passphrase of three words or more.
func wordy(v string) bool {
	if len(v) < 3 || len(v) > 40 {
		return false
	}
	n := 0
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		for _, w := range splitCamel(part) {
			letters := strings.TrimRight(w, "0123456789")
			if len(w)-len(letters) > 4 || !wordLetters(strings.ToLower(letters)) {
				return false
			}
			n++
		}
	}
	return n > 0 && n <= 2 // three words and more make a passphrase (horse-battery-staple)
}

// serviceKey names a local service's credential: a database's, a cache's, a queue's, a
// store's (POSTGRES_PASSWORD, DB_PASS, MONGO_INITDB_ROOT_PASSWORD, MINIO_SECRET_KEY).
var serviceKey = lazyre.New(`(?i)postgres|psql|\bpg|pg_|mysql|maria|mongo|redis|rabbit|db|database|sql|minio|elastic|keycloak|ldap|root|couch|cassandra|neo4j|clickhouse|influx|^sa_|oracle|service`)

// testWord is a word that marks a value as made for tests or development.
var testWord = lang.SetOf("test", "tests", "testing", "ci", "dev", "local", "example", "dummy", "fake", "sample")

// testWords reports a value of lower-case words joined by - or _, one of them a testWord
// (backend-integration-tests-password): a password named for its test service.
func testWords(v string) bool {
	if strings.ToLower(v) != v || len(v) > 80 {
		return false
	}
	found := false
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' }) {
		if !wordLetters(w) {
			return false
		}
		found = found || testWord[w]
	}
	return found
}

// splitCamel splits randomSecret into random and Secret.
func splitCamel(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9') {
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// wordLetters reports lower-case letters that read as a word: a vowel, or two or three letters.
func wordLetters(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return len(w) <= 3 || strings.ContainsAny(w, "aeiouy")
}
