// Package report writes a review.Report in one of three formats, each one file behind the
// Writer interface: text for a person (text.go), JSON, the contract in DESIGN.md (json.go), and
// SARIF 2.1.0 as GitHub code scanning reads it (sarif.go).
//
// Rules and guarantees:
//   - The writers only render: they never change the report, run nothing and read nothing but
//     the report and their options. The same report gives the same bytes (but the elapsed time
//     in the text summary).
//   - Nothing from the repository drives the terminal: the text format escapes control
//     characters, 8-bit C1 bytes and invalid UTF-8 (\xNN) and invisible or bidi characters
//     (<U+XXXX>) in every field a scanner or a file name controls; JSON and SARIF escape C1
//     controls and invisible characters as \uXXXX, so the decoded values are unchanged.
//   - JSON arrays are never null; an incomplete review is an unsuccessful SARIF invocation.
//   - report imports review (the data) and nothing above it.
package report
