package rules

import (
	"strings"

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

// scanCredentials reports a secret written on an added line.
func scanCredentials(u *diff.Unit, p string, k lang.Kind, l diff.Line, r *review.Result) {
	text := l.Text
	if k.IsCode() || k.IsConfig() {
		text = lang.CodePart(k, text)
	}
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
	value, what := c.Value, c.Key
	conf := 0.9
	if k.IsCode() {
		conf = 0.8
	}
	sev, msg := testSeverity(p, credentialRule.Severity, credentialRule.Description+" ("+what+")")
	r.Add(review.Finding{
		RuleID: credentialRule.ID, Severity: sev, Confidence: conf, CWE: credentialRule.CWE,
		Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
	}.LineEvidence(l.Text, max(strings.Index(l.Text, value), 0), value))
}
