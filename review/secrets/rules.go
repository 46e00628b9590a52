package secrets

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
)

// cwe is every secrets finding's: hard-coded credentials.
var cwe = []string{"CWE-798"}

// severity is a gitleaks rule's: critical for a private key, high for anything else.
func severity(ruleID string) policy.Severity {
	if strings.Contains(ruleID, "private-key") {
		return policy.Critical
	}
	return policy.High
}

// jwtIOSignature signs jwt.io's sample token (HS256 with "your-256-bit-secret"): a token that
// carries it was pasted from the documentation, whatever its payload.
const jwtIOSignature = ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

// publicValue says why a found value is public by design ("" if it is not): a Stripe
// publishable key (pk_test_, pk_live_: meant for the browser; the secret key is sk_), a JWT
// signed with jwt.io's sample signature, or a PostHog project key (phc_: sent by every browser
// that loads the page), or a generic key under a client-side analytics key's name (a Mixpanel
// project token: analyticsKey). Such a finding is lowered to low, not dropped.
func publicValue(ruleID, value, match string) string {
	switch {
	case ruleID == "generic-api-key" && analyticsKey.MatchString(match):
		return "a client-side analytics project key, public by design (write-only events)"
	case ruleID == "generic-api-key" && (strings.HasPrefix(value, "pk_test_") || strings.HasPrefix(value, "pk_live_")):
		return "a Stripe publishable key, public by design"
	case ruleID == "generic-api-key" && strings.HasPrefix(value, "phc_"):
		return "a PostHog project key, public by design (the personal key is phx_)"
	case ruleID == "jwt" && strings.HasSuffix(value, jwtIOSignature):
		return "signed with jwt.io's sample signature"
	}
	return ""
}

// analyticsKey names a client-side analytics ingestion key, which every browser or app that
// sends events holds: Mixpanel's project token, Segment's write key, Amplitude's and
// PostHog's project API keys.
var analyticsKey = lazyre.New(`(?i)\b(?:mixpanel[\w.-]*(?:project[_.-]?)?token|segment[\w.-]*write[_.-]?key|amplitude[\w.-]*api[_.-]?key|posthog[\w.-]*project[_.-]?(?:api[_.-]?)?key)\b`)

// RulePrefix starts the id of every finding of a gitleaks rule ("secrets/github-pat").
const RulePrefix = "secrets/"

// Fix is what to do about a live token in a file.
const Fix = "rotate it now (revoke it where it was issued: it is compromised once pushed), then read it at run time from an environment variable or a secret manager instead of writing it into the file"

// Rules documents the detector's gitleaks rules as the scanner reports them: id
// secrets/<gitleaks id>, severity, CWE and gitleaks' description.
func Rules(d *redact.Detector) []review.Rule {
	var out []review.Rule
	for _, r := range d.Rules() {
		out = append(out, review.Rule{
			ID: RulePrefix + r.ID, Severity: severity(r.ID), CWE: cwe,
			Description: r.Description, Fix: Fix,
		})
	}
	return out
}
