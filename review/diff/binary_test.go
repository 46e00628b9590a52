package diff

import (
	"strings"
	"testing"
)

func TestIsBinary(t *testing.T) {
	for _, tt := range []struct {
		name string
		head string
		want bool
	}{
		{"nul", "abc\x00def", true},
		{"pdf", "%PDF-1.6\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\n", true},
		{"illustrator-postscript", "%!PS-Adobe-3.0\n%%Creator: Adobe Illustrator(R) 24.0\n", true},
		{"png", "\x89PNG\r\n\x1a\n\x12\x34", true},
		{"jpeg", "\xff\xd8\xff\xe0\x10JFIF", true},
		{"zip", "PK\x03\x04\x14\x06", true},
		{"control-bytes", strings.Repeat("ab\x01\x02\x03cd\x05e\x06f", 20), true},
		{"text", "package main\n\nfunc main() {}\n", false},
		{"utf8-text", "Olá, mundo — instalação\n", false},
		{"latin1-text", strings.Repeat("caf\xe9 cr\xe8me br\xfbl\xe9e\n", 10), false},
		{"terminal-recording", strings.Repeat("\x1b[1;32mok\x1b[0m\r\n", 20), false},
		{"form-feeds", strings.Repeat("section\f\n", 20), false},
		{"pdf-not-at-start", "see %PDF- in the spec", false},
		{"short-controls", "\x01\x02", false},
	} {
		if got := IsBinary(tt.head); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A file git diffed as text (no NUL in its first 8,000 bytes) that is binary by content comes
// out of ParseDiff binary, without hunks; a text file beside it keeps its lines.
func TestParseDiffBinaryByContent(t *testing.T) {
	in := "diff --git a/art/logo.ai b/art/logo.ai\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/art/logo.ai\n" +
		"@@ -0,0 +1,3 @@\n+%PDF-1.5\n+%\xe2\xe3\xcf\xd3\n+<< /Creator (Adobe Illustrator) >>\n" +
		"diff --git a/blob.dat b/blob.dat\nindex 2222222..3333333 100644\n--- a/blob.dat\n+++ b/blob.dat\n" +
		"@@ -10,1 +10,1 @@\n-x\n+" + strings.Repeat("\x01\x02\x03\x04\x05\x06ab", 10) + "\n" +
		"diff --git a/README.md b/README.md\nnew file mode 100644\nindex 0000000..4444444\n--- /dev/null\n+++ b/README.md\n" +
		"@@ -0,0 +1,1 @@\n+A PDF starts with %PDF-\n"
	files, err := ParseDiff([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d files, want 3", len(files))
	}
	for i, want := range []bool{true, true, false} {
		f := files[i]
		if f.Binary != want || want && len(f.Hunks) != 0 || !want && len(f.Hunks) != 1 {
			t.Errorf("%s: binary %v with %d hunks, want binary %v", f.Path(), f.Binary, len(f.Hunks), want)
		}
	}
}
