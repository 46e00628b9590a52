package hook

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// TestStagedLargeNewFiles: a new file above core.bigFileThreshold, which git shows as binary, is
// read from its blob and gets the lines git's own text diff gives; a binary one stays binary.
func TestStagedLargeNewFiles(t *testing.T) {
	big := strings.Repeat("some line of text\n", 70_000) // 1.2 MiB
	tests := []struct {
		name, content string
		binary        bool
	}{
		{"big.txt", big, false},
		{"no-final-newline.txt", big + "token = \"last\"", false},
		{"empty-lines.txt", strings.Repeat("\n", 1_100_000), false},
		{"crlf.txt", strings.ReplaceAll(big, "\n", "\r\n"), false},
		{"binary.bin", "\x00" + big, true},
		{"small.txt", "one\ntwo", false},
	}
	ctx := context.Background()
	dir := t.TempDir()
	g := NewGit(dir)
	if _, err := g.run(ctx, nil, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if err := os.WriteFile(filepath.Join(dir, tt.name), []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := g.run(ctx, nil, "add", tt.name); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Staged(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *diff.FileDiff
			for i := range ch.Units[0].Files {
				if ch.Units[0].Files[i].Path() == tt.name {
					got = &ch.Units[0].Files[i]
				}
			}
			if got == nil || got.Status != diff.Added || got.Binary != tt.binary {
				t.Fatalf("file %+v, want added, binary %v", got, tt.binary)
			}
			out, err := g.run(ctx, nil, append(append([]string{"diff", "--cached", "-U0", "--text"}, diffFlags...), "--", tt.name)...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := diff.ParseDiff(out)
			if err != nil || len(want) != 1 {
				t.Fatalf("git's text diff: %v (%d files)", err, len(want))
			}
			if tt.binary {
				return
			}
			if len(got.Hunks) != 1 || len(want[0].Hunks) != 1 {
				t.Fatalf("hunks %d, git's text diff %d", len(got.Hunks), len(want[0].Hunks))
			}
			gh, wh := got.Hunks[0], want[0].Hunks[0]
			if !slices.Equal(slices.Collect(got.Added()), slices.Collect(want[0].Added())) ||
				gh.NoNewlineAtEnd != wh.NoNewlineAtEnd || gh.NewStart != wh.NewStart || gh.NewLines != wh.NewLines ||
				gh.OldStart != wh.OldStart || gh.OldLines != wh.OldLines {
				t.Errorf("hunk @@ -%d,%d +%d,%d @@ nonl=%v, git's @@ -%d,%d +%d,%d @@ nonl=%v (or lines differ)",
					gh.OldStart, gh.OldLines, gh.NewStart, gh.NewLines, gh.NoNewlineAtEnd,
					wh.OldStart, wh.OldLines, wh.NewStart, wh.NewLines, wh.NoNewlineAtEnd)
			}
		})
	}
}

// TestBlobIsText: git's own test, the first 8000 bytes without a NUL; a NUL after them leaves a
// blob text, and a blob far larger than 8000 bytes is judged (and read past) all the same.
func TestBlobIsText(t *testing.T) {
	ctx := context.Background()
	r, _ := statRepo(t)
	big := strings.Repeat("line of text\n", 200_000) // 2.6 MB
	for _, tt := range []struct {
		name, content string
		text          bool
	}{
		{"empty", "", true},
		{"small text", "hello\n", true},
		{"NUL first", "\x00abc", false},
		{"NUL at 7999", strings.Repeat("a", 7999) + "\x00", false},
		{"NUL at 8000", strings.Repeat("a", 8000) + "\x00", true},
		{"big text", big, true},
		{"big, NUL late", big + "\x00", true},
		{"big, NUL early", "\x00" + big, false},
	} {
		out, err := r.Git.run(ctx, strings.NewReader(tt.content), "hash-object", "-w", "--stdin")
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.blobIsText(ctx, strings.TrimSpace(string(out)))
		if err != nil || got != tt.text {
			t.Errorf("%s: blobIsText = %v, %v; want %v", tt.name, got, err, tt.text)
		}
	}
	// the stream stays in step after the skipped bytes: a following read gets its own blob
	out, err := r.Git.run(ctx, strings.NewReader("after\n"), "hash-object", "-w", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := r.blobString(ctx, strings.TrimSpace(string(out))); err != nil || s != "after\n" {
		t.Fatalf("read after skipping: %q, %v", s, err)
	}
	if _, err := r.blobIsText(ctx, "0000000000000000000000000000000000000000"); err == nil {
		t.Fatal("the zero id was read as a blob")
	}
	r.Close()
}
