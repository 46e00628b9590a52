// Package rules is tollgate's own rules, the "builtin" scanner, one family a file: sensitive
// files committed (files.go: private keys, credential stores, database dumps), credentials
// written into config and code (creds.go), secrets known by their shape with no keyword next
// to them (tokens.go: bot tokens, webhooks, password hashes; the shapes are redact.FindTokens,
// so the outgoing filter knows them too), credential store entries by content under any file
// name (stores.go), and the insecure-code floor (code.go; SQL in code_sql.go, eval of request
// data in code_eval.go, loaders under other names in code_deser.go, all three reading across
// lines through flow.go and flow_expr.go; when SQL is low in sql_calm.go).
//
// Rules and guarantees:
//   - Rules see added lines only and report new-file line numbers; a deleted file is never a
//     finding. Code rules read a line's code with its comments stripped (lang.CodePart) unless
//     a rule says otherwise, and never run on prose.
//   - A cross-line rule (flow.go) reads a hunk's added lines in order, within one scope (from
//     the last function head; at most a few hundred lines, and a bounded look-back per line):
//     SQL assigned to a variable and run on a later line is one finding, where it runs; a
//     value assigned on an added line above (a literal, a number, an escaped value), a
//     parameter declared numeric or a name spelled as a constant (TABLE) can make a line
//     safe. Nothing else outside the added lines is assumed: a variable it cannot see is
//     unknown, never safe, and a hunk knows nothing of another.
//   - A file rule reports once per file, at its first added line (line 1 for a binary or empty
//     file); a binary file is judged by its name only.
//   - A finding at medium or above means "probably real" (evidence.go holds the one rule): a
//     finding in test code (lang.IsTestPath), documentation or an example (lang.IsDocPath,
//     Python docstrings and EXAMPLES blocks) is lowered to low, and its message says so, unless
//     it is a provider's token that does not look like a sample (redact.LooksLikeSample); a
//     file rule is lowered in test code only. Lowered too: a credential of a local service in
//     docker-compose or CI configuration (by path, or a YAML file whose lines configure a CI
//     job, runs-on:, or compose services:) whose value is a well-known default or repeats a
//     user, database or service name of the file, or is a chosen word or words naming a test
//     under a local service's key (throwaway), a well-known default on localhost; a credential
//     value of lower-case words joined by slashes (a rule id, a path) or an unquoted variable
//     name ending in a credential word (password: dockerPassword,);
//     shell and deserialisation sinks with no evidence of outside data reaching them; TLS
//     verification off under the caller's explicit opt-out; PyYAML's FullLoader; SQL joining
//     only table or column names, SQL fragments, quoted identifiers or numbers (sql_calm.go);
//     the umask read-and-restore idiom and a mode with the umask taken off; a password hash on
//     a commented-out line of a Helm values file; a credential value that is a terminal colour
//     sequence, a public client-side key (phc_, pk_) or the start of a call. Every lowered
//     finding says why.
//   - A reference is never a credential (redact.FindCredential): Terraform var./data./local./
//     module., template expressions, shell expansions, labels and form fields, package pins,
//     sudoers NOPASSWD, flags naming a secret object; nor (creds.go) an environment variable's
//     name, a cast or validation rule, a word of a shell expansion (${PW:+has-password}).
//   - Every rule is documented (All): an id under tollgate/, a description, CWEs, a fix
//     (fix.go; PATH stands for the finding's path), and an example it catches and one it
//     leaves alone. The examples are tests, and the README lists
//     every rule (both checked by this package's tests).
//   - SecretFile is the one definition of a file that is a secret as a whole: the model step's
//     outgoing filter uses it, so what the review calls a key or credential store is never sent.
//   - SecretScanner runs only the rules of secrets needing no keyword (files.go, tokens.go,
//     stores.go), for the agent guard's check of content about to be written; its findings are
//     exactly Scanner's findings of those rules.
//   - rules reads nothing but the change, runs nothing and never touches the network; it
//     imports review, never the other way round.
package rules
