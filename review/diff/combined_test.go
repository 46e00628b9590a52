package diff_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	. "github.com/tollgate-dev/tollgate/review/diff"
)

// combinedTwo is git's `diff-tree -c -p -U1` of a merge: parent 0 "a b c d e", parent 1
// "a B c d", result "a b X d" (a line removed at the end of parent 0 only).
const combinedTwo = `diff --combined f
index 9405325,a7bc997..b19c404
--- a/f
+++ b/f
@@@ -1,5 -1,4 +1,4 @@@
  a
 -B
 -c
 +b
- c
++X
  d
- e
`

// combinedOctopus is git's `diff-tree -c -p -U1` of an octopus merge of three parents, with a
// binary file, a mode change and a quoted path.
const combinedOctopus = `diff --combined bin
index b6e8b57,6d93e53,e4d29b7..589a3ae
Binary files differ
diff --combined f
index 024e98e,512cb4b,cde4045..08f35d6
--- a/f
+++ b/f
@@@@ -1,3 -1,3 -1,3 +1,5 @@@@
   a
  -b-s2
 ++b-main
+ +b-s1
+++NEW
   c
diff --combined "say \"hi\".txt"
index ba2906d,655c6e6,5e28b27..222d505
mode 100644,100644,100644..100755
--- "a/say \"hi\".txt"
+++ "b/say \"hi\".txt"
@@@@ -1,1 -1,1 -1,1 +1,2 @@@@
 - s1
 ++main
++ s2
`

func TestParseCombined(t *testing.T) {
	type against struct {
		hunks []Hunk
		every []int
	}
	tests := []struct {
		name    string
		in      string
		parents int
		paths   []string
		binary  []bool
		last    []int
		// want[file][parent]
		want [][]against
	}{
		{
			name: "two parents", in: combinedTwo, parents: 2,
			paths: []string{"f"}, binary: []bool{false}, last: []int{4},
			want: [][]against{{
				{[]Hunk{hunk(3, 1, 3, 1, del(3, "c"), add(3, "X")), hunk(5, 1, 4, 0, del(5, "e"))}, []int{3}},
				{[]Hunk{hunk(2, 2, 2, 2, del(2, "B"), del(3, "c"), add(2, "b"), add(3, "X"))}, []int{3}},
			}},
		},
		{
			name: "octopus", in: combinedOctopus, parents: 3,
			paths: []string{"bin", "f", `say "hi".txt`}, binary: []bool{true, false, false}, last: []int{0, 5, 2},
			want: [][]against{
				{{nil, nil}, {nil, nil}, {nil, nil}},
				{
					{[]Hunk{hunk(2, 0, 3, 2, add(3, "b-s1"), add(4, "NEW"))}, []int{4}},
					{[]Hunk{hunk(1, 0, 2, 1, add(2, "b-main")), hunk(2, 0, 4, 1, add(4, "NEW"))}, []int{4}},
					{[]Hunk{hunk(2, 1, 2, 3, del(2, "b-s2"), add(2, "b-main"), add(3, "b-s1"), add(4, "NEW"))}, []int{4}},
				},
				{
					{[]Hunk{hunk(1, 0, 2, 1, add(2, "s2"))}, nil},
					{[]Hunk{hunk(1, 1, 1, 2, del(1, "s1"), add(1, "main"), add(2, "s2"))}, nil},
					{[]Hunk{hunk(0, 0, 1, 1, add(1, "main"))}, nil},
				},
			},
		},
		{
			// --cc's header; a file without hunks (only its mode differs) before another file.
			name: "dense and empty", parents: 2,
			in: "diff --cc mode.sh\nindex 1111111,2222222..3333333\nmode 100644,100644..100755\n" +
				"diff --cc new.txt\nnew file mode 100644\nindex 0000000,0000000..4444444\n--- /dev/null\n+++ b/new.txt\n" +
				"@@@ -1,0 -1,0 +1,1 @@@\n++only\n",
			paths: []string{"mode.sh", "new.txt"}, binary: []bool{false, false}, last: []int{0, 1},
			want: [][]against{
				{{nil, nil}, {nil, nil}},
				{
					{[]Hunk{hunk(0, 0, 1, 1, add(1, "only"))}, []int{1}},
					{[]Hunk{hunk(0, 0, 1, 1, add(1, "only"))}, []int{1}},
				},
			},
		},
		{
			// A deleted file: every line removed from both parents; a section after the
			// closing @@@.
			name: "deleted", parents: 2,
			in:    "diff --cc gone\ndeleted file mode 100644,100644\nindex 1111111,2222222..0000000\n--- a/gone\n+++ /dev/null\n@@@ -1,2 -1,1 +1,0 @@@ func\n--x\n- y\n",
			paths: []string{"gone"}, binary: []bool{false}, last: []int{0},
			want: [][]against{{
				{[]Hunk{hunk(1, 2, 0, 0, del(1, "x"), del(2, "y"))}, nil},
				{[]Hunk{hunk(1, 1, 0, 0, del(1, "x"))}, nil},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := ParseCombined([]byte(tt.in), tt.parents)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != len(tt.paths) {
				t.Fatalf("%d files, want %d", len(files), len(tt.paths))
			}
			for i, f := range files {
				if f.Path != tt.paths[i] || f.Binary != tt.binary[i] || f.LastNew() != tt.last[i] {
					t.Errorf("file %d: %q binary=%v last=%d, want %q binary=%v last=%d",
						i, f.Path, f.Binary, f.LastNew(), tt.paths[i], tt.binary[i], tt.last[i])
				}
				for n := range tt.parents {
					hunks, every := f.Against(n)
					w := tt.want[i][n]
					if got, want := dump([]FileDiff{{Hunks: hunks}}), dump([]FileDiff{{Hunks: w.hunks}}); got != want {
						t.Errorf("file %q against parent %d:\n got: %s\nwant: %s", f.Path, n, got, want)
					}
					if got := slices.Sorted(maps.Keys(every)); !slices.Equal(got, w.every) {
						t.Errorf("file %q against parent %d: new against every parent %v, want %v", f.Path, n, got, w.every)
					}
				}
			}
		})
	}
}

func TestParseCombinedErrors(t *testing.T) {
	const hdr = "diff --cc f\n--- a/f\n+++ b/f\n"
	tests := []struct {
		name, in string
		parents  int
	}{
		{"one parent", hdr, 1},
		{"not combined", "diff --git a/f b/f\n", 2},
		// git's -U0 combined diff: a count of -1 after a hidden line.
		{"U0 underflow", hdr + "@@@ -5,0 -5,18446744073709551615 +5,18446744073709551615 @@@\n- e\n", 2},
		{"too few ranges", hdr + "@@@ -1,1 +1,1 @@@\n++x\n", 2},
		{"unified header", hdr + "@@ -1,1 +1,1 @@\n+x\n", 2},
		{"no closing", hdr + "@@@ -1,1 -1,1 +1,1\n", 2},
		{"short hunk", hdr + "@@@ -1,1 -1,1 +1,2 @@@\n  a\n", 2},
		{"long hunk", hdr + "@@@ -1,0 -1,0 +1,1 @@@\n++a\n++b\n", 2},
		{"added and removed", hdr + "@@@ -1,1 -1,1 +1,1 @@@\n+-a\n", 2},
		{"bad marker", hdr + "@@@ -1,1 -1,1 +1,1 @@@\n*a\n", 2},
		{"short line", hdr + "@@@@ -1,1 -1,0 -1,0 +1,0 @@@@\n-\n", 3},
		{"header of another parent count", hdr + "@@@@ -1,1 -1,0 -1,0 +1,0 @@@@\n-\n", 2},
		{"text after a hunk", hdr + "@@@ -1,0 -1,0 +1,1 @@@\n++a\nBinary files differ\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if files, err := ParseCombined([]byte(tt.in), tt.parents); err == nil {
				t.Errorf("parsed %q as %+v", tt.in, files)
			}
		})
	}
	if _, err := ParseCombined([]byte(strings.Repeat("x", 10)), 2); err == nil {
		t.Error("parsed text without a header")
	}
}
