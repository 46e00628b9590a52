package diff_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// The fixtures in testdata/diff are real git output, made by testdata/diff/generate.sh with the
// flags tollgate passes to git.

var (
	add  = difftest.Add
	del  = difftest.Del
	ctx  = difftest.Ctx
	hunk = difftest.Hunk
)

func nonl(h Hunk) Hunk { h.NoNewlineAtEnd = true; return h }

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "diff", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseDiffFixtures(t *testing.T) {
	const (
		subOld = "Subproject commit a39b77372c04f32a89c084451f45612f52f8e910"
		subNew = "Subproject commit 731d96f7a8420d0d4722cc634c79132e562898c8"
	)
	tests := []struct {
		fixture string
		want    []FileDiff
	}{
		{"added.diff", []FileDiff{{
			NewPath: "new.txt", Status: Added, NewMode: "100644",
			Hunks: []Hunk{hunk(0, 0, 1, 3, add(1, "one"), add(2, "two"), add(3, "three"))},
		}}},
		{"deleted.diff", []FileDiff{{
			OldPath: "gone.txt", Status: Deleted, OldMode: "100644",
			Hunks: []Hunk{hunk(1, 2, 0, 0, del(1, "alpha"), del(2, "beta"))},
		}}},
		{"rename.diff", []FileDiff{{OldPath: "old.txt", NewPath: "new.txt", Status: Renamed}}},
		{"rename_change.diff", []FileDiff{{
			OldPath: "old.txt", NewPath: "new.txt", Status: Renamed,
			Hunks: []Hunk{hunk(4, 1, 4, 1, del(4, "d"), add(4, "D"))},
		}}},
		{"copy.diff", []FileDiff{{
			OldPath: "orig.txt", NewPath: "copy.txt", Status: Copied,
			Hunks: []Hunk{hunk(8, 0, 9, 1, add(9, "i"))},
		}}},
		{"mode.diff", []FileDiff{{
			OldPath: "run.sh", NewPath: "run.sh", Status: ModeOnly, OldMode: "100644", NewMode: "100755",
		}}},
		{"binary.diff", []FileDiff{
			{NewPath: "blob.bin", Status: Added, NewMode: "100644", Binary: true},
			{OldPath: "img.gif", NewPath: "img.gif", Status: Modified, Binary: true},
		}},
		{"nonewline.diff", []FileDiff{
			// both sides lack the final newline
			{OldPath: "both.txt", NewPath: "both.txt", Status: Modified,
				Hunks: []Hunk{nonl(hunk(2, 1, 2, 1, del(2, "old"), add(2, "new")))}},
			{NewPath: "fresh.txt", Status: Added, NewMode: "100644",
				Hunks: []Hunk{nonl(hunk(0, 0, 1, 1, add(1, "only")))}},
			// the new side gains the newline: only the old side had none
			{OldPath: "gain.txt", NewPath: "gain.txt", Status: Modified,
				Hunks: []Hunk{hunk(2, 1, 2, 1, del(2, "last"), add(2, "last"))}},
			{OldPath: "lose.txt", NewPath: "lose.txt", Status: Modified,
				Hunks: []Hunk{nonl(hunk(2, 1, 2, 1, del(2, "last"), add(2, "last")))}},
		}},
		{"hunks.diff", []FileDiff{{
			OldPath: "nums.txt", NewPath: "nums.txt", Status: Modified,
			Hunks: []Hunk{
				hunk(3, 1, 3, 1, del(3, "3"), add(3, "three")),
				hunk(10, 1, 9, 0, del(10, "10")),
				hunk(20, 0, 20, 1, add(20, "added-after-20")),
				hunk(25, 2, 25, 1, del(25, "25"), del(26, "26"), add(25, "twenty-six")),
				hunk(30, 0, 30, 1, add(30, "31")),
			},
		}}},
		{"context.diff", []FileDiff{{
			OldPath: "gaps.txt", NewPath: "gaps.txt", Status: Modified,
			Hunks: []Hunk{hunk(2, 7, 2, 7,
				ctx(2, 2, ""), ctx(3, 3, "second"), ctx(4, 4, ""),
				del(5, "third"), add(5, "THIRD"),
				ctx(6, 6, ""), ctx(7, 7, ""), ctx(8, 8, "fourth"))},
		}}},
		{"quoted.diff", []FileDiff{
			{NewPath: "a\tb.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "tab"))}},
			{NewPath: `back\slash.txt`, Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "bs"))}},
			{NewPath: "café ü.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "utf"))}},
			{NewPath: "new\nline.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "nl"))}},
			{NewPath: `say "hi".txt`, Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "quote"))}},
		}},
		{"quoted_octal.diff", []FileDiff{
			{NewPath: "café ü.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "utf"))}},
		}},
		{"quoted_rename.diff", []FileDiff{
			{OldPath: `say "hi".txt`, NewPath: "moved\tto \"x\".txt", Status: Renamed},
			{OldPath: "new\nline.txt", Status: Deleted, OldMode: "100644", Hunks: []Hunk{hunk(1, 1, 0, 0, del(1, "nl"))}},
		}},
		{"submodule.diff", []FileDiff{{
			OldPath: "lib", NewPath: "lib", Status: Modified,
			Hunks: []Hunk{hunk(1, 1, 1, 1, del(1, subOld), add(1, subNew))},
		}}},
		{"submodule_add.diff", []FileDiff{
			{NewPath: ".gitmodules", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 3,
				add(1, `[submodule "lib"]`), add(2, "\tpath = lib"), add(3, "\turl = /tmp/sub"))}},
			{NewPath: "lib", Status: Added, NewMode: "160000", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, subOld))}},
		}},
		{"commit.diff", []FileDiff{
			{OldPath: "a.txt", NewPath: "a.txt", Status: Modified, Hunks: []Hunk{
				hunk(2, 1, 2, 1, del(2, "line2"), add(2, "changed")),
				hunk(3, 0, 4, 1, add(4, "line4")),
			}},
			{NewPath: "z.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "z"))}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := ParseDiff(readFixture(t, tt.fixture))
			if err != nil {
				t.Fatalf("ParseDiff: %v", err)
			}
			if dump(got) != dump(tt.want) {
				t.Errorf("ParseDiff mismatch\n got: %s\nwant: %s", dump(got), dump(tt.want))
			}
		})
	}
}

// TestParseDiffFixturesCovered makes sure a fixture added to testdata/diff gets a table row.
func TestParseDiffFixturesCovered(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "diff", "*.diff"))
	if err != nil || len(files) < 15 {
		t.Fatalf("expected the diff fixtures, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		if _, err := ParseDiff(readFixture(t, filepath.Base(f))); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func dump(fs []FileDiff) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %q -> %q %s modes=%q/%q binary=%v", f.OldPath, f.NewPath, f.Status, f.OldMode, f.NewMode, f.Binary)
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "\n    @@ -%d,%d +%d,%d @@ nonl=%v", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.NoNewlineAtEnd)
			for _, l := range h.Lines() {
				fmt.Fprintf(&b, "\n      %c old=%d new=%d %q", l.Kind, l.Old, l.New, l.Text)
			}
		}
	}
	return b.String()
}

func TestParseDiffInline(t *testing.T) {
	const hdr = "diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n"
	tests := []struct {
		name string
		in   string
		want []FileDiff
	}{
		{"empty", "", nil},
		{"blank", " \n\n", nil},
		{
			// Context lines of empty lines whose leading space was stripped (by an editor or
			// a mailer) still count on both sides.
			"empty context line without its space",
			hdr + "@@ -2,4 +2,4 @@\n a\n\n-b\n+B\n\n",
			[]FileDiff{{OldPath: "x", NewPath: "x", Status: Modified, Hunks: []Hunk{
				hunk(2, 4, 2, 4, ctx(2, 2, "a"), ctx(3, 3, ""), del(4, "b"), add(4, "B"), ctx(5, 5, "")),
			}}},
		},
		{
			"plain unified diff without a git header",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
			[]FileDiff{{OldPath: "x", NewPath: "x", Status: Modified, Hunks: []Hunk{hunk(1, 1, 1, 1, del(1, "a"), add(1, "b"))}}},
		},
		{
			"no newline on an unchanged last context line",
			hdr + "@@ -1,2 +1,2 @@\n-a\n+A\n z\n\\ No newline at end of file\n",
			[]FileDiff{{OldPath: "x", NewPath: "x", Status: Modified, Hunks: []Hunk{
				nonl(hunk(1, 2, 1, 2, del(1, "a"), add(1, "A"), ctx(2, 2, "z"))),
			}}},
		},
		{
			"deleted file without a final newline",
			"diff --git a/x b/x\ndeleted file mode 100755\nindex 1111111..0000000\n--- a/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n",
			[]FileDiff{{OldPath: "x", Status: Deleted, OldMode: "100755", Hunks: []Hunk{hunk(1, 2, 0, 0, del(1, "a"), del(2, "b"))}}},
		},
		{
			"unquoted names with spaces, added",
			"diff --git a/my file.txt b/my file.txt\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/my file.txt\t\n@@ -0,0 +1 @@\n+v\n",
			[]FileDiff{{NewPath: "my file.txt", Status: Added, NewMode: "100644", Hunks: []Hunk{hunk(0, 0, 1, 1, add(1, "v"))}}},
		},
		{
			"binary file added, name from the git header only",
			"diff --git a/b c.bin b/b c.bin\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/b c.bin differ\n",
			[]FileDiff{{NewPath: "b c.bin", Status: Added, NewMode: "100644", Binary: true}},
		},
		{
			"mode change with content change is modified, not mode-only",
			"diff --git a/s b/s\nold mode 100644\nnew mode 100755\nindex 1111111..2222222\n--- a/s\n+++ b/s\n@@ -1 +1 @@\n-a\n+b\n",
			[]FileDiff{{OldPath: "s", NewPath: "s", Status: Modified, OldMode: "100644", NewMode: "100755",
				Hunks: []Hunk{hunk(1, 1, 1, 1, del(1, "a"), add(1, "b"))}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDiff([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseDiff: %v", err)
			}
			if dump(got) != dump(tt.want) {
				t.Errorf("ParseDiff mismatch\n got: %s\nwant: %s", dump(got), dump(tt.want))
			}
		})
	}
}

func TestParseDiffErrors(t *testing.T) {
	const hdr = "diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n"
	tests := []struct {
		name string
		in   string
		want string // a substring of the error
	}{
		{"too few new lines", hdr + "@@ -1 +1,3 @@\n-a\n+b\n", "has 1 old and 1 new lines"},
		{"too many new lines", hdr + "@@ -1 +1 @@\n-a\n+b\n+c\n", "has 1 old and 2 new lines"},
		{"too few old lines", hdr + "@@ -1,2 +1 @@\n-a\n+b\n", "has 1 old and 1 new lines"},
		{"context line counted once", hdr + "@@ -1,2 +1,1 @@\n a\n-b\n+c\n", "has 2 old and 2 new lines"},
		{"bad hunk line", hdr + "@@ -1 +1 @@\n-a\nxyz\n", "failed to parse diff"},
		{"bad hunk line prefix", hdr + "@@ -1 +1 @@\n-a\n*b\n", "failed to parse diff"},
		{"truncated hunk header", hdr + "@@ -1 +1\n-a\n+b\n", "bad hunk header"},
		{"non-numeric hunk header", hdr + "@@ -1 +1 @@\n-a\n+b\n@@ -x +1 @@\n", "failed to parse diff"},
		{"overflowing hunk header", hdr + "@@ -1 +1,4294967295 @@\n-a\n+b\n", "failed to parse diff"},
		{"added lines from line 0", hdr + "@@ -0,0 +0,1 @@\n+a\n", "bad hunk header"},
		{"deleted lines from line 0", hdr + "@@ -0,1 +0,0 @@\n-a\n", "bad hunk header"},
		{"colour codes", "\x1b[1mdiff --git a/x b/x\x1b[m\n", "colour"},
		{"not a diff", "this is not a diff\n", "failed to parse diff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDiff([]byte(tt.in))
			if err == nil {
				t.Fatalf("ParseDiff succeeded, want an error containing %q; got %s", tt.want, dump(got))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if got != nil {
				t.Errorf("ParseDiff returned files with an error: %s", dump(got))
			}
		})
	}
}

func TestFileDiffPathAndAddedLines(t *testing.T) {
	fds, err := ParseDiff(readFixture(t, "hunks.diff"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Line{add(3, "three"), add(20, "added-after-20"), add(25, "twenty-six"), add(30, "31")}
	if got := slices.Collect(fds[0].Added()); !reflect.DeepEqual(got, want) {
		t.Errorf("AddedLines = %+v, want %+v", got, want)
	}
	for _, tt := range []struct {
		f    FileDiff
		want string
	}{
		{FileDiff{OldPath: "a", NewPath: "b"}, "b"},
		{FileDiff{OldPath: "gone"}, "gone"},
		{FileDiff{NewPath: "new"}, "new"},
	} {
		if got := tt.f.Path(); got != tt.want {
			t.Errorf("Path() of %+v = %q, want %q", tt.f, got, tt.want)
		}
	}
	ch := Change{Units: []Unit{
		{Files: []FileDiff{{NewPath: "a"}, {OldPath: "b"}}},
		{Commit: "c", Files: []FileDiff{{OldPath: "a", NewPath: "a"}, {OldPath: "x", NewPath: "c"}}},
	}}
	if got := ch.FileCount(); got != 3 {
		t.Errorf("FileCount = %d, want 3 (a, b, c)", got)
	}
}

// FuzzParseDiff checks that no input panics and that whatever parses is numbered consistently.
func FuzzParseDiff(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "diff", "*.diff"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	const hdr = "diff --git a/x b/x\n--- a/x\n+++ b/x\n"
	for _, s := range []string{
		hdr + "@@ -2,4 +2,4 @@\n a\n\n-b\n+B\n\n",
		hdr + "@@ -1,2 +1,2 @@\n-a\n+A\n z\n\\ No newline at end of file\n",
		hdr + "@@ -1 +1,3 @@\n-a\n+b\n",
		hdr + "@@ -0,0 +0,1 @@\n+a\n",
		"diff --git \"a/\\303\\251\" \"b/\\t\"\nrename from \"\\303\\251\"\nrename to \"\\t\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fds, err := ParseDiff(data)
		if err != nil {
			if fds != nil {
				t.Fatalf("files returned with error %v", err)
			}
			return
		}
		for _, fd := range fds {
			for _, h := range fd.Hunks {
				oldN, newN := h.OldStart, h.NewStart
				for i, l := range h.Lines() {
					switch l.Kind {
					case Add:
						if l.New <= 0 || l.Old != 0 {
							t.Fatalf("added line %d: old=%d new=%d", i, l.Old, l.New)
						}
						if l.New != newN {
							t.Fatalf("added line %d: new=%d, want %d", i, l.New, newN)
						}
						newN++
					case Del:
						if l.Old <= 0 || l.New != 0 {
							t.Fatalf("deleted line %d: old=%d new=%d", i, l.Old, l.New)
						}
						if l.Old != oldN {
							t.Fatalf("deleted line %d: old=%d, want %d", i, l.Old, oldN)
						}
						oldN++
					case Context:
						if l.Old <= 0 || l.New <= 0 || l.Old != oldN || l.New != newN {
							t.Fatalf("context line %d: old=%d new=%d, want %d %d", i, l.Old, l.New, oldN, newN)
						}
						oldN++
						newN++
					default:
						t.Fatalf("line %d has kind %q", i, l.Kind)
					}
				}
				if oldN-h.OldStart != h.OldLines || newN-h.NewStart != h.NewLines {
					t.Fatalf("hunk -%d,%d +%d,%d holds %d old and %d new lines",
						h.OldStart, h.OldLines, h.NewStart, h.NewLines, oldN-h.OldStart, newN-h.NewStart)
				}
			}
		}
	})
}
