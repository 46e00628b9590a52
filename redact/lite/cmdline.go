package lite

import (
	"encoding/base64"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Passwords written where no key = value names them: on a command line (mysql -pPW, sshpass -p
// PW, docker login -p PW, curl -u user:PW, htpasswd -b file user PW), in a Go database DSN
// (user:PW@tcp(host)/db), in an HTTP Basic header (Authorization: Basic base64(user:PW)) and
// in a (user, password) tuple (requests' auth=("user", "PW"), HTTPBasicAuth("user", "PW")).
// The value must be a literal: a variable ("$PASS", ${DB_PASSWORD}, %PW%, $(cat f)), an
// unquoted name in code (auth=(user, password)) or a placeholder (password, changeme, xxx,
// <password>) is no credential.

var (
	// user:password@tcp(host:3306)/db, the go-sql-driver/mysql DSN (also unix(), udp()).
	credDSN = lazyre.New(`(?:^|[^\w.\-])([\w.\-]+):([^@\s/'"<>:()]+)@(?:tcp|udp|unix)[46]?\(`)
	// Authorization: Basic <base64 of user:password>, as a header line, a curl -H argument or
	// a map entry.
	credBasic = lazyre.New(`(?i)authorization["']?\]?\s*[:=,]?\s*["']?\s*basic\s+([A-Za-z0-9+/]{6,}={0,2})(?:[^A-Za-z0-9+/=]|$)`)
	// auth=("user", "password"), HTTPBasicAuth('user', 'password'), basic_auth: ["u", "p"].
	credTuple = lazyre.New(`(?i)\b(\w*auth)["']?\s*[:=]?\s*[(\[]\s*b?["']([^"'\n]*)["']\s*,\s*b?["']([^"'\n]*)["']\s*[)\]]`)
)

// findDSN finds the password of a Go database DSN.
func findDSN(line string, _ CredentialOptions) (Credential, bool) {
	if !strings.Contains(line, "@tcp") && !strings.Contains(line, "@unix") && !strings.Contains(line, "@udp") {
		return Credential{}, false
	}
	if m := credDSN.FindStringSubmatch(line); m != nil && plausibleSecret(m[2]) && !strings.HasPrefix(m[2], "$") {
		return Credential{Key: "a password in a database DSN", Value: m[2], Wired: true}, true
	}
	return Credential{}, false
}

// findBasic finds an HTTP Basic header whose base64 decodes to user:password with a literal
// password; the value is the base64 text.
func findBasic(line string, _ CredentialOptions) (Credential, bool) {
	m := credBasic.FindStringSubmatch(line)
	if m == nil {
		return Credential{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(m[1], "=")); err != nil {
			return Credential{}, false
		}
	}
	dec := string(raw)
	i := strings.IndexByte(dec, ':')
	if i < 0 || !utf8.ValidString(dec) || strings.ContainsAny(dec, "\x00\n\r") {
		return Credential{}, false
	}
	if pw := dec[i+1:]; !plausibleSecret(pw) || strings.HasPrefix(pw, "$") {
		return Credential{}, false
	}
	return Credential{Key: "an HTTP Basic authorization header", Value: m[1], Wired: true}, true
}

// findTuple finds a (user, password) pair of quoted literals given as auth.
func findTuple(line string, _ CredentialOptions) (Credential, bool) {
	m := credTuple.FindStringSubmatch(line)
	if m == nil || !plausibleSecret(m[3]) || strings.HasPrefix(m[3], "$") {
		return Credential{}, false
	}
	return Credential{Key: m[1] + " (user, password)", Value: m[3], Wired: true}, true
}

// cmdPasswordTools are the programs whose password flags findCommandLine reads, and how.
var cmdPasswordTools = map[string]string{
	"mysql": "attached", "mysqldump": "attached", "mysqladmin": "attached", "mysqlimport": "attached",
	"mysqlshow": "attached", "mysqlcheck": "attached", "mysqlpump": "attached", "mariadb": "attached",
	"mariadb-dump": "attached", "mariadb-admin": "attached",
	"sshpass": "p", "docker": "login", "podman": "login", "nerdctl": "login", "buildah": "login",
	"skopeo": "login", "helm": "login", "oras": "login", "crane": "login",
	"curl": "user", "htpasswd": "batch",
}

// cmdWords splits a line into words: spaces separate them, and so do the commas and brackets
// of a list in code (run(["mysql", "-pX"])).
func cmdWords(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '[' || r == ']' || r == '(' || r == ')' || r == '{' || r == '}'
	})
}

// unquote removes one pair of surrounding quotes.
func unquote(w string) string {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

// literalPassword reports whether a command-line word is a literal password: not a variable,
// a substitution, a flag or a placeholder.
func literalPassword(w string) bool {
	if w == "" || strings.ContainsAny(w[:1], "-$%`") || strings.Contains(w, "$(") || strings.Contains(w, "${") || strings.Contains(w, "`") {
		return false
	}
	return plausibleSecret(w)
}

// findCommandLine finds a password given to a known program on its command line.
func findCommandLine(line string, _ CredentialOptions) (Credential, bool) {
	words := cmdWords(line)
	for i, w := range words {
		how, ok := cmdPasswordTools[path.Base(unquote(w))]
		if !ok {
			continue
		}
		if v := cmdPassword(how, words[i+1:]); v != "" {
			return Credential{Key: "a password on " + path.Base(unquote(w)) + "'s command line", Value: v, Wired: true}, true
		}
	}
	return Credential{}, false
}

// cmdPassword returns the literal password among a program's arguments, read as how says.
func cmdPassword(how string, args []string) string {
	switch how {
	case "attached": // mysql -pPW (-p PW asks, and PW is the database)
		return flagValue(args, []string{"-p"}, nil)
	case "p": // sshpass -p PW, -pPW
		return flagValue(args, []string{"-p"}, []string{"-p"})
	case "login": // docker login -p PW, --password PW
		if len(args) == 0 || unquote(args[0]) != "login" && !(len(args) > 1 && unquote(args[1]) == "login") {
			return ""
		}
		return flagValue(args, []string{"--password="}, []string{"-p", "--password"})
	case "user": // curl -u user:PW, -uuser:PW, --user user:PW
		v := flagValue(args, []string{"-u", "--user="}, []string{"-u", "--user"})
		if i := strings.IndexByte(v, ':'); i >= 0 && literalPassword(v[i+1:]) {
			return v[i+1:]
		}
		return ""
	case "batch": // htpasswd -b[c] file user PW, htpasswd -nb user PW
		return htpasswdPassword(args)
	}
	return ""
}

// flagValue returns the literal value of the first flag in args given attached to one of
// attached (-pPW, --password=PW) or as the next word after one of separate; "" if none. A
// one-dash prefix never matches a two-dash option (-p is not --port).
func flagValue(args []string, attached, separate []string) string {
	for i, a := range args {
		a = unquote(a)
		if a == "--" || a == "|" || a == "&&" || a == ";" {
			return ""
		}
		if slices.Contains(separate, a) {
			if i+1 < len(args) {
				return literalArg(args[i+1])
			}
			return ""
		}
		for _, p := range attached {
			long := strings.HasPrefix(p, "--")
			if strings.HasPrefix(a, p) && len(a) > len(p) && (long || !strings.HasPrefix(a, "--")) {
				if v := literalArg(a[len(p):]); v != "" {
					return v
				}
			}
		}
	}
	return ""
}

// literalArg is a flag's value unquoted, when it is a literal password ("" otherwise).
func literalArg(w string) string {
	if v := unquote(strings.TrimRight(w, ";&|")); literalPassword(v) {
		return v
	}
	return ""
}

// htpasswdPassword returns the password of htpasswd -b (batch mode: the password is the last
// argument: file user PW, or user PW with -n).
func htpasswdPassword(args []string) string {
	batch, noFile := false, false
	var pos []string
	for _, a := range args {
		a = unquote(a)
		if a == "|" || a == "&&" || a == ";" {
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			batch = batch || strings.Contains(a[1:], "b")
			noFile = noFile || strings.Contains(a[1:], "n")
			continue
		}
		pos = append(pos, a)
	}
	want := 3
	if noFile {
		want = 2
	}
	if !batch || len(pos) < want || !literalPassword(pos[want-1]) {
		return ""
	}
	return pos[want-1]
}
