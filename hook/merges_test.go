package hook

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMergeUnitsMatchFullDiffs holds mergeUnits (listings first, lines of the files that
// differ from every parent only) to the full diffs against each parent it replaces, on merges
// that resolve a conflict, rename a file with an edit, delete a file, and bring only a branch.
func TestMergeUnitsMatchFullDiffs(t *testing.T) {
	ctx := context.Background()
	dir, git, write := mergeRepo(t)
	long := strings.Repeat("a line that stays the same\n", 30)
	git("init", "-q", "-b", "main")
	write("conflict.txt", "base\n")
	write("moved.txt", long)
	write("gone.txt", "x\n")
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	git("checkout", "-q", "-b", "side")
	write("conflict.txt", "side\n")
	write("branch.txt", "only on the branch\n")
	git("add", "-A")
	git("commit", "-q", "-m", "side")
	git("checkout", "-q", "main")
	write("conflict.txt", "main\n")
	git("add", "-A")
	git("commit", "-q", "-m", "main")
	// A merge that resolves the conflict with a line from neither side, renames and edits a
	// file, and deletes one.
	git("merge", "-q", "--no-commit", "side")
	write("conflict.txt", "main\nside\nresolved = \"neither\"\n")
	git("mv", "moved.txt", "renamed.txt")
	write("renamed.txt", long+"token = \"added in the merge\"\n")
	git("rm", "-q", "gone.txt")
	git("add", "-A")
	git("commit", "-q", "-m", "evil merge")
	// A merge that brings only a branch.
	git("checkout", "-q", "-b", "side2", "side")
	write("branch2.txt", "more\n")
	git("add", "-A")
	git("commit", "-q", "-m", "side2")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-edit", "side2")
	r, merges := repoMerges(t, dir)
	defer r.Close()
	if len(merges) != 2 {
		t.Fatalf("want 2 merges, got %d", len(merges))
	}
	got, err := r.mergeUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range merges {
		want, err := r.mergeAlone(ctx, r.Git, c)
		if err != nil {
			t.Fatal(err)
		}
		if !sameMergeOut(got[i], want) || got[i].u == nil {
			t.Errorf("merge %d: got %+v, want %+v", i, got[i], want)
		}
	}
	var names []string
	for _, f := range got[0].u.Files {
		names = append(names, f.Path())
	}
	if !reflect.DeepEqual(names, []string{"conflict.txt", "gone.txt", "renamed.txt"}) {
		t.Errorf("the evil merge's unit holds %q", names)
	}
	if len(got[1].u.Files) != 0 {
		t.Errorf("the plain merge's unit holds %+v, want nothing", got[1].u.Files)
	}
}

// TestPlanGroups: merges share a call when the union of their paths makes none of them diff a
// file it drops, and a call's paths stay within maxSpecBytes (a merge above it alone).
func TestPlanGroups(t *testing.T) {
	entry := func(p string) rawEntry { return rawEntry{status: 'M', oldPath: p, newPath: p} }
	lists := [][][]rawEntry{
		{{entry("a")}, {entry("a"), entry("big")}}, // needs a; big differs from one parent only
		{{entry("b")}, {entry("b")}},               // needs b
		{{entry("big")}, {entry("big")}},           // needs big: not with the first
		{{entry("c")}, {entry("c"), entry("a")}},   // needs c; a differs from one parent only
	}
	cands := make([]map[string]bool, len(lists))
	for i := range lists {
		cands[i] = candidates(lists[i])
	}
	var got [][]int
	for _, gr := range planGroups([]int{0, 1, 2, 3}, lists, cands) {
		got = append(got, gr.members)
	}
	if want := [][]int{{0, 1}, {2, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
	name := strings.Repeat("p", maxSpecBytes/3)
	lists, cands = nil, nil
	var todo []int
	for i := range 5 {
		p := name + string(rune('a'+i))
		lists = append(lists, [][]rawEntry{{entry(p)}, {entry(p)}})
		cands = append(cands, map[string]bool{p: true})
		todo = append(todo, i)
	}
	groups := planGroups(todo, lists, cands)
	if len(groups) != 3 || len(groups[0].members) != 2 || len(groups[0].paths()) != 2 {
		t.Errorf("%d groups for 5 merges of a third of the bound each, want 3 (2, 2, 1)", len(groups))
	}
}

// sameMergeOut compares two merge results; a unit without files is the same with a nil or an
// empty list.
func sameMergeOut(a, b mergeOut) bool {
	if a.u != nil && b.u != nil && len(a.u.Files) == 0 && len(b.u.Files) == 0 {
		return a.u.Commit == b.u.Commit && reflect.DeepEqual(a.unreadable, b.unreadable)
	}
	return reflect.DeepEqual(a, b)
}

// mergeRepo makes an empty repository (git init is the caller's) and returns its directory, a
// git runner with an identity (a merge that stops at a conflict is no failure) and a writer of
// files in its work tree.
func mergeRepo(t *testing.T) (string, func(args ...string), func(name, content string)) {
	t.Helper()
	dir := t.TempDir()
	g := NewGit(dir)
	git := func(args ...string) {
		t.Helper()
		id := []string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}
		if _, err := g.run(context.Background(), nil, append(id, args...)...); err != nil && args[0] != "merge" {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, git, write
}

// repoMerges opens the repository in dir and lists the merges HEAD reaches, oldest first.
func repoMerges(t *testing.T, dir string) (*Repo, []listedCommit) {
	t.Helper()
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	commits, err := r.revList(ctx, "HEAD")
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	var merges []listedCommit
	for _, c := range commits {
		if len(c.others) > 0 {
			merges = append(merges, c)
		}
	}
	return r, merges
}
