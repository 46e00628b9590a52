package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact/lite"
)

// auditRecord is one line of guard.jsonl.
type auditRecord struct {
	Time     string         `json:"time"`
	Agent    string         `json:"agent"`
	Session  string         `json:"session,omitempty"`
	Tool     string         `json:"tool,omitempty"`
	Call     map[string]any `json:"call,omitempty"`
	Decision string         `json:"decision"`
	Source   string         `json:"source,omitempty"`
	Reason   string         `json:"reason,omitempty"`
}

// maxAuditCommand bounds how much of a command line the audit line keeps.
const maxAuditCommand = 4096

// auditMasker masks every text field of an audit line: tollgate's credential rules (key =
// value, URLs, DSNs, command-line passwords), secret-shaped words, and, when the full binary
// supplies it, every secret the report's detector finds (secrets).
type auditMasker struct {
	secrets func(text string) ([]string, error) // nil in the lean binary
}

// withheldField replaces a field the detector could not check.
const withheldField = "[withheld: the secret detector could not check it]"

// mask returns text with every secret masked; it never returns a value it found in clear.
func (am auditMasker) mask(text string) string {
	if text == "" {
		return text
	}
	values := lite.CredentialValues(text)
	if am.secrets != nil && maySecret(text) {
		found, err := am.secrets(text)
		if err != nil {
			return withheldField
		}
		values = append(values, found...)
	}
	out := replaceValues(text, values)
	out = maskShapes(out)
	for _, v := range values {
		if lite.Leaks(out, v) {
			return "[withheld: it holds a secret]"
		}
	}
	return out
}

// replaceValues replaces each value (longest first, so a secret holding another goes whole)
// with its masked form; each line of a multi-line value goes too.
func replaceValues(text string, values []string) string {
	sort.SliceStable(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	for _, v := range values {
		if v == "" {
			continue
		}
		text = strings.ReplaceAll(text, v, lite.MaskValue(v))
		for _, part := range strings.Split(v, "\n") {
			if part = strings.TrimSpace(part); len(part) >= 6 && part != v && !strings.HasPrefix(v, part) {
				text = strings.ReplaceAll(text, part, "****")
			}
		}
	}
	return text
}

// maySecret is the cheap test before the full detector (which costs a call tens of
// milliseconds to build): a secret word or program, or a long word with letters and digits.
func maySecret(text string) bool {
	if lite.MayHoldCredential(text) {
		return true
	}
	for _, w := range secretShaped.FindAllString(text, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ToLower(w) != strings.ToUpper(w) {
			return true
		}
	}
	return false
}

// auditCall is the call with secrets masked; written content is summarised, never copied.
func auditCall(c agent.Call, am auditMasker) map[string]any {
	m := map[string]any{"kind": c.Kind}
	if c.Cwd != "" {
		m["cwd"] = am.mask(c.Cwd)
	}
	if c.Path != "" {
		m["path"] = am.mask(c.Path)
	}
	if c.Content != "" {
		m["content_bytes"] = len(c.Content)
	}
	if c.Command != "" {
		cmd := c.Command
		if len(cmd) > maxAuditCommand {
			cmd = lite.FirstRunes(cmd, maxAuditCommand) + "…"
		}
		m["command"] = am.mask(cmd)
	}
	return m
}

// maskRecord masks the record's own text fields (session, tool, reason: a reason may quote the
// command).
func maskRecord(rec *auditRecord, am auditMasker) {
	rec.Session, rec.Tool, rec.Reason = am.mask(rec.Session), am.mask(rec.Tool), am.mask(rec.Reason)
}

var (
	// secretShaped is a long token mixing cases and digits, or with a known token prefix.
	secretShaped = lazyre.New(`[A-Za-z0-9+/=_.\-]{20,}`)
	tokenPrefix  = lazyre.New(`^(?:ghp_|gho_|ghs_|ghu_|ghr_|github_pat_|glpat-|sk-|sk_live_|rk_live_|xox[abpr]-|AKIA|ASIA|AIza|eyJ|npm_|pypi-|hf_|SG\.)`)
	// a value after a secret-named key; a flag (-p, -b) is no value: the value after it is
	// CredentialValues' to find.
	secretAssign = lazyre.New(`(?i)((?:pass(?:word|wd)?|secret|token|api[_-]?key|auth|credential|private[_-]?key|bearer)[\w-]*["']?\s*(?:=|:|\s)\s*["']?)([^\s"'&;|\-*][^\s"'&;|]*)`)
	urlUserinfo  = lazyre.New(`(://[^/\s:@]*:)[^@\s/]+@`)
)

// maskShapes masks anything secret-shaped in a command line without the gitleaks detector:
// long mixed tokens, known token prefixes, values after secret-named keys, URL passwords. It
// masks more than it must, never less than these shapes.
func maskShapes(cmd string) string {
	cmd = urlUserinfo.ReplaceAllString(cmd, "${1}****@")
	cmd = secretAssign.ReplaceAllString(cmd, "${1}****")
	return secretShaped.ReplaceAllStringFunc(cmd, func(w string) string {
		hasDigit := strings.ContainsAny(w, "0123456789")
		hasUpper := strings.ToLower(w) != w
		hasLower := strings.ToUpper(w) != w
		if tokenPrefix.MatchString(w) || (hasDigit && hasUpper && hasLower && !strings.Contains(w, "/")) {
			return lite.MaskValue(w)
		}
		if !strings.Contains(w, "/") {
			return w
		}
		// a path or URL: a segment with a token prefix (https://ghp_...@host) is masked
		parts := strings.Split(w, "/")
		for i, p := range parts {
			if len(p) >= 16 && tokenPrefix.MatchString(p) {
				parts[i] = lite.MaskValue(p)
			}
		}
		return strings.Join(parts, "/")
	})
}

// maskCommand masks a command line with the lean binary's rules (no detector).
func maskCommand(cmd string) string { return auditMasker{}.mask(cmd) }

// writeAudit appends one line to $XDG_STATE_HOME/tollgate/guard.jsonl; a state directory inside
// the project is refused (nothing of tollgate's is written into a repository).
func writeAudit(rec auditRecord, project string, stderr io.Writer) {
	dir := policy.StateDir()
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, "tollgate")
	if project != "" {
		if fspath.Within(project, RealDir(dir)) {
			fmt.Fprintf(stderr, "tollgate: warning: not writing the guard audit log: %s is inside the project\n", dir)
			return
		}
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(rec) != nil {
		return
	}
	line := strings.TrimSuffix(buf.String(), "\n")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "guard.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.WriteString(line + "\n")
	f.Close()
}
