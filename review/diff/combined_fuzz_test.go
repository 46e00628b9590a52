package diff_test

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/tollgate-dev/tollgate/review/diff"
)

// gitRunner runs git in a scratch repository with the flags tollgate passes (hook/git.go).
type gitRunner struct {
	t        *testing.T
	git, dir string
}

func (g gitRunner) run(stdin string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command(g.git, append([]string{"-c", "color.ui=never", "-c", "core.quotepath=off", "--no-pager"}, args...)...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+g.dir, "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		g.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

var gitDiffFlags = []string{"--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
	"--diff-algorithm=myers", "--inter-hunk-context=0", "--indent-heuristic"}

// commit stores content as file "f" in a commit with message msg (distinct parents of equal
// content must stay distinct commits) and the given parents, and returns its id.
func (g gitRunner) commit(content []byte, msg string, parents ...string) string {
	g.t.Helper()
	name := filepath.Join(g.dir, "content")
	if err := os.WriteFile(name, content, 0o644); err != nil {
		g.t.Fatal(err)
	}
	blob := strings.TrimSpace(g.run("", "hash-object", "-w", "--", name))
	tree := strings.TrimSpace(g.run("100644 blob "+blob+"\tf\n", "mktree"))
	args := []string{"commit-tree", tree, "-m", msg}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	return strings.TrimSpace(g.run("", args...))
}

// FuzzParseCombinedGit builds merges of two or three parents of one file, has the real git
// print their combined diff (-c, with context), and checks that the parse gives, against each
// parent, exactly git's own diff against that parent (-U0), and as added against every parent
// exactly the lines every one of those diffs adds.
func FuzzParseCombinedGit(f *testing.F) {
	git, err := exec.LookPath("git")
	if err != nil {
		f.Skip("git not installed")
	}
	f.Add([]byte{1, 2, 3, 4}, []byte{1, 5, 3}, []byte{}, []byte{1, 6, 3, 4, 7}, byte(1))
	f.Add([]byte{1, 2, 3, 4, 5}, []byte{1, 3, 4}, []byte{}, []byte{1, 3, 8}, byte(1))
	f.Add([]byte{0x80 | 2, 1}, []byte{2, 1, 13}, []byte{9}, []byte{0x80 | 2, 14, 1}, byte(2))
	f.Add([]byte{5, 6, 0, 0}, []byte{6, 5, 0, 12}, []byte{0, 0}, []byte{6, 0, 0, 12, 21}, byte(3))
	f.Add([]byte{3, 3, 3}, []byte{}, []byte{3}, []byte{3, 4, 3, 4}, byte(1))
	f.Fuzz(func(t *testing.T, a, b, c, res []byte, ctx byte) {
		if len(a) > 32 || len(b) > 32 || len(c) > 32 || len(res) > 32 {
			return
		}
		checkCombined(t, git, a, b, c, res, ctx)
	})
}

// checkCombined is one case of FuzzParseCombinedGit.
func checkCombined(t *testing.T, git string, a, b, c, res []byte, ctx byte) {
	{
		g := gitRunner{t: t, git: git, dir: t.TempDir()}
		g.run("", "init", "-q", "--bare")
		versions := [][]byte{fuzzFile(a), fuzzFile(b)}
		if len(c) > 0 {
			versions = append(versions, fuzzFile(c))
		}
		var parents []string
		for i, v := range versions {
			parents = append(parents, g.commit(v, fmt.Sprint("parent ", i)))
		}
		merge := g.commit(fuzzFile(res), "merge", parents...)
		args := append([]string{"diff-tree", "-c", "-p", fmt.Sprintf("-U%d", 1+ctx%3), "--no-commit-id"}, gitDiffFlags...)
		out := g.run("", append(args, merge)...)
		files, err := ParseCombined([]byte(out), len(parents))
		if err != nil {
			t.Fatalf("git's combined diff does not parse: %v\n%s", err, out)
		}
		if len(files) == 0 {
			for _, v := range versions {
				if string(v) == string(fuzzFile(res)) {
					return // the result is one parent's: no file differs from every parent
				}
			}
			t.Fatalf("no file parsed\n%s", out)
		}
		if len(files) != 1 || files[0].Path != "f" || files[0].Binary {
			t.Fatalf("parsed %+v\n%s", files, out)
		}
		var every map[int]bool
		for n, p := range parents {
			uni := g.run("", append(append([]string{"diff-tree", "-p", "-U0", "--text"}, gitDiffFlags...), p, merge)...)
			want, err := ParseDiff([]byte(uni))
			if err != nil || len(want) != 1 {
				t.Fatalf("git's diff against parent %d: %v\n%s", n, err, uni)
			}
			hunks, all := files[0].Against(n)
			if got, w := dump([]FileDiff{{Hunks: hunks}}), dump([]FileDiff{{Hunks: want[0].Hunks}}); got != strings.ReplaceAll(w, "nonl=true", "nonl=false") {
				t.Fatalf("against parent %d:\n got: %s\nwant: %s\n%s\n%s", n, got, w, out, uni)
			}
			added := map[int]bool{}
			for l := range want[0].Added() {
				if every == nil || every[l.New] {
					added[l.New] = true
				}
			}
			every = added
			if n == len(parents)-1 && !maps.Equal(all, every) {
				t.Fatalf("added against every parent %v, want %v\n%s", slices.Sorted(maps.Keys(all)), slices.Sorted(maps.Keys(every)), out)
			}
		}
	}
}
