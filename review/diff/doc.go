// Package diff is the change under review in tollgate's own types: a Change holds Units (the
// staged set, or one commit against its first parent), each a list of FileDiffs with their
// hunks and lines, the parser that reads git's unified diff into them, and the parser of git's
// combined diff of a merge (ParseCombined), which gives the diff against each parent.
//
// Rules and guarantees:
//   - It imports nothing of tollgate's: the git layer (hook) and every scanner depend on it,
//     never the other way round.
//   - ParseDiff accepts every diff git writes with the flags tollgate passes (the fuzzer
//     compares it with git's own output): a removed line starting "-- " next to an added line
//     starting "++ " is a line, not a header; hunk line counts decide where a hunk ends.
//   - ParseCombined reads git's combined diff with context (-U1 and up; at -U0 git leaves out
//     lines and miscounts); CombinedFile.Against gives of `-c` output exactly git's own -U0
//     diff against that parent (the fuzzer compares them).
//   - A Unit's Meta holds git metadata as added texts (NewMeta): never a file of the change, it
//     counts in no file count and only the scanners that read secrets and prose look at it.
//   - Line numbers are git's: Old is 0 for added lines, New is 0 for deleted lines.
//   - Binary is decided once, by content (IsBinary): git's NUL test, a binary format's magic
//     number at the start (%PDF-, %!PS-Adobe, PNG, JPEG, ZIP, ...) or a tenth of control
//     characters. A file git diffed as text that fails it comes out binary, without hunks.
//   - A hunk stores its lines compactly (a parsed hunk its body as a substring of the diff, a
//     new file's hunk its text) and Hunk.Lines / FileDiff.Added number them while walking: a
//     change costs about its own size in memory, never a value per line.
//   - Reading file contents is the BlobReader's business, read-only; this package never runs
//     git itself.
package diff
