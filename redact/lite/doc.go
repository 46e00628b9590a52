// Package lite is the part of redact that needs no gitleaks: the Secret type, masking of
// known secret values, and tollgate's credential rule (passwords written as key = value). The
// agent guard's lean binary links it without linking gitleaks; redact re-exports every name.
//
// Rules and guarantees:
//   - Mask never returns a string that still contains one of the secrets it was given: after
//     replacing every occurrence it re-checks, and masks the whole line if any 6-byte run of a
//     secret's hidden parts survived. What is hidden is ShapeOf's: a secret's safe prefix
//     stays (ghp_****); a URL keeps its scheme, host and path words, every password, query
//     value, fragment and other path segment hidden (https://hooks.slack.com/services/****/****/****).
//   - A reference is never a credential: placeholders (a key's own name as its value too:
//     token, api-key), environment lookups, Terraform and template references, shell
//     expansions, encrypted values (jasypt ENC(...), SOPS ENC[...]), version pins and flags
//     naming secret objects are not secrets (FindCredential).
//   - lite imports only the standard library and internal/lazyre.
package lite
