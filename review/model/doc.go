// Package model is the optional model step of a review (a review.Step): for each unit it
// builds the material (review/model/bundle), screens it with the outgoing filter, asks the
// configured provider (review/model/provider) with the prompts of this package, anchors the
// answer's findings in what was sent, optionally has a second pass verify them, and keeps a
// verdict cache and an audit log.
//
// Rules and guarantees:
//   - Nothing leaves unless the outgoing filter passed it (outgoing.go): every file of the
//     material is scanned as itself; a file that is a secret as a whole is never sent; every
//     secret found is redacted, in the material, in the list of deterministic findings and in
//     the workspace policy text. With redaction.block_on_secret a secret on an added,
//     unsuppressed line of the change stops the send (the unit is then not run), and a context
//     file holding a secret is left out (a limit says so).
//   - A failure (no answer, a refusal, an answer without a findings object, a timeout) is a
//     not_run entry under "model:<provider>", never "no findings". A model finding is kept only
//     if its evidence is found in the material sent; its line is corrected to where it is.
//     Everything the model wrote is masked again before a report or the cache holds it.
//   - The verdict cache key covers everything that decides the answer (the policy sent, the
//     provider and how it is reached or run, the model, verification, the material); a review
//     that failed, or whose verification failed, is not cached. The audit log holds one line
//     per exchange, never the material. A cache or audit write that fails is a note in the
//     report, never silent.
//   - The step writes only under its cache and audit paths (the caller keeps them outside the
//     repository) and reads the repository only through the unit's BlobReader.
package model
