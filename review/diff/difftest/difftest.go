// Package difftest builds diffs for tests: lines, hunks and files as git would report them. It
// is the one set of fixtures builders every package's tests use; production code never
// imports it.
package difftest

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// Add is an added line at new-file line n.
func Add(n int, text string) diff.Line { return diff.Line{Kind: diff.Add, New: n, Text: text} }

// Del is a deleted line at old-file line n.
func Del(n int, text string) diff.Line { return diff.Line{Kind: diff.Del, Old: n, Text: text} }

// Ctx is a context line at old-file line o and new-file line n.
func Ctx(o, n int, text string) diff.Line {
	return diff.Line{Kind: diff.Context, Old: o, New: n, Text: text}
}

// Hunk is a hunk with the given header ranges and lines.
func Hunk(os, ol, ns, nl int, ls ...diff.Line) diff.Hunk {
	return diff.NewHunk(os, ol, ns, nl, ls...)
}

// AddedFile is a new file whose lines are all added, from line 1.
func AddedFile(path string, lines ...string) diff.FileDiff {
	h := diff.NewHunk(0, 0, 1, len(lines))
	for i, l := range lines {
		h.Append(Add(i+1, l))
	}
	return diff.FileDiff{NewPath: path, Status: diff.Added, Hunks: []diff.Hunk{h}}
}

// AddedUnit is a unit with one new file holding text (split on newlines), all added.
func AddedUnit(path, text string) *diff.Unit {
	return &diff.Unit{Files: []diff.FileDiff{AddedFile(path, strings.Split(text, "\n")...)}}
}

// HunkFile is a modified file with one hunk whose new side starts at line start. Each line is
// prefixed like a unified diff: "+" added, "-" deleted, " " (or nothing) context.
func HunkFile(path string, start int, lines ...string) diff.FileDiff {
	h := diff.NewHunk(start, 0, start, 0)
	oldN, newN := start, start
	for _, l := range lines {
		kind, text := diff.Context, l
		if l != "" {
			kind, text = diff.LineKind(l[0]), l[1:]
		}
		switch kind {
		case diff.Add:
			h.Append(Add(newN, text))
			newN++
		case diff.Del:
			h.Append(Del(oldN, text))
			oldN++
		default:
			h.Append(Ctx(oldN, newN, text))
			oldN++
			newN++
		}
	}
	h.OldLines, h.NewLines = oldN-start, newN-start
	return diff.FileDiff{OldPath: path, NewPath: path, Status: diff.Modified, Hunks: []diff.Hunk{h}}
}
