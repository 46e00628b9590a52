package rules

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// fileRule matches a committed file by path and, where content decides, by its added text.
type fileRule struct {
	review.Rule
	what    string     // names the file kind in the message
	path    *lazyre.RE // on the repository path, lower-cased
	except  *lazyre.RE // paths that are templates or public parts
	content func(text string) bool
	binary  bool // a binary file matching the path is a finding by itself
	// needs, if set, is a literal content holds only for text holding it: where no added line
	// holds it, the lines are not joined for content (they are joined with newlines, and no
	// needs holds one)
	needs string
}

var (
	privateKeyFile = review.Rule{ID: "tollgate/private-key-file", Severity: policy.Critical, CWE: []string{"CWE-321", "CWE-312"},
		Description: "a private key or key store is committed",
		Catches:     example("deploy/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"),
		Leaves:      example("deploy/id_ed25519.pub", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2m deploy@example")}
	credentialFile = review.Rule{ID: "tollgate/credential-file", Severity: policy.High, CWE: []string{"CWE-798", "CWE-522"},
		Description: "a credential store is committed",
		Catches:     example(".env", "DATABASE_URL=postgres://app:Xk29fj3@db/app\nSTRIPE_SECRET_KEY=sk_live_abc123def456"),
		Leaves:      example(".env.example", "DATABASE_URL=\nSTRIPE_SECRET_KEY=your-key-here")}
	databaseDump = review.Rule{ID: "tollgate/database-dump", Severity: policy.High, CWE: []string{"CWE-200", "CWE-312"},
		Description: "a database dump is committed",
		Catches:     example("backup/dump.sql", "CREATE TABLE users (id int, email text);\nINSERT INTO users VALUES (1, 'ann@example.com');"),
		Leaves:      example("migrations/001_init.sql", "CREATE TABLE users (id int, email text);")}
)

func re(s string) *lazyre.RE { return lazyre.New(s) }

func contains(res ...string) func(string) bool {
	compiled := make([]*lazyre.RE, len(res))
	for i, s := range res {
		compiled[i] = lazyre.New(s)
	}
	return func(text string) bool {
		for _, c := range compiled {
			if c.MatchString(text) {
				return true
			}
		}
		return false
	}
}

// literal reports text holding s: a cheap test put before a regex that needs s.
func literal(s string) func(string) bool {
	return func(text string) bool { return strings.Contains(text, s) }
}

func all(fs ...func(string) bool) func(string) bool {
	return func(text string) bool {
		for _, f := range fs {
			if !f(text) {
				return false
			}
		}
		return true
	}
}

// anySecretAssignment reports a line of text assigning a plausible secret to a key that names
// one (the generic credential test, used where a file's name makes it a credential store).
func anySecretAssignment(k lang.Kind) func(string) bool {
	return func(text string) bool {
		for _, line := range strings.Split(text, "\n") {
			var r review.Result
			_, text := credentialText(k, line)
			scanCredentials(&diff.Unit{}, "", k, diff.Line{Kind: diff.Add, New: 1, Text: line}, text, nil, &r)
			if len(r.Findings) > 0 {
				return true
			}
		}
		return false
	}
}

const templateSuffix = `(?:\.|-|_)(?:example|sample|template|tmpl|tpl|dist|defaults?|schema|spec|test|ci)$`

// pemPrivate: a PEM private key whose body starts as base64 does, after the header (and any
// Proc-Type or DEK-Info lines); a body of words ("REPLACE ME", "...", "<your key>") is a
// placeholder, which gitleaks does not report either.
var pemPrivate = contains(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n?(?:[\w-]+:[^\n]*\n)*\s*[A-Za-z0-9+/=]+[ \t]*(?:\r?\n|-----)`)

// The private key files keyFileSeverity judges (keystores.go).
const (
	sshKeyWhat   = "SSH private key"
	pemKeyWhat   = "PEM private key"
	keyStoreWhat = "PKCS#12 / Java key store"
)

var fileRules = []fileRule{
	{Rule: privateKeyFile, what: sshKeyWhat, path: re(`(?:^|/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_[\w.-]+)?$`), except: re(`\.pub$`),
		content: pemPrivate, binary: true},
	{Rule: privateKeyFile, what: pemKeyWhat, path: re(`\.(?:pem|key|crt|cer|der|p8|pk8)$`), content: pemPrivate},
	{Rule: privateKeyFile, what: "PuTTY private key", path: re(`\.ppk$`), content: contains(`PuTTY-User-Key-File-\d`), binary: true},
	{Rule: privateKeyFile, what: keyStoreWhat, path: re(`\.(?:p12|pfx|jks|keystore|bks|jceks)$`), content: func(string) bool { return true }, binary: true},
	{Rule: privateKeyFile, what: "browser password store", path: re(`(?:^|/)(?:key[34]\.db|signons\.sqlite|logins\.json)$`),
		content: contains(`encryptedPassword|encryptedUsername`), binary: true},
	{Rule: privateKeyFile, what: "GnuPG secret keyring", path: re(`(?:^|/)(?:secring\.gpg|private-keys-v1\.d/.*\.key)$`), content: func(string) bool { return true }, binary: true},

	{Rule: credentialFile, what: ".env file with secret values", path: re(`(?:^|/)\.env(?:\.[\w.-]+)?$`), except: re(templateSuffix),
		content: anySecretAssignment(lang.Env)},
	{Rule: credentialFile, what: "git credential store", path: re(`(?:^|/)\.git-credentials$`), content: contains(`://[^:\s/]+:[^@\s]+@`)},
	{Rule: credentialFile, what: "netrc with a password", path: re(`(?:^|/)[._]netrc$`), content: contains(`(?m)\bpassword\s+\S+`)},
	{Rule: credentialFile, what: "PostgreSQL password file", path: re(`(?:^|/)\.pgpass$`), content: contains(`(?m)^[^#:\s][^:]*:[^:]*:[^:]*:[^:]*:\S+`)},
	{Rule: credentialFile, what: "htpasswd file", path: re(`(?:^|/)\.?htpasswd$`), content: contains(`(?m)^[^:#\s]+:\S{4,}`)},
	{Rule: credentialFile, what: "password hashes (shadow/passwd style)", path: re(`.`),
		// (every file: the regex runs only on text holding ":$")
		content: all(literal(":$"), contains(`(?m)^[a-z_][a-z0-9_.\-]*:\$(?:1|2[abxy]?|5|6|y|apr1|sha1|argon2\w*)\$[^:\s]+(?::|$)`)), needs: ":$"},
	{Rule: credentialFile, what: "npm token in .npmrc", path: re(`(?:^|/)\.npmrc$`), content: contains(`(?m)(?:_authToken|_auth|_password)\s*=\s*[^$\s{]\S*`)},
	{Rule: credentialFile, what: "PyPI password in .pypirc", path: re(`(?:^|/)\.pypirc$`), content: contains(`(?m)^\s*password\s*[:=]\s*[^$\s{]\S*`)},
	{Rule: credentialFile, what: "Docker registry credentials", path: re(`(?:^|/)(?:\.docker/config\.json|\.dockercfg|config\.json)$`),
		content: contains(`"auth"\s*:\s*"[A-Za-z0-9+/=]{8,}"`)},
	{Rule: credentialFile, what: "kubeconfig with credentials", path: re(`(?:^|/)(?:kubeconfig[\w.-]*|\.kube/config|[\w.-]+\.ya?ml|config)$`),
		content: all(contains(`(?m)^\s*kind:\s*Config\s*$`), contains(`(?m)^\s*(?:token|client-key-data|password):\s*["']?[^\s"'$]{8,}`))},
	{Rule: credentialFile, what: "Rails master key", path: re(`(?:^|/)(?:master\.key|credentials/[\w-]+\.key)$`), content: contains(`(?m)^[0-9a-f]{32}\s*$`)},
	{Rule: credentialFile, what: "Terraform variables with secrets", path: re(`\.tfvars(?:\.json)?$`), except: re(templateSuffix), content: anySecretAssignment(lang.HCL)},
	{Rule: credentialFile, what: "cloud credentials file", path: re(`(?:^|/)(?:\.aws/credentials|credentials|\.s3cfg|\.boto|\.azure/[\w.-]+\.json|application_default_credentials\.json|credentials\.db|access_tokens\.db|[\w.-]*service[-_]?account[\w.-]*\.json|[\w.-]+\.json)$`),
		content: contains(`(?mi)^\s*aws_secret_access_key\s*=\s*\S{16,}`, `"type"\s*:\s*"service_account"[\s\S]*"private_key"\s*:\s*"-----BEGIN`, `"private_key"\s*:\s*"-----BEGIN[\s\S]*"client_email"`, `(?m)^\s*secret_key\s*=\s*\S{16,}`, `"refresh_token"\s*:\s*"[^"]{16,}"[\s\S]*"client_secret"|"client_secret"\s*:\s*"[^"]{8,}"[\s\S]*"refresh_token"`)},
	{Rule: credentialFile, what: "FTP/SFTP client config with a password", path: re(`(?:^|/)(?:sftp-config\.json|sftp\.json|\.ftpconfig|\.remote-sync\.json|deployment-config\.json|webservers\.xml|recentservers\.xml|sitemanager\.xml|filezilla\.xml|ftpsync\.settings|\.ftppass|winscp\.ini)$`),
		content: contains(`(?i)"(?:pass|password|passphrase)"\s*:\s*"[^"]+"`, `(?i)<pass[^>]*>[^<]+</pass>`, `(?i)\spassword\s*=\s*"[^"]+"`, `(?i)^\s*password\s*=\s*\S+`)},
	{Rule: credentialFile, what: "database client config with a password", path: re(`(?:^|/)(?:[\w.-]*data-?sources\.xml|credentials-config\.json|robomongo\.json|\.my\.cnf|my\.cnf|\.pgadmin[\w.-]*|dbeaver[\w.-]*\.xml|\.esmtprc|\.msmtprc|\.fetchmailrc|ventrilo_srv\.ini|hub|\.config/gh/hosts\.yml)$`),
		content: contains(`(?i)(?:password|passwd|pass|userpassword|oauth_token)\b["']?\s*[:=]?\s*["']?[^\s"'$]{3,}`)},
	{Rule: databaseDump, what: "SQL dump with data", path: re(`\.sql$`), content: all(contains(`(?i)\bCREATE\s+TABLE\b|(?m)^--\s*(?:MySQL|PostgreSQL|MariaDB)?\s*dump|(?i)^-- Dump`), recordRows)},
	{Rule: databaseDump, what: "database dump or database file", path: re(`\.(?:dump|sql\.gz|sql\.bz2|sql\.xz|bson|sqlite3?|mdb|accdb)$`), content: func(string) bool { return true }, binary: true},
}

// insertInto finds the table of each INSERT INTO (schema-qualified and quoted names too).
var insertInto = re(`(?i)\bINSERT\s+INTO\s+(?:[\x60"\[]?\w+[\x60"\]]?\.)?[\x60"\[]?(\w+)`)

// bookkeepingTables hold a schema's version, not records: a dump whose only rows go there is
// a schema dump (a development database's structure), not data.
var bookkeepingTables = map[string]bool{"schema_migrations": true, "django_migrations": true,
	"schema_version": true, "schema_versions": true, "flyway_schema_history": true, "ar_internal_metadata": true,
	"migrations": true, "__efmigrationshistory": true, "alembic_version": true, "goose_db_version": true,
	"databasechangelog": true, "knex_migrations": true, "doctrine_migration_versions": true}

// versionRow: a row that records a schema's version in a generic key-value table (Trac's
// INSERT INTO system VALUES ('database_version', '45')).
var versionRow = re(`(?i)^[^']*\(\s*'\w*version'\s*,\s*'?[\w.\-]{1,20}'?\s*\)\s*$`)

// recordRows reports rows of records in a dump: INSERT statements or pg_dump's COPY ... FROM
// stdin blocks.
func recordRows(text string) bool { return recordInserts(text) || recordCopies(text) }

// copyFrom finds pg_dump's COPY [schema.]table (columns) FROM stdin; the rows follow, one per
// line, up to a line "\.".
var copyFrom = re(`(?im)^COPY\s+(?:[\x60"\[]?\w+[\x60"\]]?\.)?[\x60"\[]?(\w+)[^\n]*\bFROM\s+stdin;[ \t]*\r?\n`)

// recordCopies reports a COPY block with a row that is a record: in a table that is not
// bookkeeping, and not a ('<name>_version', value) row of a key-value table.
func recordCopies(text string) bool {
	for _, m := range copyFrom.FindAllStringSubmatchIndex(text, -1) {
		table := strings.ToLower(text[m[2]:m[3]])
		if bookkeepingTables[table] {
			continue
		}
		rows := text[m[1]:]
		for n := 0; n < 1000 && rows != ""; n++ {
			row, rest, _ := strings.Cut(rows, "\n")
			row = strings.TrimSuffix(row, "\r")
			if row == `\.` {
				break
			}
			if key, _, _ := strings.Cut(row, "\t"); !strings.HasSuffix(strings.ToLower(key), "version") && !enumRow(table, strings.Split(row, "\t")) {
				return true
			}
			rows = rest
		}
	}
	return false
}

// lookupTable names a table of an enumeration's values (Trac's enum: resolution, fixed, 1),
// the choices an application ships, not records.
var lookupTable = re(`^(?:enums?|lookups?|\w+_(?:enums?|types|kinds|statuses|lookups?|choices))$`)

// enumWord is a field of an enumeration's row: a word, a small number, NULL.
var enumWord = re(`^(?:[A-Za-z_][\w\-]{0,30}|\d{1,6}|\\N|NULL)$`)

// enumRow reports a row of a lookup table whose every field is a word, a small number or NULL.
func enumRow(table string, fields []string) bool {
	if !lookupTable.MatchString(table) {
		return false
	}
	for _, f := range fields {
		if !enumWord.MatchString(strings.Trim(strings.TrimSpace(f), "'")) {
			return false
		}
	}
	return true
}

// recordInserts reports an INSERT INTO a table that holds records (not bookkeeping).
func recordInserts(text string) bool {
	for at := 0; at < len(text); {
		m := insertInto.FindStringSubmatchIndex(text[at:])
		if m == nil {
			return false
		}
		stmt := text[at+m[1]:]
		if end := strings.IndexByte(stmt, ';'); end >= 0 {
			stmt = stmt[:end]
		}
		table := strings.ToLower(text[at+m[2] : at+m[3]])
		if !bookkeepingTables[table] && !versionRow.MatchString(stmt[:min(len(stmt), 512)]) && !enumInsert(table, stmt) {
			return true
		}
		at += m[1]
	}
	return false
}

// enumInsert reports an INSERT's statement text (after the table) whose rows are all rows
// of a lookup table (enumRow).
func enumInsert(table, stmt string) bool {
	if !lookupTable.MatchString(table) {
		return false
	}
	_, rows, ok := strings.Cut(stmt, "VALUES")
	if !ok {
		_, rows, ok = strings.Cut(stmt, "values")
	}
	if !ok || len(rows) > 4096 {
		return false
	}
	for _, row := range strings.Split(rows, "),") {
		row = strings.Trim(strings.TrimSpace(row), "();")
		if !enumRow(table, strings.Split(row, ",")) {
			return false
		}
	}
	return true
}

// SecretFile returns the id of the file rule (a private key or a credential store, not a
// database dump) that text, as the content of the file at path, matches; "" if none. The model
// step never sends such a file.
func SecretFile(path, text string) string {
	lower := strings.ToLower(path)
	for i := range fileRules {
		fr := &fileRules[i]
		if fr.ID == databaseDump.ID || !fr.path.MatchString(lower) || (fr.except != nil && fr.except.MatchString(lower)) {
			continue
		}
		if fr.content(text) {
			return fr.ID
		}
	}
	if len(findEntries(strings.Split(text, "\n"))) > 0 {
		return credentialEntry.ID
	}
	return ""
}

// addedHolds reports whether an added line of f holds s.
func addedHolds(f *diff.FileDiff, s string) bool {
	for l := range f.Added() {
		if strings.Contains(l.Text, s) {
			return true
		}
	}
	return false
}

// ruleSet64 holds the indexes of fileRules whose path (and not their except) matches a path.
type ruleSet64 uint64

func (m ruleSet64) has(i int) bool { return m&(1<<i) != 0 }

// pathRuleMemo: lower-cased path -> the file rules its name matches. A history has the same
// paths in thousands of commits, and some of the path expressions are slow to try. It keeps
// at most maxPathMemo paths (a few MB), so a huge history's memory stays bounded.
var (
	pathRuleMemo sync.Map
	pathMemoSize atomic.Int64
)

const maxPathMemo = 50000

// pathRules returns the file rules whose path expression matches lower (a lower-cased path).
func pathRules(lower string) ruleSet64 {
	if m, ok := pathRuleMemo.Load(lower); ok {
		return m.(ruleSet64)
	}
	var m ruleSet64
	for i := range fileRules {
		fr := &fileRules[i]
		if fr.path.MatchString(lower) && (fr.except == nil || !fr.except.MatchString(lower)) {
			m |= 1 << i
		}
	}
	if pathMemoSize.Add(1) <= maxPathMemo {
		pathRuleMemo.Store(lower, m)
	}
	return m
}

// scanFile runs the file rules on one changed file. Each rule reports once per file, at the
// first added line (line 1 for a binary or empty file).
func scanFile(u *diff.Unit, f *diff.FileDiff, p string, r *review.Result) {
	lower := strings.ToLower(p)
	text := ""
	joined := false
	reported := map[string]bool{}
	first, hasAdded := firstAdded(f)
	matched := pathRules(lower)
	for i := range fileRules {
		fr := &fileRules[i]
		if reported[fr.ID] || !matched.has(i) {
			continue
		}
		hit := false
		switch {
		case f.Binary:
			hit = fr.binary
		case !hasAdded:
			continue
		case !joined && fr.needs != "" && !addedHolds(f, fr.needs):
			continue
		default:
			if !joined {
				text, joined = joinLines(f), true
			}
			hit = fr.content(text)
		}
		if !hit {
			continue
		}
		reported[fr.ID] = true
		line := 1
		if hasAdded {
			line = first
		}
		sev, msg := fr.Severity, fmt.Sprintf("%s: %s", fr.Description, fr.what)
		// A key, a credential file or a dump under a test path is a fixture, like other test
		// code (a fixture .env holding ANOTHER_SECRET=zot).
		sev, msg = testSeverity(p, sev, msg)
		if fr.ID == privateKeyFile.ID {
			sev, msg = keyFileSeverity(fr.what, p, text, sev, msg)
		}
		r.Add(review.Finding{
			RuleID: fr.ID, Severity: sev, Confidence: 0.9, CWE: fr.CWE, Path: p, Line: line, EndLine: line,
			Message:  msg + review.InCommit(u),
			Evidence: "file: " + p, Source: "builtin",
		})
	}
}
