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
	dir := t.TempDir()
	g := NewGit(dir)
	git := func(args ...string) {
		t.Helper()
		id := []string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}
		if _, err := g.run(ctx, nil, append(id, args...)...); err != nil && args[0] != "merge" {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	commits, err := r.revList(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var merges []listedCommit
	for _, c := range commits {
		if len(c.others) > 0 {
			merges = append(merges, c)
		}
	}
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
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("merge %d: got %+v, want %+v", i, got[i], want)
		}
	}
	var names []string
	for _, f := range got[0].Files {
		names = append(names, f.Path())
	}
	if !reflect.DeepEqual(names, []string{"conflict.txt", "gone.txt", "renamed.txt"}) {
		t.Errorf("the evil merge's unit holds %q", names)
	}
	if len(got[1].Files) != 0 {
		t.Errorf("the plain merge's unit holds %+v, want nothing", got[1].Files)
	}
}

// TestSpecGroupBounds: the merges' paths are split into calls of at most maxSpecBytes, each
// with at least one merge.
func TestSpecGroupBounds(t *testing.T) {
	name := strings.Repeat("p", maxSpecBytes/3)
	var lists [][][]rawEntry
	var cands []map[string]bool
	var todo []int
	for i := range 5 {
		p := name + string(rune('a'+i))
		e := rawEntry{status: 'M', oldPath: p, newPath: p}
		lists = append(lists, [][]rawEntry{{e}, {e}})
		cands = append(cands, map[string]bool{p: true})
		todo = append(todo, i)
	}
	group, spec := specGroup(todo, lists, cands)
	if len(group) != 2 || len(spec) != 2 {
		t.Errorf("group %v, spec of %d paths: want 2 merges", group, len(spec))
	}
	big := strings.Repeat("q", 2*maxSpecBytes)
	e := rawEntry{status: 'A', newPath: big}
	group, spec = specGroup([]int{0}, [][][]rawEntry{{{e}, {e}}}, []map[string]bool{{big: true}})
	if len(group) != 1 || len(spec) != 1 {
		t.Errorf("one merge above the bound: group %v, spec %d", group, len(spec))
	}
}
