package diff_test

import (
	"slices"
	"testing"

	. "github.com/tollgate-dev/tollgate/review/diff"
)

func TestHunkForms(t *testing.T) {
	tests := []struct {
		name string
		h    Hunk
		want []Line
		nonl bool
		n    int
	}{
		{"text", TextHunk("a\n\nb\n"), []Line{add(1, "a"), add(2, ""), add(3, "b")}, false, 3},
		{"text without a final newline", TextHunk("a\nb"), []Line{add(1, "a"), add(2, "b")}, true, 2},
		{"empty text", TextHunk(""), nil, false, 0},
		{"built", NewHunk(3, 1, 3, 2, del(3, "x"), add(3, "y"), add(4, "z")), []Line{del(3, "x"), add(3, "y"), add(4, "z")}, false, 3},
		{"appended to text", func() Hunk { h := TextHunk("a\n"); h.Append(add(7, "b")); return h }(), []Line{add(1, "a"), add(7, "b")}, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Line
			for i, l := range tt.h.Lines() {
				if i != len(got) {
					t.Fatalf("index %d, want %d", i, len(got))
				}
				got = append(got, l)
			}
			if !slices.Equal(got, tt.want) || tt.h.NoNewlineAtEnd != tt.nonl || tt.h.Len() != tt.n {
				t.Errorf("lines %+v nonl=%v len=%d, want %+v nonl=%v len=%d", got, tt.h.NoNewlineAtEnd, tt.h.Len(), tt.want, tt.nonl, tt.n)
			}
		})
	}
}

// TestParsedHunkMatchesText: a new file's parsed hunk and its TextHunk give the same lines.
func TestParsedHunkMatchesText(t *testing.T) {
	for _, text := range []string{"one\ntwo\n", "one\n\n\nlast", "\n", "x\r\ny\r\n"} {
		var b []byte
		n := 0
		for _, l := range slices.Collect(func(yield func(Line) bool) {
			h := TextHunk(text)
			for _, l := range h.Lines() {
				if !yield(l) {
					return
				}
			}
		}) {
			b = append(append(append(b, '+'), l.Text...), '\n')
			n++
		}
		want := TextHunk(text)
		diffText := "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n@@ -0,0 +1," + itoa(n) + " @@\n" + string(b)
		if want.NoNewlineAtEnd {
			diffText += "\\ No newline at end of file\n"
		}
		fds, err := ParseDiff([]byte(diffText))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got := fds[0].Hunks[0]
		if !slices.Equal(slices.Collect(fds[0].Added()), collect(&want)) || got.NoNewlineAtEnd != want.NoNewlineAtEnd ||
			got.NewStart != want.NewStart || got.NewLines != want.NewLines || got.Len() != want.Len() {
			t.Errorf("%q: parsed %+v, text hunk %+v", text, collect(&got), collect(&want))
		}
	}
}

func collect(h *Hunk) []Line {
	var out []Line
	for _, l := range h.Lines() {
		out = append(out, l)
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// FuzzAddedSizeBound: whatever a diff or a new file holds, each hunk's bound is at least the
// size of its added lines, newlines included.
func FuzzAddedSizeBound(f *testing.F) {
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+\n\\ No newline at end of file\n", "a\nb")
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+\n", "\n\n")
	f.Fuzz(func(t *testing.T, patch, text string) {
		hunks := []Hunk{TextHunk(text), NewHunk(1, 0, 1, 2, add(1, text), del(1, patch))}
		if fds, err := ParseDiff([]byte(patch)); err == nil {
			for _, fd := range fds {
				hunks = append(hunks, fd.Hunks...)
			}
		}
		for i := range hunks {
			size := 0
			for _, l := range hunks[i].Lines() {
				if l.Kind == Add {
					size += len(l.Text) + 1
				}
			}
			if b := hunks[i].AddedSizeBound(); b < size {
				t.Fatalf("hunk %d: bound %d below the added size %d", i, b, size)
			}
		}
	})
}
