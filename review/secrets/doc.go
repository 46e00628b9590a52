// Package secrets is the gitleaks-backed scanner: Scanner runs gitleaks' rules, through the
// redact.Detector the caller builds, over the added lines of a change and over what files git
// calls binary hold.
//
// Rules and guarantees:
//   - Secrets are looked for in added lines only, block by block of consecutive new-file lines;
//     each finding carries the new-file line. A new, renamed or copied file's path is checked
//     too (gitleaks' path rules), reported at line 1.
//   - A file git calls binary is read by content through the unit's BlobReader (binary.go):
//     UTF-16/UTF-32 text and text with stray NUL bytes are decoded and scanned by line;
//     archives are opened to a bounded depth and size (members reported as "archive!member");
//     other binaries are scanned for printable runs, reported at line 0. A secret already in
//     the old version of a modified binary is not reported again. Without a BlobReader the
//     binary is checked by name only and listed as such.
//   - git metadata (a unit's Meta: commit messages, identities, tag messages, ref names) is
//     scanned like added text and reported at its name with the metadata's kind; the paths of
//     a unit's new, renamed and copied files are scanned in one text, a secret in one reported
//     at that file with no line, metadata "path".
//   - Nothing is silently skipped: a file whose added text or binary content exceeds the size
//     limits, a blob that cannot be read and a detector error are reported as not run, so the
//     review is incomplete, never clean.
//   - Every finding is secrets/<gitleaks rule id>, CWE-798, critical for a private key and high
//     otherwise (low for a key or key store under a test path, and for a Stripe publishable
//     key or a JWT with jwt.io's sample signature: public by design); Rules documents the
//     detector's rules so, with the one fix for a live token.
//   - gitleaks' own "gitleaks:allow" marker and .gitleaksignore entries suppress a finding and
//     are counted; every finding's evidence is cut from its whole line with the secret masked.
//   - secrets reads nothing but the change and its blobs, runs nothing and never touches the
//     network; it imports review, never the other way round.
package secrets
