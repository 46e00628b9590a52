// Package lang is the one file classifier every scanner shares: from a repository path alone
// it decides a file's kind (which built-in rules apply), its comment syntax, and how the
// injection scanner reads its lines (prose, comments, hidden carriers); and whether a path is
// test code (IsTestPath: tests, fixtures, testdata, test helpers) or documentation and examples
// (IsDocPath), which every scanner's severity rule reads the same way.
//
// Guarantees:
//   - Classification reads the path only (never file content) and is deterministic; the path
//     is matched case-insensitively, with "\" read as "/".
//   - Each kind's comment syntax is decided once, by Kind.Syntax; Classify gives a file of a
//     known kind exactly that syntax. Files of no known kind get the syntax of their language
//     family when the extension names one, else a guess (Syntax.Guess), which CodePart never
//     uses to drop text (a guess must not hide a credential from the rules).
//   - Offsets returned by Spans, AppendLower and LowerASCII are byte offsets into the line as
//     given.
//   - lang imports only the standard library (and its own internal regexp helper).
package lang
