// Package bundle assembles the material a model reviews for one unit of a change: the changed
// lines with new-file line numbers and a few lines around each hunk, the context files found by
// deterministic expansion (tests, schema files named on added lines, imported Go packages of
// the same module, Python modules, relative JS/TS imports), and deletion-only hunks last. The
// material is rendered as text and parsed back (Parse), so anchoring looks at exactly what was
// sent.
//
// Rules and guarantees:
//   - Every file is read through the unit's BlobReader at the unit's version, never from the
//     file system; a path is looked up only when it is a clean repository path (no "..", not
//     absolute), so nothing outside the repository is ever named. Symlinks are followed only
//     with repository.follow_symlinks, and only to targets inside the repository.
//   - The limits of the context section (max_files, max_total_bytes, max_expansion_rounds) are
//     never exceeded; each one reached is returned as a limit line for the report.
//   - Expansion is deterministic: rounds, and the files of a round, in a fixed order.
//   - This package redacts nothing and sends nothing: the model step filters the material
//     before anything leaves.
package bundle
