package diff_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/tollgate-dev/tollgate/review/diff"
)

// diffVocabulary is what the git-backed fuzzer builds files from: lines that look like diff
// syntax ("-- a" becomes "--- a" in a patch), markers, blank lines and plain text.
var diffVocabulary = []string{
	"", "x", "y", "-- a", "++ b", "--- a", "+++ b", "-", "+", " ", "@@ -1 +1 @@", "@@",
	`\ No newline at end of file`, "\\", "diff --git a/x b/x", "index 0000000..1111111", "a\r",
	"\t+tab", "GIT binary patch", "Binary files a and b differ", "* Unmerged path x",
	"ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12",
}

// fuzzFile builds a file from selector bytes; the high bit of the first byte drops the final
// newline.
func fuzzFile(sel []byte) []byte {
	var b bytes.Buffer
	for _, c := range sel {
		b.WriteString(diffVocabulary[int(c)%len(diffVocabulary)])
		b.WriteByte('\n')
	}
	if len(sel) > 0 && sel[0]&0x80 != 0 {
		b.Truncate(b.Len() - 1)
	}
	return b.Bytes()
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

// gitDiff runs git's own diff of two files with the flags tollgate passes (hook/git.go).
func gitDiff(t *testing.T, git string, old, new []byte, context int) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"old": old, "new": new} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "-c", "color.ui=never", "-c", "core.quotepath=off", "--no-pager",
		"diff", "--no-index", "-p", fmt.Sprintf("-U%d", context), "--no-color", "--no-ext-diff",
		"--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--diff-algorithm=myers",
		"--inter-hunk-context=0", "--indent-heuristic", "--text", "--", "old", "new")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("git diff: %v", err)
	}
	return out
}

// applyDiff rebuilds the new file's lines from the old file's and the parsed hunks, checking
// every context and deleted line against the old file.
func applyDiff(old []string, f *FileDiff) ([]string, error) {
	var out []string
	at := 0 // old lines consumed
	for _, h := range f.Hunks {
		upto := h.OldStart - 1
		if h.OldLines == 0 {
			upto = h.OldStart
		}
		if upto < at || upto > len(old) {
			return nil, fmt.Errorf("hunk -%d,%d out of order", h.OldStart, h.OldLines)
		}
		out = append(out, old[at:upto]...)
		at = upto
		for _, l := range h.Lines() {
			switch l.Kind {
			case Context, Del:
				if at >= len(old) || old[at] != l.Text || l.Old != at+1 {
					return nil, fmt.Errorf("line %c old=%d %q does not match the old file", l.Kind, l.Old, l.Text)
				}
				at++
				if l.Kind == Context {
					out = append(out, l.Text)
				}
			case Add:
				out = append(out, l.Text)
			}
			if l.Kind != Del && l.New != len(out) {
				return nil, fmt.Errorf("line %c %q numbered %d, is new line %d", l.Kind, l.Text, l.New, len(out))
			}
		}
	}
	return append(out, old[at:]...), nil
}

// FuzzParseGitDiff generates file pairs, has the real git diff them, and checks that the
// parse reproduces the new file: every added line at its new-file number.
func FuzzParseGitDiff(f *testing.F) {
	git, err := exec.LookPath("git")
	if err != nil {
		f.Skip("git not installed")
	}
	f.Add([]byte{1, 3, 1, 1}, []byte{1, 4, 1, 2}, byte(0))
	f.Add([]byte{3}, []byte{4}, byte(1))
	f.Add([]byte{5, 6, 0, 0}, []byte{6, 5, 0, 12}, byte(3))
	f.Add([]byte{0x80 | 2, 1}, []byte{2, 1, 13}, byte(0))
	f.Fuzz(func(t *testing.T, a, b []byte, ctx byte) {
		if len(a) > 64 || len(b) > 64 {
			return
		}
		old, new := fuzzFile(a), fuzzFile(b)
		out := gitDiff(t, git, old, new, int(ctx%4))
		fds, err := ParseDiff(out)
		if err != nil {
			t.Fatalf("git's diff does not parse: %v\n%s", err, out)
		}
		if bytes.Equal(old, new) {
			if len(fds) != 0 {
				t.Fatalf("no change, but %d files parsed", len(fds))
			}
			return
		}
		if len(fds) != 1 {
			t.Fatalf("%d files parsed, want 1\n%s", len(fds), out)
		}
		got, err := applyDiff(splitLines(old), &fds[0])
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if want := splitLines(new); strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("applied diff gives %q, want %q\n%s", got, want, out)
		}
		want := splitLines(new)
		for l := range fds[0].Added() {
			if l.New < 1 || l.New > len(want) || want[l.New-1] != l.Text {
				t.Fatalf("added line %d %q is not the new file's line", l.New, l.Text)
			}
		}
	})
}
