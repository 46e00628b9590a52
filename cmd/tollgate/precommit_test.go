package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The pre-commit framework test runs the real `pre-commit` client (skipped when it is not
// installed, or with -short) against this project's .pre-commit-hooks.yaml: `language: golang`
// makes pre-commit `go install ./...` the hook repository, so this also proves the manifest and
// the module build the way the framework builds them.

const fakeToken = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"

// fwEnv is a sealed environment for pre-commit and git: a scratch HOME and pre-commit store,
// pinned git identity, and the developer's Go caches and settings so the hook builds reuse
// them (pre-commit gives the build its own GOPATH, which would otherwise move the module cache).
type fwEnv struct {
	t   *testing.T
	env []string
}

func newFwEnv(t *testing.T, tmp string) *fwEnv {
	t.Helper()
	goEnv := map[string]string{}
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOENV", "GOFLAGS",
		"GOPROXY", "GONOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOINSECURE", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Skipf("go env failed: %v", err)
	}
	if err := json.Unmarshal(out, &goEnv); err != nil {
		t.Fatalf("go env -json: %v", err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := "[init]\n\tdefaultBranch = main\n[user]\n\tname = Tollgate Test\n\temail = test@tollgate.invalid\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GIT_"), strings.HasPrefix(k, "PRE_COMMIT"), strings.HasPrefix(k, "TOLLGATE"),
			strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "GO"), k == "HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-store"),
		"PRE_COMMIT_COLOR=never",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Tollgate Test",
		"GIT_AUTHOR_EMAIL=test@tollgate.invalid",
		"GIT_COMMITTER_NAME=Tollgate Test",
		"GIT_COMMITTER_EMAIL=test@tollgate.invalid",
	)
	// The framework builds each hook repository from a fresh clone in a new directory; with
	// -trimpath the module's packages do not embed that directory, so they hit the build cache
	// instead of compiling again for every environment.
	goEnv["GOFLAGS"] = strings.TrimSpace(goEnv["GOFLAGS"] + " -trimpath")
	for k, v := range goEnv {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	return &fwEnv{t: t, env: env}
}

// run runs a command in dir and returns its combined output and exit code.
func (e *fwEnv) run(dir string, name string, args ...string) (string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, e.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	}
	e.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	return "", -1
}

// runEnv is run with extra environment variables (NAME=value).
func (e *fwEnv) runEnv(dir string, extra []string, name string, args ...string) (string, int) {
	e.t.Helper()
	saved := e.env
	e.env = append(append([]string(nil), e.env...), extra...)
	defer func() { e.env = saved }()
	return e.run(dir, name, args...)
}

// ok runs a command that must succeed.
func (e *fwEnv) ok(dir string, name string, args ...string) string {
	e.t.Helper()
	out, code := e.run(dir, name, args...)
	if code != 0 {
		e.t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), code, out)
	}
	return out
}

// snapshotProject copies the project's working tree (tracked and untracked files, minus what
// .gitignore excludes) into a new git repository with one commit: pre-commit builds a hook
// repository at a commit, and the project's own git state must not be touched.
func snapshotProject(t *testing.T, e *fwEnv, root, dst string) string {
	t.Helper()
	list := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	list.Env = e.env
	out, err := list.Output()
	if err != nil {
		t.Skipf("the project is not a git work tree (%v): cannot snapshot it for pre-commit", err)
	}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		if err := copyFile(src, filepath.Join(dst, name), fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	e.ok(dst, "git", "init", "-q")
	e.ok(dst, "git", "add", "-A")
	e.ok(dst, "git", "commit", "-q", "--no-verify", "-m", "snapshot of the working tree")
	return strings.TrimSpace(e.ok(dst, "git", "rev-parse", "HEAD"))
}

func copyFile(src, dst string, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// preCommitVersion returns pre-commit's (major, minor) version.
func preCommitVersion(t *testing.T, e *fwEnv, dir string) (int, int, string) {
	t.Helper()
	out := strings.TrimSpace(e.ok(dir, "pre-commit", "--version"))
	m := regexp.MustCompile(`(\d+)\.(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("cannot read pre-commit's version from %q", out)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return major, minor, out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkBlocked asserts a failed hook run that names the token finding without the token.
func checkBlocked(t *testing.T, what, out string, code int) {
	t.Helper()
	if code == 0 {
		t.Fatalf("%s: passed, want the token to block it\n%s", what, out)
	}
	for _, want := range []string{"secrets/github-pat", "token.go"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: output lacks %q\n%s", what, want, out)
		}
	}
	if strings.Contains(out, fakeToken) {
		t.Errorf("%s: output shows the token in clear\n%s", what, out)
	}
}

// checkNoStageWarning asserts the manifest draws no warning about stage names.
func checkNoStageWarning(t *testing.T, what, out string) {
	t.Helper()
	if strings.Contains(strings.ToLower(out), "deprecat") || strings.Contains(out, "[WARNING]") {
		t.Errorf("%s: pre-commit warned about the manifest\n%s", what, out)
	}
}

func TestPreCommitFramework(t *testing.T) {
	t.Parallel() // beside TestScripts
	if testing.Short() {
		t.Skip("builds the hook through the pre-commit framework; skipped with -short")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("pre-commit is not installed")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: pre-commit's golang hooks need it")
	}
	start := time.Now()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf("the project has no .pre-commit-hooks.yaml: %v", err)
	}
	tmp := t.TempDir()
	e := newFwEnv(t, tmp)
	hookRepo := filepath.Join(tmp, "hookrepo")
	rev := snapshotProject(t, e, root, hookRepo)
	major, minor, version := preCommitVersion(t, e, tmp)
	t.Logf("%s; hook repository snapshot %s", version, rev[:12])

	// try-repo at commit time: a staged token fails the `tollgate` hook, a clean change passes.
	t.Run("try-repo", func(t *testing.T) {
		t0 := time.Now()
		dir := filepath.Join(tmp, "scratch")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		e.ok(dir, "git", "init", "-q")
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token.go")
		out, code := e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate", "--verbose")
		checkBlocked(t, "try-repo tollgate with a staged token", out, code)
		checkNoStageWarning(t, "try-repo tollgate", out)
		if !strings.Contains(out, "the staged change") {
			t.Errorf("try-repo tollgate: want a review of the staged change\n%s", out)
		}

		// the push entry, at commit time (no stages in the manifest), reviews the staged set too
		out, code = e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate-push", "--verbose")
		checkBlocked(t, "try-repo tollgate-push with a staged token", out, code)

		e.ok(dir, "git", "rm", "-q", "--cached", "token.go")
		if err := os.Remove(filepath.Join(dir, "token.go")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "clean.go"), "package main\n\nfunc add(a, b int) int { return a + b }\n")
		e.ok(dir, "git", "add", "clean.go")
		out, code = e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate", "--verbose")
		if code != 0 {
			t.Fatalf("try-repo tollgate with a clean change: exit %d\n%s", code, out)
		}
		if !strings.Contains(out, "Passed") || !strings.Contains(out, "found nothing") {
			t.Errorf("try-repo tollgate with a clean change: want Passed and the clean report\n%s", out)
		}
		t.Logf("try-repo: %s", time.Since(t0).Round(time.Millisecond))
	})

	// run --all-files and --files review what is committed in the index, not the empty staged
	// diff: a token committed earlier (past the hook) fails them.
	t.Run("all-files", func(t *testing.T) {
		dir := filepath.Join(tmp, "allfiles")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		e.ok(dir, "git", "init", "-q")
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		writeFile(t, filepath.Join(dir, "clean.go"), "package main\n\nfunc add(a, b int) int { return a + b }\n")
		e.ok(dir, "git", "add", "-A")
		e.ok(dir, "git", "commit", "-q", "--no-verify", "-m", "token committed past the hook")
		out, code := e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate", "--all-files", "--verbose")
		checkBlocked(t, "try-repo tollgate --all-files", out, code)
		out, code = e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate", "--files", "token.go", "--verbose")
		checkBlocked(t, "try-repo tollgate --files token.go", out, code)
		out, code = e.run(dir, "pre-commit", "try-repo", hookRepo, "tollgate", "--files", "clean.go", "--verbose")
		if code != 0 || strings.Contains(out, "secrets/github-pat") {
			t.Errorf("try-repo tollgate --files clean.go: exit %d, want a pass that does not look at token.go\n%s", code, out)
		}
	})

	// The push stage through `pre-commit install --hook-type pre-push` and real pushes.
	t.Run("pre-push", func(t *testing.T) {
		t0 := time.Now()
		stage := "pre-push"
		if major < 3 || (major == 3 && minor < 2) {
			stage = "push" // the only name before pre-commit 3.2
		}
		remote := filepath.Join(tmp, "remote.git")
		dir := filepath.Join(tmp, "pusher")
		e.ok(tmp, "git", "init", "-q", "--bare", remote)
		e.ok(tmp, "git", "init", "-q", dir)
		e.ok(dir, "git", "remote", "add", "origin", remote)
		config := "repos:\n- repo: " + hookRepo + "\n  rev: " + rev + "\n  hooks:\n  - id: tollgate-push\n    stages: [" + stage + "]\n"
		writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), config)
		e.ok(dir, "git", "add", ".pre-commit-config.yaml")
		e.ok(dir, "git", "commit", "-q", "-m", "pre-commit config")
		e.ok(dir, "pre-commit", "install", "--hook-type", "pre-push")
		remoteHead := func(ref string) string {
			out, code := e.run(remote, "git", "rev-parse", "--verify", "-q", ref)
			if code != 0 {
				return ""
			}
			return strings.TrimSpace(out)
		}

		// a clean first push (from the root commit) passes and lands
		out, code := e.run(dir, "git", "push", "origin", "main")
		if code != 0 {
			t.Fatalf("clean first push: exit %d\n%s", code, out)
		}
		checkNoStageWarning(t, "clean first push", out)
		head := strings.TrimSpace(e.ok(dir, "git", "rev-parse", "HEAD"))
		if got := remoteHead("refs/heads/main"); got != head {
			t.Fatalf("after the clean push the remote's main is %q, want %s", got, head)
		}

		// a token in a new commit blocks the push; the remote is unchanged
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token.go")
		e.ok(dir, "git", "commit", "-q", "-m", "token")
		out, code = e.run(dir, "git", "push", "origin", "main")
		checkBlocked(t, "push of a token commit", out, code)
		if got := remoteHead("refs/heads/main"); got != head {
			t.Fatalf("after the blocked push the remote's main is %q, want %s", got, head)
		}

		// removing it in a later commit of the same push does not help: the framework sees no
		// changed file, the hook still runs (always_run) and reviews each commit
		e.ok(dir, "git", "rm", "-q", "token.go")
		e.ok(dir, "git", "commit", "-q", "-m", "remove token")
		out, code = e.run(dir, "git", "push", "origin", "main")
		checkBlocked(t, "push of a token added and removed", out, code)
		if got := remoteHead("refs/heads/main"); got != head {
			t.Fatalf("after the blocked push the remote's main is %q, want %s", got, head)
		}

		// a new history from a root commit: pre-commit sets no FROM/TO refs then, only the
		// branch names; the push must still be reviewed and blocked
		e.ok(dir, "git", "checkout", "-q", "--orphan", "fresh")
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token.go", ".pre-commit-config.yaml")
		e.ok(dir, "git", "commit", "-q", "-m", "fresh root with a token")
		out, code = e.run(dir, "git", "push", "origin", "fresh")
		checkBlocked(t, "push of a new root commit with a token", out, code)
		if got := remoteHead("refs/heads/fresh"); got != "" {
			t.Fatalf("the blocked branch reached the remote at %s", got)
		}
		t.Logf("pre-push (stages: [%s]): %s", stage, time.Since(t0).Round(time.Millisecond))
	})

	// Both entries as the README shows them, with no stages: each change is reviewed once,
	// at commit time by `tollgate`, at push time by `tollgate-push`.
	t.Run("both-entries", func(t *testing.T) {
		remote := filepath.Join(tmp, "both-remote.git")
		dir := filepath.Join(tmp, "both")
		e.ok(tmp, "git", "init", "-q", "--bare", remote)
		e.ok(tmp, "git", "init", "-q", dir)
		e.ok(dir, "git", "remote", "add", "origin", remote)
		config := "repos:\n- repo: " + hookRepo + "\n  rev: " + rev + "\n  hooks:\n  - id: tollgate\n  - id: tollgate-push\n"
		writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), config)
		e.ok(dir, "pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "pre-push")
		e.ok(dir, "git", "add", ".pre-commit-config.yaml")
		e.ok(dir, "git", "commit", "-q", "-m", "pre-commit config")
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token.go")
		out, code := e.run(dir, "git", "commit", "-q", "-m", "token")
		checkBlocked(t, "commit with both entries", out, code)
		if n := strings.Count(out, "secrets/github-pat"); n != 1 {
			t.Errorf("commit with both entries: the finding is printed %d times, want once\n%s", n, out)
		}
		e.ok(dir, "git", "commit", "-q", "--no-verify", "-m", "token past the commit hook")
		out, code = e.run(dir, "git", "push", "origin", "HEAD:main")
		checkBlocked(t, "push with both entries", out, code)
		if n := strings.Count(out, "secrets/github-pat"); n != 1 {
			t.Errorf("push with both entries: the finding is printed %d times, want once\n%s", n, out)
		}
	})
	// The commit-msg stage (a stage name every release knows): the tollgate-commit-msg entry
	// reviews the message file the framework passes; the `tollgate` entry with no stages, run
	// at that stage too, leaves it to that entry (printed once), and alone reviews it itself.
	t.Run("commit-msg", func(t *testing.T) {
		for _, ids := range [][]string{{"tollgate", "tollgate-commit-msg"}, {"tollgate"}} {
			dir := filepath.Join(tmp, "msg-"+strings.Join(ids, "-"))
			e.ok(tmp, "git", "init", "-q", dir)
			config := "repos:\n- repo: " + hookRepo + "\n  rev: " + rev + "\n  hooks:\n"
			for _, id := range ids {
				config += "  - id: " + id + "\n"
			}
			writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), config)
			e.ok(dir, "pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "commit-msg")
			e.ok(dir, "git", "add", ".pre-commit-config.yaml")
			out, code := e.run(dir, "git", "commit", "-q", "-m", "config", "-m", "deploy token "+fakeToken)
			if code == 0 || strings.Count(out, "secrets/github-pat") != 1 || !strings.Contains(out, "(commit message)") || strings.Contains(out, fakeToken) {
				t.Errorf("%v: a token in the message: exit %d, want it blocked and reported once, masked\n%s", ids, code, out)
			}
			out, code = e.run(dir, "git", "commit", "-q", "-m", "config", "-m", "the token is read from GITHUB_TOKEN")
			if code != 0 {
				t.Errorf("%v: a message about tokens: exit %d, want it committed\n%s", ids, code, out)
			}
		}
	})
	// A skip is visible through the framework: the manifest's verbose: true shows tollgate's
	// TOLLGATE=0 warning beside `Passed` (the framework hides a passing hook's output
	// otherwise), and the framework's own SKIP=tollgate prints `Skipped`. A clean commit shows
	// what was checked.
	t.Run("skip-visible", func(t *testing.T) {
		dir := filepath.Join(tmp, "skip")
		e.ok(tmp, "git", "init", "-q", dir)
		config := "repos:\n- repo: " + hookRepo + "\n  rev: " + rev + "\n  hooks:\n  - id: tollgate\n"
		writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), config)
		e.ok(dir, "pre-commit", "install", "--hook-type", "pre-commit")
		e.ok(dir, "git", "add", ".pre-commit-config.yaml")
		out := e.ok(dir, "git", "commit", "-q", "-m", "pre-commit config")
		if !strings.Contains(out, "found nothing") {
			t.Errorf("clean commit: want tollgate's summary line shown\n%s", out)
		}
		writeFile(t, filepath.Join(dir, "token.go"), "package main\n\nconst token = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token.go")
		out, code := e.runEnv(dir, []string{"TOLLGATE=0"}, "git", "commit", "-q", "-m", "token, skipped")
		if code != 0 || !strings.Contains(out, "Passed") || !strings.Contains(out, "TOLLGATE=0 set: the pre-commit review was SKIPPED") {
			t.Errorf("TOLLGATE=0 commit: exit %d, want it committed with the skip warning shown\n%s", code, out)
		}
		writeFile(t, filepath.Join(dir, "token2.go"), "package main\n\nconst token2 = \""+fakeToken+"\"\n")
		e.ok(dir, "git", "add", "token2.go")
		out, code = e.runEnv(dir, []string{"SKIP=tollgate"}, "git", "commit", "-q", "-m", "token, skipped by the framework")
		if code != 0 || !regexp.MustCompile(`tollgate\.+\(no files to check\)Skipped|tollgate\.+Skipped`).MatchString(out) {
			t.Errorf("SKIP=tollgate commit: exit %d, want it committed and shown as Skipped\n%s", code, out)
		}
	})
	t.Logf("pre-commit framework test: %s", time.Since(start).Round(time.Millisecond))
}
