package rules

import (
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
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
	line  int    // the line's index among the lines read
	what  string // the store's format
	value string // the secret
}

// entryScan finds credential store entries reading a file's lines one at a time (a change's
// lines are never all held at once): a netrc entry's password may be on one of the five lines
// after its "machine" line, and a kubeconfig credential counts only once the file shows
// "kind: Config" and "users:".
type entryScan struct {
	n           int     // lines read
	out         []entry // found
	kube        []entry // kubeconfig credentials, kept if the file is a kubeconfig
	kind, users bool
	pending     int // lines of the current netrc entry still to look at for its password
}

// findEntries returns the credential store entries in lines.
func findEntries(lines []string) []entry {
	var s entryScan
	for _, l := range lines {
		s.add(l)
	}
	return s.done()
}

// add reads the next line.
func (s *entryScan) add(l string) {
	i := s.n
	s.n++
	if len(l) > 1000 {
		s.pending = 0
		return
	}
	if s.netrcNext(l, i) {
		return
	}
	// Both patterns start at the line's start: most lines are ruled out without a regex.
	s.kind = s.kind || (strings.HasPrefix(l, "kind:") && kubeKind.MatchString(l))
	s.users = s.users || (strings.HasPrefix(l, "users:") && kubeUsers.MatchString(l))
	if (strings.Contains(l, "machine") || strings.Contains(l, "default")) && netrcMachine.MatchString(l) {
		if m := netrcPass.FindStringSubmatch(l); m != nil && plausibleValue(m[1]) {
			s.out = append(s.out, entry{i, "netrc entry with a password", m[1]})
		} else {
			s.pending = 5
		}
		return
	}
	if e, ok, done := lineEntry(l, i); done {
		if ok {
			s.out = append(s.out, e)
		}
		return
	}
	if v := kubeCredential(l); v != "" {
		s.kube = append(s.kube, entry{i, "kubeconfig user credential", v})
	}
}

// netrcNext reads line i as a following line of the current netrc entry, if there is one, and
// reports whether it held the entry's password.
func (s *entryScan) netrcNext(l string, i int) bool {
	if s.pending == 0 {
		return false
	}
	s.pending--
	if !netrcLine.MatchString(l) {
		s.pending = 0
		return false
	}
	if m := netrcPass.FindStringSubmatch(l); m != nil && plausibleValue(m[1]) {
		s.out = append(s.out, entry{i, "netrc entry with a password", m[1]})
		s.pending = 0
		return true
	}
	return false
}

// done returns the entries found, in line order.
func (s *entryScan) done() []entry {
	if !s.kind || !s.users || len(s.kube) == 0 {
		return s.out
	}
	out := append(append([]entry(nil), s.out...), s.kube...)
	slices.SortStableFunc(out, func(a, b entry) int { return a.line - b.line })
	return out
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

// entryLines reads a file's added lines into an entryScan and keeps the few lines that hold a
// candidate, so that each entry is reported at its line.
type entryLines struct {
	scan entryScan
	at   map[int]diff.Line
}

func (e *entryLines) add(l diff.Line) {
	before := len(e.scan.out) + len(e.scan.kube)
	e.scan.add(l.Text)
	if len(e.scan.out)+len(e.scan.kube) > before {
		if e.at == nil {
			e.at = map[int]diff.Line{}
		}
		e.at[e.scan.n-1] = l
	}
}

// report adds a finding per credential store entry, unless a name rule already reported the
// file as a credential store.
func (e *entryLines) report(u *diff.Unit, p string, r *review.Result) {
	if reported(r, p, credentialFile.ID) {
		return
	}
	for _, en := range e.scan.done() {
		l := e.at[en.line]
		sev, msg := placeSeverity(p, credentialEntry.Severity, credentialEntry.Description+": "+en.what)
		r.Add(review.Finding{
			RuleID: credentialEntry.ID, Severity: sev, Confidence: 0.9, CWE: credentialEntry.CWE,
			Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
		}.LineEvidence(l.Text, max(strings.Index(l.Text, en.value), 0), en.value))
	}
}
