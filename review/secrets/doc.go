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
//     archives and compressed data (zip, tar, gzip, bzip2, xz, lzma, zstd, zlib), recognised
//     by magic bytes, never by name, are opened to a bounded depth and size (members reported
//     as "archive!member"); other binaries are scanned for printable runs, reported at line 0.
//     A secret already in the old version of a modified binary is not reported again. Without
//     a BlobReader the binary is checked by name only and listed as such. A text file whose
//     first line starts with compressed data's magic bytes is opened too (compress.go).
//   - A base64 run in an added line that holds gzip or zlib data (embedded.go) is inflated and
//     what it holds is scanned, reported at the blob's line and column.
//   - git metadata (a unit's Meta: commit messages, identities, tag messages, ref names) is
//     scanned like added text and reported at its name with the metadata's kind; the paths of
//     a unit's new, renamed and copied files are scanned in one text, a secret in one reported
//     at that file with no line, metadata "path".
//   - Nothing is silently skipped: a file whose added text or binary content exceeds the size
//     limits, an archive or compressed stream past a limit, corrupt or cut short (but a zlib
//     blob in a line, see embedded.go), a blob that cannot be read and a detector error are
//     reported as not run, so the review is incomplete, never clean.
//   - Every finding is secrets/<gitleaks rule id>, CWE-798, critical for a private key and high
//     otherwise; Rules documents the detector's rules so, with the one fix for a live token.
//     It is lowered to low, its message saying why (calm.go), when the value is public by
//     design (a Stripe publishable key, a PostHog project key, a generic key named as a
//     client-side analytics key such as a Mixpanel project token, a JWT with jwt.io's sample
//     signature), when
//     generic-api-key's value is no secret (redact.GenericNotSecret: a sample, an RFC's
//     example, base64 of a phrase, words under a key that names no secret) or a Kubernetes
//     Secret's data decodes to a sample, and in test code or documentation unless the rule
//     has a provider's shape and the value does not look like a sample (a private key or key
//     store is lowered in test code, kept in docs). A finding is never dropped for these.
//   - gitleaks' own "gitleaks:allow" marker and .gitleaksignore entries suppress a finding and
//     are counted; every finding's evidence is cut from its whole line with the secret masked.
//   - secrets reads nothing but the change and its blobs, runs nothing and never touches the
//     network; it imports review, never the other way round.
package secrets
