package hook

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseCombinedRaw(t *testing.T) {
	z := func(s string) []byte { return []byte(strings.ReplaceAll(s, "|", "\x00")) }
	const a, b, c = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	zero := strings.Repeat("0", 40)
	got, err := parseCombinedRaw(z("::100644 100644 100755 "+a+" "+b+" "+c+" MM|x y.txt|::100644 100644 000000 "+a+" "+b+" "+zero+" DD|gone|"), 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []combinedEntry{
		{modes: []string{"100644", "100644", "100755"}, oids: []string{a, b, c}, status: "MM", path: "x y.txt"},
		{modes: []string{"100644", "100644", "000000"}, oids: []string{a, b, zero}, status: "DD", path: "gone"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if e := got[0].against(1); e != (rawEntry{oldMode: "100644", newMode: "100755", oldOID: b, newOID: c, status: 'M', oldPath: "x y.txt", newPath: "x y.txt"}) {
		t.Errorf("against parent 1: %+v", e)
	}
	octo, err := parseCombinedRaw(z(":::100644 100644 100644 100644 "+a+" "+b+" "+a+" "+c+" MMM|f|"), 3)
	if err != nil || len(octo) != 1 || octo[0].status != "MMM" || octo[0].against(2).oldOID != a {
		t.Errorf("octopus: %+v, %v", octo, err)
	}
	for _, bad := range []string{
		"::100644 100644 100644 " + a + " " + b + " " + c + " MM|",            // no path
		":100644 100644 " + a + " " + b + " M|f|",                             // not combined
		"::100644 100644 100644 " + a + " " + b + " " + c + " M|f|",           // one status
		":::100644 100644 100644 100644 " + a + " " + b + " " + a + " MMM|f|", // an id short
	} {
		if got, err := parseCombinedRaw(z(bad), 2); err == nil {
			t.Errorf("parsed %q as %+v", bad, got)
		}
	}
}

// TestCombinedUnitsMatchListed holds the units read from combined diffs to the listings against
// each parent and to the full diffs against each parent (onlyNew), on merges that resolve a
// conflict with a line of neither side, change a file no branch touched (an evil merge), add a
// line with no final newline, change a mode, move a parent's line elsewhere, and merge three
// branches at once; merges with a binary file, a new file or a deleted one, or a file above
// the big file threshold are read the old way.
func TestCombinedUnitsMatchListed(t *testing.T) {
	ctx := context.Background()
	dir := combinedRepo(t)
	r, merges := repoMerges(t, dir)
	defer r.Close()
	if len(merges) != 5 || len(merges[1].others) != 2 {
		t.Fatalf("want 5 merges, the second of 3 parents: %+v", merges)
	}
	got, rest, err := r.combinedUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rest, []int{2, 3, 4}) {
		t.Errorf("merges read the old way: %v, want the binary one, the one with new and deleted files and the large one", rest)
	}
	listed, err := r.listedMergeUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	all, err := r.mergeUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range merges {
		full, err := r.mergeAlone(ctx, r.Git, c)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(rest, i) && (!sameMergeOut(got[i], listed[i]) || !sameMergeOut(got[i], full)) {
			t.Errorf("merge %d: combined %+v, listed %+v, full %+v", i, got[i].u, listed[i].u, full.u)
		}
		if !sameMergeOut(all[i], full) {
			t.Errorf("merge %d: mergeUnits %+v, full %+v", i, all[i].u, full.u)
		}
	}
	// What the merges add of their own, by file and line.
	var own []string
	noNewline := false
	for _, m := range got[:2] {
		for _, f := range m.u.Files {
			for l := range f.Added() {
				own = append(own, f.Path()+": "+l.Text)
			}
			for _, h := range f.Hunks {
				noNewline = noNewline || h.NoNewlineAtEnd
			}
		}
	}
	want := []string{
		// A parent's line at another place is added against every parent there (git diffs by
		// position), in both ways of reading a merge.
		`conflict.txt: resolved = "neither"`, `evil.txt: token = "added in the merge"`, "moved.txt: side",
		"moved.txt: main", "nonl.txt: last line", "conflict.txt: octopus = 1", "evil.txt: octopus token",
	}
	if !slices.Equal(own, want) || !noNewline {
		t.Errorf("own lines %q (no final newline marked: %v), want %q", own, noNewline, want)
	}
}

// combinedRepo makes the repository of TestCombinedUnitsMatchListed and returns its directory.
func combinedRepo(t *testing.T) string {
	t.Helper()
	dir, git, write := mergeRepo(t)
	branch := func(name, from string, files map[string]string) {
		t.Helper()
		git("checkout", "-q", "-B", name, from)
		for f, c := range files {
			write(f, c)
		}
		git("add", "-A")
		git("commit", "-q", "-m", name)
	}
	// merge merges the branches of args, writes files and commits.
	merge := func(msg string, files map[string]string, args ...string) {
		t.Helper()
		git(append([]string{"merge", "-q", "--no-commit"}, args...)...)
		for f, c := range files {
			write(f, c)
		}
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	const evil = "a\nb\nc\n"
	git("init", "-q", "-b", "main")
	write("conflict.txt", "base\n")
	write("evil.txt", evil)
	write("nonl.txt", "one\ntwo\n")
	write("mode.sh", "echo base\n")
	write("moved.txt", "first\nsecond\nthird\n")
	write("bin.dat", "bin\x00base")
	write("gone.txt", "x\n")
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	branch("side", "main", map[string]string{"conflict.txt": "side\n", "nonl.txt": "one\ntwo side\n",
		"mode.sh": "echo side\n", "moved.txt": "first\nsecond\nthird\nside\n"})
	branch("main", "main", map[string]string{"conflict.txt": "main\n", "nonl.txt": "one main\ntwo\n",
		"mode.sh": "echo main\n", "moved.txt": "main\nfirst\nsecond\nthird\n"})
	// 1: a conflict resolved with a line of neither side, an evil change, an added last line
	// without a newline, a mode change, a parent's line moved.
	git("merge", "-q", "--no-commit", "side")
	write("conflict.txt", "main\nside\nresolved = \"neither\"\n")
	write("evil.txt", "a\nb\ntoken = \"added in the merge\"\nc\n")
	write("nonl.txt", "one main\ntwo side\nlast line")
	write("mode.sh", "echo main\necho side\n")
	write("moved.txt", "side\nfirst\nsecond\nthird\nmain\n")
	git("add", "-A")
	git("update-index", "--chmod=+x", "mode.sh")
	git("commit", "-q", "-m", "evil merge")
	// 2: an octopus merge of three branches, with a resolution line.
	branch("o1", "main", map[string]string{"conflict.txt": "o1\n"})
	branch("o2", "main", map[string]string{"evil.txt": "o2\na\nb\ntoken = \"added in the merge\"\nc\n"})
	branch("main", "main", map[string]string{"conflict.txt": "main again\n"})
	merge("octopus", map[string]string{"conflict.txt": "main again\no1\noctopus = 1\n",
		"evil.txt": "o2\na\nb\ntoken = \"added in the merge\"\nc\noctopus token\n"}, "-s", "ours", "o1", "o2")
	// 3: a binary file that differs from both parents.
	branch("b1", "main", map[string]string{"bin.dat": "bin\x00b1"})
	branch("main", "main", map[string]string{"bin.dat": "bin\x00main"})
	merge("binary merge", map[string]string{"bin.dat": "bin\x00merged"}, "b1")
	// 4: a new file and a deleted one, with a conflict resolution.
	branch("n1", "main", map[string]string{"conflict.txt": "n1\n"})
	branch("main", "main", map[string]string{"conflict.txt": "main 4\n"})
	git("merge", "-q", "--no-commit", "n1")
	write("conflict.txt", "main 4\nn1\n")
	write("new.txt", "new = 1\n")
	git("rm", "-q", "gone.txt")
	git("add", "-A")
	git("commit", "-q", "-m", "new and deleted")

	// 5: a file above git's big file threshold, resolved with a line of neither side.
	big := strings.Repeat("a line of a large file\n", bigFileBytes/20)
	branch("g1", "main", map[string]string{"big.txt": big + "g1\n"})
	branch("main", "main", map[string]string{"big.txt": big + "main\n"})
	merge("large merge", map[string]string{"big.txt": big + "main\ng1\nbig = 1\n"}, "g1")

	return dir
}

// TestCombinedUnitsAfterUnreadable: when git's combined diff stops at a merge whose blob is
// missing, the merges before it keep their units from it, and that merge and the ones after
// it are read the old way (the missing one unreadable).
func TestCombinedUnitsAfterUnreadable(t *testing.T) {
	ctx := context.Background()
	dir := combinedRepo(t)
	r, merges := repoMerges(t, dir)
	defer r.Close()
	before, err := r.mergeUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	// The octopus merge's resolution of conflict.txt, which no other commit has.
	blob, err := r.Git.output(ctx, "rev-parse", merges[1].id+":conflict.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	got, rest, err := r.combinedUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rest, []int{1, 2, 3, 4}) || !sameMergeOut(got[0], before[0]) {
		t.Errorf("read the old way: %v, want the octopus merge and those after it; first merge %+v, want %+v", rest, got[0].u, before[0].u)
	}
	all, err := r.mergeUnits(ctx, r.Git, merges)
	if err != nil {
		t.Fatal(err)
	}
	if all[1].unreadable == nil || !sameMergeOut(all[0], before[0]) || !sameMergeOut(all[4], before[4]) {
		t.Errorf("after the blob went: %+v, want the octopus merge unreadable and the others as before", all)
	}
}
