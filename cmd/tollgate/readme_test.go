package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The README's commands run as written: every fenced block after a marker line
//
//	<!-- test: KIND [exit=N] [expect="TEXT"] -->
//
// is run by TestReadme with the binaries TestMain built first on PATH, HOME and git's identity
// pinned (scriptEnv's values), and must end with exit status N (0 unless given), its output
// holding TEXT when given. KIND says where:
//
//	scratch   an empty directory (sh -e);
//	clone     a fresh clone of this repository (sh -e; go is on PATH, the module cache shared);
//	husky     a new repository set up by the real husky: the block's lines must equal what
//	          `tollgate install` prints there, and with them a commit of a token is blocked;
//	lefthook  a YAML block: lefthook.yml of a new repository, installed by the real lefthook,
//	          equal to what `tollgate install` prints there, and blocking a token.
//
// A block with no marker is not run (go test itself, a server's path).

// readmeBlock is one marked block of the README.
type readmeBlock struct {
	kind   string
	exit   int
	expect string // text the output must hold ("" for any)
	line   int    // of the opening fence, for messages
	text   string
}

var (
	readmeMarker = regexp.MustCompile(`^\s*<!-- test: ([a-z]+)(?: exit=(\d+))?(?: expect="([^"]*)")? -->\s*$`)
	readmeFence  = regexp.MustCompile("^(\\s*)```")
)

// readmeBlocks returns the marked blocks of the README, their indentation removed.
func readmeBlocks(t *testing.T, data string) []readmeBlock {
	t.Helper()
	var out []readmeBlock
	lines := strings.Split(data, "\n")
	for i := 0; i < len(lines); i++ {
		m := readmeMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := readmeBlock{kind: m[1], expect: m[3], line: i + 2}
		if m[2] != "" {
			b.exit, _ = strconv.Atoi(m[2])
		}
		if i+1 >= len(lines) || !readmeFence.MatchString(lines[i+1]) {
			t.Fatalf("README.md:%d: a test marker not followed by a fenced block", i+1)
		}
		indent := readmeFence.FindStringSubmatch(lines[i+1])[1]
		var body []string
		j := i + 2
		for ; j < len(lines) && !readmeFence.MatchString(lines[j]); j++ {
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			t.Fatalf("README.md:%d: an unclosed block", b.line)
		}
		b.text = strings.Join(body, "\n") + "\n"
		out = append(out, b)
		i = j
	}
	return out
}

func TestReadmeBlocksParse(t *testing.T) {
	got := readmeBlocks(t, "x\n<!-- test: scratch exit=1 expect=\"no\" -->\n```sh\na\nb\n```\n\n  <!-- test: husky -->\n  ```sh\n  c\n  ```\n```sh\nnot marked\n```\n")
	if len(got) != 2 || got[0].kind != "scratch" || got[0].exit != 1 || got[0].expect != "no" || got[0].text != "a\nb\n" ||
		got[1].kind != "husky" || got[1].exit != 0 || got[1].text != "c\n" {
		t.Fatalf("readmeBlocks = %+v", got)
	}
}

// readmeEnv is the environment of a README block: the scripts' pinned environment, in home,
// with go's caches found (a clone block builds the module) and colour off.
func readmeEnv(t *testing.T, home string) []string {
	t.Helper()
	vars, err := pinnedEnv(home)
	if err != nil {
		t.Fatal(err)
	}
	vars["NO_COLOR"] = "1"
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE"} {
		if vars[k] == "" {
			if out, err := exec.Command("go", "env", k).Output(); err == nil {
				vars[k] = strings.TrimSpace(string(out))
			}
		}
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// runSh runs script with sh -e in dir (args are $0, $1, ...) and returns its exit status and
// output.
func runSh(t *testing.T, dir string, env []string, script string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-e", "-c", script}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	t.Fatalf("failed to run sh: %v", err)
	return 0, ""
}

func TestReadme(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, string(data))
	kinds := map[string]int{}
	for _, b := range blocks {
		kinds[b.kind]++
	}
	for _, k := range []string{"scratch", "clone", "husky", "lefthook"} {
		if kinds[k] == 0 {
			t.Errorf("README.md has no block marked %q", k)
		}
	}
	for _, b := range blocks {
		t.Run(b.kind+"_line_"+strconv.Itoa(b.line), func(t *testing.T) {
			switch b.kind {
			case "scratch":
				dir := t.TempDir()
				code, out := runSh(t, dir, readmeEnv(t, filepath.Join(dir, "home")), b.text)
				if code != b.exit || !strings.Contains(out, b.expect) {
					t.Errorf("README.md:%d: exit %d, want %d and output holding %q\n%s\n%s", b.line, code, b.exit, b.expect, b.text, out)
				}
			case "clone":
				readmeClone(t, b)
			case "husky":
				readmeHusky(t, b)
			case "lefthook":
				readmeLefthook(t, b)
			default:
				t.Errorf("README.md:%d: unknown test kind %q", b.line, b.kind)
			}
		})
	}
}

// readmeClone runs b in a fresh clone of this repository's HEAD.
func readmeClone(t *testing.T, b readmeBlock) {
	if testing.Short() {
		t.Skip("-short: a clone builds the module")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout: nothing to clone")
	}
	dir := t.TempDir()
	env := readmeEnv(t, filepath.Join(dir, "home"))
	if code, out := runSh(t, dir, env, "git clone -q \"$0\" clone", root); code != 0 {
		t.Fatalf("git clone: exit %d\n%s", code, out)
	}
	code, out := runSh(t, filepath.Join(dir, "clone"), env, b.text)
	if code != b.exit || !strings.Contains(out, b.expect) {
		t.Errorf("README.md:%d: exit %d, want %d\n%s\n%s", b.line, code, b.exit, b.text, out)
	}
}

// newRepo makes a git repository in a temporary directory; it returns it and the environment.
func newRepo(t *testing.T) (string, []string) {
	dir := t.TempDir()
	env := readmeEnv(t, filepath.Join(dir, "home"))
	repo := filepath.Join(dir, "repo")
	if code, out := runSh(t, dir, env, "git init -q repo"); code != 0 {
		t.Fatalf("git init: %s", out)
	}
	return repo, env
}

// printedLines are the lines `tollgate install` prints to add to a manager (indented by two),
// comments left out.
func printedLines(t *testing.T, repo string, env []string) string {
	t.Helper()
	_, out := runSh(t, repo, env, "tollgate install 2>/dev/null || true")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "  "); ok && !strings.HasPrefix(strings.TrimSpace(rest), "#") {
			lines = append(lines, rest)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("tollgate install printed no lines to add:\n%s", out)
	}
	return strings.Join(lines, "\n") + "\n"
}

// tokenBlocked commits a file with a token in repo: the commit must be blocked by tollgate.
func tokenBlocked(t *testing.T, repo string, env []string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(repo, "token.go"), []byte("package main\n\nconst token = \""+fakeToken+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runSh(t, repo, env, "git add token.go && git commit -q -m token")
	if code == 0 || !strings.Contains(out, "secrets/github-pat") {
		t.Errorf("a commit of a token: exit %d, want it blocked by tollgate\n%s", code, out)
	}
	if c, _ := runSh(t, repo, env, "git rev-parse -q --verify HEAD"); c == 0 {
		t.Error("the token was committed")
	}
}

func readmeHusky(t *testing.T, b readmeBlock) {
	if _, err := exec.LookPath("husky"); err != nil {
		t.Skip("husky is not installed (npm install -g husky@9; .ci/run does)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	repo, env := newRepo(t)
	if code, out := runSh(t, repo, env, "husky >/dev/null"); code != 0 {
		t.Fatalf("husky: exit %d\n%s", code, out)
	}
	if got := printedLines(t, repo, env); got != b.text {
		t.Errorf("README.md:%d: the husky lines differ from what tollgate install prints\nREADME:\n%s\ninstall:\n%s", b.line, b.text, got)
	}
	if code, out := runSh(t, repo, env, b.text); code != 0 {
		t.Fatalf("README.md:%d: exit %d\n%s", b.line, code, out)
	}
	tokenBlocked(t, repo, env)
}

func readmeLefthook(t *testing.T, b readmeBlock) {
	if _, err := exec.LookPath("lefthook"); err != nil {
		t.Skip("lefthook is not installed (go install github.com/evilmartians/lefthook@v1.13.6; .ci/run does)")
	}
	repo, env := newRepo(t)
	if err := os.WriteFile(filepath.Join(repo, "lefthook.yml"), []byte(b.text), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := printedLines(t, repo, env); got != b.text {
		t.Errorf("README.md:%d: the lefthook config differs from what tollgate install prints\nREADME:\n%s\ninstall:\n%s", b.line, b.text, got)
	}
	if code, out := runSh(t, repo, env, "lefthook install"); code != 0 {
		t.Fatalf("lefthook install: exit %d\n%s", code, out)
	}
	// lefthook wrote every hook the config names, each running tollgate.
	for _, h := range []string{"pre-commit", "pre-merge-commit", "commit-msg", "pre-push"} {
		data, err := os.ReadFile(filepath.Join(repo, ".git", "hooks", h))
		if err != nil || !bytes.Contains(data, []byte("lefthook")) {
			t.Errorf("lefthook install wrote no %s hook: %v", h, err)
		}
	}
	tokenBlocked(t, repo, env)
}
