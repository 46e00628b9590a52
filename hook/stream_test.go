package hook

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// historyRepo makes a repository whose history holds every shape a range walks: a root commit,
// an empty commit, a rename, a mode-only change, a deletion, a binary file, a file named like a
// commit id, a name with a newline, and a merge that adds content in neither parent.
func historyRepo(t *testing.T) *Repo {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	g := NewGit(dir)
	git := func(args ...string) string {
		t.Helper()
		id := []string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}
		out, err := g.output(ctx, append(id, args...)...)
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		t.Helper()
		git("add", "-A")
		git("commit", "-q", "--allow-empty", "-m", msg)
	}
	git("init", "-q", "-b", "main")
	write("a.txt", "one\ntwo\n")
	write("run.sh", "echo hi\n")
	commit("root")
	commit("empty")
	git("mv", "a.txt", "b.txt")
	commit("rename")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	commit("mode only")
	write("bin.dat", "\x00\x01\x02binary\x00")
	write("new\nline.txt", "token = x\n")
	commit("binary and newline name")
	head := git("rev-parse", "HEAD")
	write(head, "a file named like a commit id\n")
	commit("id-named file")
	git("checkout", "-q", "-b", "side")
	write("side.txt", "side\n")
	commit("side")
	git("checkout", "-q", "main")
	git("rm", "-q", "run.sh")
	commit("delete")
	git("merge", "-q", "--no-commit", "side")
	write("evil.txt", "in neither parent\n")
	git("add", "evil.txt")
	git("commit", "-q", "-m", "merge")
	write("b.txt", "one\ntwo\nthree\n")
	commit("last")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStreamMatchesPerCommit holds the one-process stream to the per-commit diffs it replaces.
func TestStreamMatchesPerCommit(t *testing.T) {
	ctx := context.Background()
	r := historyRepo(t)
	commits, err := r.revList(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 10 {
		t.Fatalf("want 10 commits, got %d", len(commits))
	}
	var want []diff.Unit
	for _, c := range commits {
		u, _, err := r.unitAgainst(ctx, r.Git, c.id, c.parent)
		if err != nil {
			t.Fatal(err)
		}
		var others []diff.Unit
		for _, o := range c.others {
			uo, _, err := r.unitAgainst(ctx, r.Git, c.id, o)
			if err != nil {
				t.Fatal(err)
			}
			others = append(others, uo)
		}
		want = append(want, onlyNew(u, others))
	}
	for _, batch := range []int{1, 3, len(commits)} {
		ch := &diff.Change{}
		for rest := commits; len(rest) > 0; rest = rest[min(batch, len(rest)):] {
			units, done, err := r.streamUnits(ctx, r.Git, rest[:min(batch, len(rest))], nil)
			if err != nil || done != min(batch, len(rest)) {
				t.Fatal(done, err)
			}
			ch.Units = append(ch.Units, units...)
		}
		if !reflect.DeepEqual(ch.Units, want) {
			t.Errorf("batch %d: stream differs from per-commit diffs:\n got %+v\nwant %+v", batch, ch.Units, want)
		}
	}
	// The merge's unit holds the content that is in neither parent, and nothing of the side
	// branch (reviewed at the side commit).
	merge := want[len(want)-2]
	var names []string
	for _, f := range merge.Files {
		names = append(names, f.Path())
	}
	if !reflect.DeepEqual(names, []string{"evil.txt"}) {
		t.Errorf("the merge's unit holds %q, want only evil.txt", names)
	}
}

// TestStreamResumesAfterUnreadable: a commit whose object is gone is listed as unreadable and
// the commits after it are still read.
func TestStreamResumesAfterUnreadable(t *testing.T) {
	ctx := context.Background()
	r := historyRepo(t)
	commits, err := r.revList(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	removeSideBlob(t, r)
	ch := &diff.Change{}
	if err := r.addCommitDiffs(ctx, ch, commits); err != nil {
		t.Fatal(err)
	}
	// The side commit cannot be read. The merge can: side.txt, which it brings from the side
	// branch, is the side commit's (listed), and what the merge adds itself (evil.txt) is read.
	side, err := r.Git.output(ctx, "rev-parse", "side")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(r.Unreadable); got != 1 || !strings.Contains(r.Unreadable[0], side) {
		t.Errorf("unreadable = %q, want the side commit %s", r.Unreadable, side)
	}
	if got := len(ch.Units); got != len(commits)-1 {
		t.Errorf("got %d units, want %d", got, len(commits)-1)
	}
	merge := ch.Units[len(ch.Units)-2]
	if merge.Commit != commits[len(commits)-2].id || len(merge.Files) != 1 || merge.Files[0].Path() != "evil.txt" {
		t.Errorf("the merge's unit is %+v, want evil.txt only", merge)
	}
	if last := ch.Units[len(ch.Units)-1]; last.Commit != commits[len(commits)-1].id {
		t.Errorf("the commit after the unreadable ones is missing")
	}
}

// TestAddCommitsGrowingBatches: batches that grow (1, 2, 4, 4, ...) give the per-commit units,
// in order, also when a commit in the middle cannot be read.
func TestAddCommitsGrowingBatches(t *testing.T) {
	ctx := context.Background()
	first, most := firstBatch, streamBatch
	firstBatch, streamBatch = 1, 4
	t.Cleanup(func() { firstBatch, streamBatch = first, most })
	r := historyRepo(t)
	commits, err := r.revList(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := &diff.Change{}
	for _, c := range commits {
		units, _, err := r.streamUnits(ctx, r.Git, []listedCommit{c}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want.Units = append(want.Units, units...)
	}
	got := &diff.Change{}
	if err := r.addCommitDiffs(ctx, got, commits); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Units, want.Units) {
		t.Errorf("growing batches differ from one commit at a time:\n got %+v\nwant %+v", got.Units, want.Units)
	}
	removeSideBlob(t, r)
	side, err := r.Git.output(ctx, "rev-parse", "side")
	if err != nil {
		t.Fatal(err)
	}
	got = &diff.Change{}
	if err := r.addCommitDiffs(ctx, got, commits); err != nil {
		t.Fatal(err)
	}
	var rest []diff.Unit
	for _, u := range want.Units {
		if u.Commit != side {
			rest = append(rest, u)
		}
	}
	if len(r.Unreadable) != 1 || !reflect.DeepEqual(got.Units, rest) {
		t.Errorf("with the side commit unreadable: unreadable %q, units\n got %+v\nwant %+v", r.Unreadable, got.Units, rest)
	}
}

// TestSplitStreamNamesLikeIDs: a raw listing's file name equal to the next commit id, followed
// by NUL, does not end the section.
func TestSplitStreamNamesLikeIDs(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	raw := ":000000 100644 " + zero40 + " " + strings.Repeat("1", 40) + " A\x00" + b + "\x00" +
		":000000 100644 " + zero40 + " " + strings.Repeat("2", 40) + " A\x00x\x00\x00"
	patch := "diff --git a/" + b + " b/" + b + "\n+x\n"
	out := []byte(a + "\x00" + raw + patch + b + "\x00")
	got, err := splitStream(out, []listedCommit{{id: a}, {id: b}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[0]) != raw+patch || len(got[1]) != 0 {
		t.Errorf("sections = %q", got)
	}
	// An empty commit: the next id follows at once.
	got, err = splitStream([]byte(a+"\x00"+b+"\x00"+raw), []listedCommit{{id: a}, {id: b}})
	if err != nil || len(got) != 2 || len(got[0]) != 0 || string(got[1]) != raw {
		t.Errorf("empty commit: sections = %q, %v", got, err)
	}
	// Output that does not start with the expected commit is an error, never a pass.
	if _, err := splitStream([]byte(b+"\x00"), []listedCommit{{id: a}}); err == nil {
		t.Error("a stream out of order was accepted")
	}
}

// removeSideBlob deletes the loose blob that historyRepo's "side" commit added, so that commit
// cannot be read.
func removeSideBlob(t *testing.T, r *Repo) {
	t.Helper()
	ctx := context.Background()
	blob, err := r.Git.output(ctx, "rev-parse", "side:side.txt")
	if err != nil {
		t.Fatal(err)
	}
	gitDir, err := r.Git.output(ctx, "rev-parse", "--absolute-git-dir")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(gitDir, "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
}
