package rules

import "github.com/tollgate-dev/tollgate/review"

// fixes says, per rule, what to do about a finding (review.Rule.Fix; PATH is the finding's
// path). All sets them; a test holds that every rule has one.
var fixes = map[string]string{
	privateKeyFile.ID:  "stop tracking the key: `git rm --cached PATH`, add it to .gitignore, and replace the key (revoke it wherever it is trusted) if it ever left your machine",
	credentialFile.ID:  "stop tracking the file: `git rm --cached PATH`, add it to .gitignore (commit a template without values instead), and rotate every credential in it that ever left your machine",
	databaseDump.ID:    "stop tracking the dump: `git rm --cached PATH` and add it to .gitignore; commit the schema or a migration instead, and treat the data as exposed if it ever left your machine",
	credentialRule.ID:  "rotate the credential, then read it at run time from an environment variable or a secret manager instead of writing it into the file",
	credentialEntry.ID: "rotate the credential, remove the entry, and keep the store it belongs to out of the repository (`git rm --cached PATH` and .gitignore if the file is one)",

	"tollgate/telegram-bot-token": "revoke the token (@BotFather: /revoke) and read the new one at run time from an environment variable or a secret manager",
	"tollgate/discord-bot-token":  "reset the token (Developer Portal: Bot, Reset Token) and read the new one at run time from an environment variable or a secret manager",
	"tollgate/discord-webhook":    "delete the webhook (channel settings, Integrations) and keep the new URL in an environment variable or a secret manager: the URL is the credential",
	"tollgate/provider-token":     "revoke the token in its provider's console (the message names the provider), create a new one and read it at run time from an environment variable or a secret manager",
	"tollgate/mailgun-api-key":    "delete the key in Mailgun's API Security settings, create a new one and read it at run time from an environment variable or a secret manager",
	"tollgate/password-hash":      "remove the hash, change the password it was made from (a committed hash can be cracked offline), and create accounts from a secret at deploy time instead",

	"tollgate/tls-verify-disabled":    "keep certificate verification on; to trust a private CA, add its certificate to the trust store (or the client's CA bundle) instead",
	"tollgate/shell-injection":        "run the program without a shell, passing arguments as a list (or quote each one for the shell)",
	"tollgate/unsafe-deserialization": "load data you did not produce with a safe format or loader (JSON, yaml.safe_load), never one that can construct arbitrary objects",
	"tollgate/eval-request-data":      "never evaluate request data: parse it into the values you expect and reject anything else",
	"tollgate/sql-concatenation":      "use a parameterised query: placeholders (?, $1, :name) in the SQL text and the values passed separately to the driver",
	"tollgate/world-writable":         "use the narrowest mode that works (0644 for files, 0755 for directories, 0600 for secrets)",
	"tollgate/curl-pipe-shell":        "download to a file, check it against a pinned checksum or signature, then run it",
}

// withFix returns r with its fix.
func withFix(r review.Rule) review.Rule {
	r.Fix = fixes[r.ID]
	return r
}
