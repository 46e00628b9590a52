package policy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The tests allow "sh" only; "true" and others stay off the list.

func allowSh(t *testing.T) *Procs {
	t.Helper()
	g := NewProcs()
	if err := g.Allow("sh"); err != nil {
		t.Fatal(err)
	}
	return g
}

func pathEnv() []string { return []string{"PATH=" + os.Getenv("PATH")} }

func TestRunRefusesUnlistedPrograms(t *testing.T) {
	g := NewProcs()
	for _, name := range []string{"true", "sh.exe", "/bin/sh", "./sh", "", "SH"} {
		out, err := g.Run(context.Background(), Cmd{Name: name, Env: pathEnv()})
		if !errors.Is(err, ErrNotAllowed) || out != nil {
			t.Errorf("Run(%q) = %q, %v; want ErrNotAllowed", name, out, err)
		}
		if _, err := g.LookPath(name); !errors.Is(err, ErrNotAllowed) {
			t.Errorf("g.LookPath(%q) error = %v, want ErrNotAllowed", name, err)
		}
	}
}

func TestAllowProgramRefusesPaths(t *testing.T) {
	g := NewProcs()
	for _, name := range []string{"", "/bin/sh", "./sh", "bin/sh", `..\sh`, `C:\sh.exe`} {
		if err := g.Allow(name); err == nil {
			t.Errorf("AllowProgram(%q) succeeded", name)
		}
		if g.isAllowed(name) {
			t.Errorf("%q is on the allow list after a refused AllowProgram", name)
		}
	}
	// A refused path stays refused by Run, even for a program that exists.
	if _, err := g.Run(context.Background(), Cmd{Name: "/bin/sh", Args: []string{"-c", "true"}}); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("Run(/bin/sh) error = %v, want ErrNotAllowed", err)
	}
	// git is always allowed.
	if !g.isAllowed("git") {
		t.Error("git is not on the allow list")
	}
}

func TestRunOutputAndExitError(t *testing.T) {
	g := allowSh(t)
	out, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "echo out; echo first >&2; echo second >&2; exit 7"}, Env: pathEnv()})
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v (%T) is not an *ExitError", err, err)
	}
	if ee.Code != 7 || ee.Name != "sh" || ee.Stderr != "first\nsecond\n" {
		t.Errorf("ExitError = %+v, want code 7, name sh, both stderr lines", ee)
	}
	if msg := ee.Error(); !strings.Contains(msg, "status 7") || !strings.Contains(msg, "first") || strings.Contains(msg, "second") {
		t.Errorf("ExitError.Error() = %q, want the status and the first stderr line only", msg)
	}
	if string(out) != "out\n" {
		t.Errorf("stdout = %q, want it returned with the exit error", out)
	}

	out, err = g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", `printf '%s|' "$0" "$@"`, "zero", "a b", "$HOME", "*"}, Env: pathEnv()})
	if err != nil || string(out) != "zero|a b|$HOME|*|" {
		t.Errorf("arguments: out = %q, %v; want them passed verbatim, unexpanded", out, err)
	}

	// stdin: closed when nil, else the reader.
	out, err = g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "cat; echo end"}, Env: pathEnv(), Timeout: 5 * time.Second})
	if err != nil || string(out) != "end\n" {
		t.Errorf("nil stdin: out = %q, %v", out, err)
	}
	out, err = g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "cat"}, Env: pathEnv(), Stdin: strings.NewReader("in\n")})
	if err != nil || string(out) != "in\n" {
		t.Errorf("stdin: out = %q, %v", out, err)
	}

	// Dir is the working directory.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out, err = g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "pwd -P"}, Dir: dir, Env: pathEnv()})
	if err != nil || strings.TrimSpace(string(out)) != dir {
		t.Errorf("pwd = %q, %v; want %q", out, err, dir)
	}
}

func TestRunEnvironmentIsOnlyWhatIsPassed(t *testing.T) {
	g := allowSh(t)
	t.Setenv("TOLLGATE_TEST_LEAK", "parent-only")
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "TOLLGATE_CHILD=yes", "LC_ALL=C"}
	out, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "env"}, Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, kv := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	sort.Strings(names)
	// The shell itself may export PWD (and some shells SHLVL and _); nothing else may appear.
	shell := map[string]bool{"PWD": true, "SHLVL": true, "_": true, "OLDPWD": true}
	want := map[string]bool{"PATH": true, "TOLLGATE_CHILD": true, "LC_ALL": true}
	for _, n := range names {
		if !want[n] && !shell[n] {
			t.Errorf("child saw %q, which was not passed (env: %v)", n, names)
		}
		delete(want, n)
	}
	for n := range want {
		t.Errorf("child did not see %q", n)
	}
	if strings.Contains(string(out), "parent-only") {
		t.Error("the parent's environment leaked into the child")
	}

	// A nil Env is an empty environment, not the parent's.
	out, err = g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", `echo "${TOLLGATE_TEST_LEAK-unset}"`}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(out)) != "unset" {
		t.Errorf("nil Env: the child saw TOLLGATE_TEST_LEAK=%q", strings.TrimSpace(string(out)))
	}
	// The caller's slice is not modified.
	if len(env) != 3 || env[1] != "TOLLGATE_CHILD=yes" {
		t.Errorf("Run modified the caller's env: %v", env)
	}
}

func TestRunTimeout(t *testing.T) {
	g := allowSh(t)
	start := time.Now()
	_, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "exec sleep 10"}, Env: pathEnv(), Timeout: 100 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Run took %v after a 100ms timeout", d)
	}
	// A cancelled context is an error too, never a success.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Run(ctx, Cmd{Name: "sh", Args: []string{"-c", "true"}, Env: pathEnv()}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error = %v, want context.Canceled", err)
	}
}

// A child that leaves a grandchild holding stdout still returns (WaitDelay, about 2s).
func TestRunTimeoutGrandchild(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for WaitDelay")
	}
	t.Parallel()
	g := allowSh(t)
	start := time.Now()
	_, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "sleep 10; echo never"}, Env: pathEnv(), Timeout: 100 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("Run took %v after a 100ms timeout with a grandchild", d)
	}
}

func TestRunMissingProgram(t *testing.T) {
	g := NewProcs()
	name := "tollgate-test-no-such-program"
	if err := g.Allow(name); err != nil {
		t.Fatal(err)
	}
	_, err := g.Run(context.Background(), Cmd{Name: name, Env: pathEnv()})
	if err == nil || errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), "failed to find") {
		t.Errorf("Run(missing) error = %v, want a lookup failure", err)
	}
}

func TestRunScrubsCredentialEnv(t *testing.T) {
	g := NewProcs()
	if err := g.Allow("sh"); err != nil {
		t.Fatal(err)
	}
	g.MarkSecretEnv("MY_LLM")
	env := []string{"PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=sk-1", "GITHUB_TOKEN=ghp_x", "MY_LLM=k", "DB_PASSWORD=p",
		"GIT_AUTHOR_NAME=Ann", "KEEP_TOKEN=kept", "HOME=/tmp"}
	out, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "env"}, Env: env, KeepEnv: []string{"KEEP_TOKEN"}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, gone := range []string{"OPENAI_API_KEY", "GITHUB_TOKEN", "MY_LLM", "DB_PASSWORD"} {
		if strings.Contains(got, gone+"=") {
			t.Errorf("%s reached the process:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"GIT_AUTHOR_NAME=Ann", "KEEP_TOKEN=kept", "HOME=/tmp"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s was dropped:\n%s", kept, got)
		}
	}
}

func TestRunOnlyEnvIsAnAllowList(t *testing.T) {
	g := NewProcs()
	if err := g.Allow("sh"); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=/tmp", "LANG=C.UTF-8", "LC_ALL=C", "XDG_CONFIG_HOME=/tmp/x",
		"PGPASSWORD=pw", "DATABASE_URL=postgres://app:pw@db/app", "SOPS_AGE_KEY=AGE-SECRET-KEY-1X", "NGROK_AUTHTOKEN=n",
		"SENTRY_DSN=https://k@o1.ingest.sentry.io/1", "CI_JOB_JWT=eyJ", "XDG_TOKEN=t", "MY_KEY=k"}
	out, err := g.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "env"}, Env: env,
		OnlyEnv: []string{"PATH", "HOME", "LANG", "LC_*", "XDG_*"}, KeepEnv: []string{"MY_KEY"}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, gone := range []string{"PGPASSWORD", "DATABASE_URL", "SOPS_AGE_KEY", "NGROK_AUTHTOKEN", "SENTRY_DSN", "CI_JOB_JWT", "XDG_TOKEN"} {
		if strings.Contains(got, gone+"=") {
			t.Errorf("%s reached the process:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"HOME=/tmp", "LANG=C.UTF-8", "LC_ALL=C", "XDG_CONFIG_HOME=/tmp/x", "MY_KEY=k"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s was dropped:\n%s", kept, got)
		}
	}
}

// TestProcsAreValues: a gate allows only what was allowed on it, and marks secret only what
// was marked on it: there is no package-level allow list.
func TestProcsAreValues(t *testing.T) {
	a, b := allowSh(t), NewProcs()
	if _, err := b.Run(context.Background(), Cmd{Name: "sh", Args: []string{"-c", "true"}, Env: pathEnv()}); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("sh allowed on one gate runs on another: %v", err)
	}
	a.MarkSecretEnv("TOLLGATE_TEST_ONLY_A")
	if !a.credentialEnv("TOLLGATE_TEST_ONLY_A") || b.credentialEnv("TOLLGATE_TEST_ONLY_A") {
		t.Error("a variable marked secret on one gate is not exactly that gate's")
	}
}
