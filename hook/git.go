package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/policy"
)

// gitTimeout bounds any single git call.
const gitTimeout = 5 * time.Minute

// hardening is passed before every git subcommand: user config can not change the output.
var hardening = []string{
	"-c", "color.ui=never",
	"-c", "color.diff=never",
	"-c", "core.quotepath=off",
	"-c", "core.pager=cat",
	"-c", "diff.noprefix=false",
	"-c", "diff.mnemonicPrefix=false",
	"-c", "diff.relative=false",
	"-c", "diff.external=",
	"-c", "diff.renames=true",
	"-c", "diff.ignoreSubmodules=none",
	"-c", "core.fsmonitor=false",
	"-c", "log.showSignature=false",
	// git's diff of a large file costs tens of times its size in memory: above this size a
	// file's diff is shown as binary, and the file is read again as text (see addedText).
	"-c", "core.bigFileThreshold=" + bigFileThreshold,
	"--no-pager",
	"--no-replace-objects",
}

// diffFlags are added to every diff-producing command.
var diffFlags = []string{
	"--no-color", "--no-ext-diff", "--no-textconv",
	"--src-prefix=a/", "--dst-prefix=b/",
	"--no-relative", "--ignore-submodules=none",
	"--diff-algorithm=myers", "--inter-hunk-context=0", "--indent-heuristic",
}

// droppedEnv are environment variables that could redirect git's output or run programs.
var droppedEnv = []string{
	"GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "GIT_DIFF_OPTS", "GIT_TRACE", "GIT_TRACE2",
	"GIT_TRACE2_EVENT", "GIT_TRACE2_PERF", "GIT_TRACE_PACKET", "GIT_TRACE_PERFORMANCE",
	"GIT_TRACE_SETUP", "GIT_TRACE_CURL", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_DIFF_PATH_COUNTER", "GIT_DIFF_PATH_TOTAL", "GIT_NOGLOB_PATHSPECS", "GIT_GLOB_PATHSPECS",
	"GIT_ICASE_PATHSPECS", "GIT_LITERAL_PATHSPECS", "GIT_NO_LAZY_FETCH",
}

// mallocTunables are glibc's malloc settings for git (GLIBC_TUNABLES; other C libraries ignore
// them). By default glibc gives the top of the heap back to the kernel whenever more than
// 128 KiB of it is free, and git's diff allocates and frees a file's buffers for every file: on
// a long history most of a `diff-tree`'s system time was the heap shrunk (brk, a TLB flush)
// and grown again, its pages faulted in anew each time (flask's history in one process: 48k
// page faults and 0.7 s of system time, against 22k and 0.3 s with these). A heap that keeps
// 16 MiB spare at its top, and takes buffers of up to 4 MiB from it rather than mapping each
// one, stops that; it changes no output. A user's own GLIBC_TUNABLES come after these and win.
const mallocTunables = "glibc.malloc.top_pad=16777216:glibc.malloc.mmap_threshold=4194304"

// Git runs git in one directory, through its process gate.
type Git struct {
	Dir string
	// Procs is the process gate git runs through (NewGit: a gate of its own; a caller that
	// marks variables secret shares its gate here).
	Procs *policy.Procs
	env   []string
	// global are options given before every subcommand (after the hardening), e.g. an
	// explicit --git-dir and --work-tree.
	global []string
}

// NewGit returns a runner for dir with the hardened environment.
func NewGit(dir string) *Git {
	var env []string
	tunables := "GLIBC_TUNABLES=" + mallocTunables
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case dropped(k):
			continue
		case k == "GLIBC_TUNABLES":
			if v != "" {
				tunables += ":" + v
			}
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		tunables,
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_LITERAL_PATHSPECS=1",
		"LC_ALL=C",
		"GIT_CONFIG_COUNT=0",
		// A partial clone never fetches during a review: a missing object is unreadable.
		"GIT_NO_LAZY_FETCH=1",
	)
	return &Git{Dir: dir, Procs: policy.NewProcs(), env: env}
}

// detached returns a runner for the repository whose git directory is gitDir with workTree (an
// empty directory) as its work tree, run from inside it. git can then never satisfy an object
// from a work-tree file: `diff-index --cached` otherwise reads an index entry's content from
// the work tree whenever the file there looks unchanged (same size, mtime, inode), which a
// file overwritten in place can fake. A relative GIT_INDEX_FILE (as `git commit -- path`
// sets it) is resolved against root, where git would have resolved it.
func (g *Git) detached(gitDir, workTree, root string) *Git {
	env := make([]string, 0, len(g.env))
	for _, kv := range g.env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "GIT_DIR" || k == "GIT_WORK_TREE":
			continue
		case k == "GIT_INDEX_FILE" && v != "" && !filepath.IsAbs(v):
			kv = k + "=" + filepath.Join(root, v)
		}
		env = append(env, kv)
	}
	return &Git{Dir: workTree, Procs: g.Procs, env: env, global: []string{"--git-dir=" + gitDir, "--work-tree=" + workTree}}
}

func dropped(k string) bool {
	for _, d := range droppedEnv {
		if k == d {
			return true
		}
	}
	return strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_")
}

// GitError is a failed git call.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// run runs git and returns its output. sub is the subcommand and its arguments.
func (g *Git) run(ctx context.Context, stdin io.Reader, sub ...string) ([]byte, error) {
	return g.runTo(ctx, stdin, nil, sub...)
}

// runTo is the one place git is started: its output goes to stdout as it comes, or (stdout
// nil) is returned. sub is the subcommand and its arguments.
func (g *Git) runTo(ctx context.Context, stdin io.Reader, stdout io.Writer, sub ...string) ([]byte, error) {
	argv := make([]string, 0, len(hardening)+len(g.global)+len(sub))
	argv = append(argv, hardening...)
	argv = append(argv, g.global...)
	argv = append(argv, sub...)
	out, err := g.Procs.Run(ctx, policy.Cmd{
		Name: "git", Args: argv, Dir: g.Dir, Env: g.env, Stdin: stdin, Stdout: stdout, Timeout: gitTimeout,
	})
	if err != nil {
		var ee *policy.ExitError
		stderr := ""
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		return out, &GitError{Args: sub, Stderr: stderr, Err: err}
	}
	return out, nil
}

// output runs a git command and returns stdout without the final newline.
func (g *Git) output(ctx context.Context, sub ...string) (string, error) {
	out, err := g.run(ctx, nil, sub...)
	return strings.TrimRight(string(out), "\n"), err
}

// exitCode returns the exit code of a git error, or -1.
func exitCode(err error) int {
	var ee *policy.ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return -1
}

// splitZ splits NUL-terminated output.
func splitZ(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte{0})
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\x00")
}
