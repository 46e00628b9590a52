package report

import (
	"regexp"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/shellword"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// historyFix is the fix for a secret that a later commit of the same change removes: the
// commit that adds it is still pushed.
const historyFix = "a later commit of this change removes it, but the commit that adds it is still in the history being pushed: " +
	"rewrite the history before pushing (`git rebase -i`, edit or drop that commit) and rotate the key"

// privateKeyFileRule is the built-in rule whose fix applies to a key file that a gitleaks
// rule found.
const privateKeyFileRule = "tollgate/private-key-file"

// keyFileName matches the names of files that hold a key as a whole.
var keyFileName = regexp.MustCompile(`(?i)(?:^id_(?:rsa|dsa|ecdsa|ed25519)(?:_[\w.-]+)?|\.(?:pem|key|p8|pk8|ppk|p12|pfx|jks|keystore))$`)

// secretCWE are the weaknesses that make a finding a leaked secret (a credential or key).
var secretCWE = map[string]bool{"CWE-798": true, "CWE-259": true, "CWE-321": true, "CWE-522": true}

// isSecret reports a finding of a secret: a gitleaks rule, or a rule about credentials or keys.
func isSecret(f review.Finding) bool {
	if strings.HasPrefix(f.RuleID, "secrets/") {
		return true
	}
	for _, c := range f.CWE {
		if secretCWE[c] {
			return true
		}
	}
	return false
}

// envFileFix is the fix for a secret in a credential store (.env): reading it from the
// environment is what the file is for, so the file must leave the repository.
const envFileFix = "rotate it now (revoke it where it was issued: it is compromised once pushed), and keep the file out of the repository: " +
	"`git rm --cached PATH`, add it to .gitignore, and commit a template without values instead"

// fixFor says what to do about f, chosen by what was found, never by the file name alone: the
// history rewrite for a secret a later commit removes; a key file's fix for a private key that
// is a file of its own (isKeyFile), whatever its name; a credential store's for a secret in
// one (.env); else its rule's fix. PATH is replaced by the finding's path quoted for a shell.
// "" when the rule has none.
func fixFor(f review.Finding, fixes map[string]string) string {
	if f.LaterRemoved && isSecret(f) {
		return historyFix
	}
	fix := fixes[f.RuleID]
	switch {
	case isKeyFile(f) && fixes[privateKeyFileRule] != "":
		fix = fixes[privateKeyFileRule]
	case isSecret(f) && lang.KindOf(f.Path) == lang.Env && !wholeFileRules[f.RuleID]:
		fix = envFileFix
	}
	return strings.ReplaceAll(fix, "PATH", shellQuote(f.Path))
}

// shellQuote quotes p for a POSIX shell when it needs it.
var shellQuote = shellword.Quote
