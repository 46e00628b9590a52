package review

import (
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func TestMarkLaterRemoved(t *testing.T) {
	const tok = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	line := `t = "` + tok + `"`
	c := func(n int) string { return strings.Repeat(string(rune('0'+n)), 40) }
	add := func(path string, at int) diff.FileDiff {
		return diff.FileDiff{OldPath: path, NewPath: path, Status: diff.Modified, Hunks: []diff.Hunk{difftest.Hunk(at, 0, at, 1, difftest.Add(at, line))}}
	}
	del := func(path string, at int) diff.FileDiff {
		return diff.FileDiff{OldPath: path, NewPath: path, Status: diff.Modified, Hunks: []diff.Hunk{difftest.Hunk(at, 1, at, 0, difftest.Del(at, line))}}
	}
	gone := func(path string) diff.FileDiff {
		return diff.FileDiff{OldPath: path, Status: diff.Deleted, Hunks: []diff.Hunk{difftest.Hunk(1, 1, 0, 0, difftest.Del(1, line))}}
	}
	tests := []struct {
		name  string
		later [][]diff.FileDiff // the commits after the one adding the token to a.go
		file  bool              // a finding about the whole file, not a line
		want  bool
	}{
		{"nothing after", nil, false, false},
		{"another file changed", [][]diff.FileDiff{{add("b.go", 1)}}, false, false},
		{"line deleted", [][]diff.FileDiff{{del("a.go", 2)}}, false, true},
		{"same line deleted in another file", [][]diff.FileDiff{{del("b.go", 2)}}, false, false},
		{"deleted then added back", [][]diff.FileDiff{{del("a.go", 2)}, {add("a.go", 3)}}, false, false},
		{"moved within the file", [][]diff.FileDiff{{del("a.go", 2), add("a.go", 9)}}, false, false},
		{"file deleted", [][]diff.FileDiff{{gone("a.go")}}, false, true},
		{"key file deleted", [][]diff.FileDiff{{gone("a.go")}}, true, true},
		{"key file edited", [][]diff.FileDiff{{del("a.go", 2)}}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := &diff.Change{Kind: "push", Units: []diff.Unit{{Commit: c(1), Files: []diff.FileDiff{add("a.go", 2)}}}}
			for i, fs := range tt.later {
				ch.Units = append(ch.Units, diff.Unit{Commit: c(i + 2), Files: fs})
			}
			f := Finding{RuleID: "secrets/github-pat", Path: "a.go", Line: 2, commit: c(1)}
			if !tt.file {
				f = f.LineEvidence(line, 5, tok)
			}
			fs := []Finding{f}
			markLaterRemoved(ch, fs)
			if fs[0].LaterRemoved != tt.want {
				t.Errorf("LaterRemoved = %v, want %v", fs[0].LaterRemoved, tt.want)
			}
		})
	}
}
