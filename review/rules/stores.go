package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/internal/lazyre"
)

// The entries of credential stores recognised by their content, whatever the file is called
// (files.go knows them by name: .netrc, .pgpass, .htpasswd, kubeconfig): a netrc machine with
// a password, a .pgpass line, an htpasswd {SHA} line, a kubeconfig user's token, key or
// password. A file that a name rule already reports as a credential store is that one problem.
// Each entry is reported at its line, its secret masked.

var credentialEntry = review.Rule{ID: "tollgate/credential-entry", Severity: policy.High, CWE: []string{"CWE-798", "CWE-522"},
	Description: "an entry of a credential store (netrc, .pgpass, htpasswd, kubeconfig) is written into the file",
	Catches:     example("ci/auth.txt", "machine git.corp.internal login ci password Zq8mK2vR9xT4wL"),
	Leaves:      example("docs/auth.md", "machine git.corp.internal login ci password <your token>")}

var (
	// machine HOST [login ...] [password ...] or default ...: a netrc entry's first line.
	netrcMachine = lazyre.New(`^\s*(?:machine\s+[\w.\-:\[\]]+|default)(?:\s+(?:login|password|account|port)\s+\S+)*\s*$`)
	netrcPass    = lazyre.New(`(?:^|\s)password\s+(\S+)`)
	netrcLine    = lazyre.New(`^\s*(?:login|password|account|port|macdef)\s`)
	// hostname:port:database:username:password (a colon in the password is escaped; a real one
	// has six characters at least, an address like fe80:0:0:0:0:1 does not)
	pgpassLine = lazyre.New(`^([\w.\-*]+|\[[0-9a-fA-F:]+\]):(\d{1,5}|\*):([\w.\-*]+):([\w.@\-*]+):((?:[^:\s\\]|\\.){6,})$`)
	// user:{SHA}base64(sha1)
	htpasswdSHA = lazyre.New(`^[\w.@\-]+:\{SHA\}([A-Za-z0-9+/]{27}=)\s*$`)
	kubeKind    = lazyre.New(`(?m)^kind:\s*["']?Config["']?\s*$`)
	kubeUsers   = lazyre.New(`(?m)^users:\s*$`)
	kubeSecret  = lazyre.New(`^\s+(?:token|client-key-data|password):\s*["']?([^\s"'$]{8,})["']?\s*$`)
)

// entry is one credential store entry found in a file's lines.
type entry struct {
	line  int    // index into the lines
	what  string // the store's format
	value string // the secret
}

// findEntries returns the credential store entries in lines (a file's added lines).
func findEntries(lines []string) []entry {
	var out []entry
	kube := -1 // unknown until a kubeconfig credential is seen
	for i, l := range lines {
		if len(l) > 1000 {
			continue
		}
		if (strings.Contains(l, "machine") || strings.Contains(l, "default")) && netrcMachine.MatchString(l) {
			if e, ok := netrcEntry(lines, i); ok {
				out = append(out, e)
			}
			continue
		}
		if e, ok, done := lineEntry(l, i); done {
			if ok {
				out = append(out, e)
			}
			continue
		}
		if m := kubeCredential(l); m != "" && isKubeconfig(lines, &kube) {
			out = append(out, entry{i, "kubeconfig user credential", m})
		}
	}
	return out
}

// netrcEntry reads the netrc entry whose "machine" (or "default") line is at i: its password
// is on that line or on one of the entry's next lines.
func netrcEntry(lines []string, i int) (entry, bool) {
	for j := i; j < len(lines) && j < i+6; j++ {
		if j > i && !netrcLine.MatchString(lines[j]) {
			break
		}
		if m := netrcPass.FindStringSubmatch(lines[j]); m != nil && plausibleValue(m[1]) {
			return entry{j, "netrc entry with a password", m[1]}, true
		}
	}
	return entry{}, false
}

// lineEntry reads a one-line entry, a .pgpass line or an htpasswd {SHA} line; done says the
// line has the shape of one (found or not, nothing else is looked for on it).
func lineEntry(l string, i int) (e entry, ok, done bool) {
	if strings.Count(l, ":") >= 4 && !strings.Contains(l, " ") {
		if m := pgpassLine.FindStringSubmatch(l); m != nil && plausibleValue(m[5]) {
			return entry{i, ".pgpass line", m[5]}, true, true
		}
		return entry{}, false, true
	}
	if strings.Contains(l, ":{SHA}") {
		if m := htpasswdSHA.FindStringSubmatch(l); m != nil {
			return entry{i, "htpasswd line", m[1]}, true, true
		}
		return entry{}, false, true
	}
	return entry{}, false, false
}

// kubeCredential returns the value of a kubeconfig user's token, key data or password on l
// ("" if none).
func kubeCredential(l string) string {
	if !strings.Contains(l, "token:") && !strings.Contains(l, "key-data:") && !strings.Contains(l, "password:") {
		return ""
	}
	if m := kubeSecret.FindStringSubmatch(l); m != nil && plausibleValue(m[1]) {
		return m[1]
	}
	return ""
}

// isKubeconfig reports whether lines are a kubeconfig (kind: Config with users), deciding
// once per file (*known: -1 not yet, 0 no, 1 yes).
func isKubeconfig(lines []string, known *int) bool {
	if *known < 0 {
		text := strings.Join(lines, "\n")
		*known = 0
		if kubeKind.MatchString(text) && kubeUsers.MatchString(text) {
			*known = 1
		}
	}
	return *known == 1
}

// plausibleValue reports a value that could be a secret: no placeholder, variable or
// template (the credential rule's own judgement of a password's value), and random-looking:
// eight characters at least with a digit or a capital, or twenty at least. The examples of
// manuals and tests (opensesame, letmeknow, pwd2, an anonymous FTP login's e-mail address) are
// none.
func plausibleValue(v string) bool {
	if len(v) < 8 || emailLike.MatchString(v) || (len(v) < 20 && !strings.ContainsAny(v, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
		return false
	}
	_, ok := redact.FindCredential(`password = "`+strings.ReplaceAll(v, `"`, ``)+`"`, redact.CredentialOptions{Assign: true})
	return ok
}

var emailLike = lazyre.New(`^[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*$`)

// scanEntries reports the credential store entries among a file's added lines, unless a name
// rule already reported the file as a credential store.
func scanEntries(u *diff.Unit, p string, added []diff.Line, r *review.Result) {
	if reported(r, p, credentialFile.ID) {
		return
	}
	lines := make([]string, len(added))
	for i, l := range added {
		lines[i] = l.Text
	}
	for _, e := range findEntries(lines) {
		l := added[e.line]
		sev, msg := testSeverity(p, credentialEntry.Severity, credentialEntry.Description+": "+e.what)
		r.Add(review.Finding{
			RuleID: credentialEntry.ID, Severity: sev, Confidence: 0.9, CWE: credentialEntry.CWE,
			Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
		}.LineEvidence(l.Text, max(strings.Index(l.Text, e.value), 0), e.value))
	}
}
