package redact

import "github.com/tollgate-dev/tollgate/redact/lite"

// The parts of redact that need no gitleaks live in redact/lite (the lean agent guard links
// them without gitleaks); these names keep them reachable as redact's own.

// Credential is a secret found on one line: the key that names it and its value.
type Credential = lite.Credential

// CredentialOptions say which forms count on a line.
type CredentialOptions = lite.CredentialOptions

// AllForms is the widest reading, used on text that leaves the machine.
var AllForms = lite.AllForms

// FindCredential is lite.FindCredential: tollgate's credential rule on one line.
func FindCredential(line string, o CredentialOptions) (Credential, bool) {
	return lite.FindCredential(line, o)
}

// MaskValue is how a secret is shown: its safe prefix, then ****.
func MaskValue(secret string) string { return lite.MaskValue(secret) }

// Mask is lite.Mask: the first line of text with every secret masked, trimmed and bounded; a
// secret is never returned in clear.
func Mask(text string, secrets ...string) string { return lite.Mask(text, secrets...) }

// MaskAll masks every secret in text, keeping all of its lines.
func MaskAll(text string, secrets ...string) string { return lite.MaskAll(text, secrets...) }
