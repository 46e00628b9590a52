package policy

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
)

// Process gate. This file is the only place in the module that starts a process, and only
// through a Procs value: a program runs only if its name is on that gate's allow list: git
// always; anything else only after the compiled policy allowed it there (enabled external
// scanners, an enabled agent CLI). There is no package-level gate: whoever starts processes is
// handed one, as the network gate (policy/egress) is handed to whoever sends. The one other
// process is Handoff's: the full tollgate binary beside the lean guard binary, found by the
// executable's own location, never by a name from a config.

// Procs is a process gate: its allow list of programs and the variables marked secret for
// every process it starts. Its methods are safe for concurrent use.
type Procs struct {
	mu        sync.Mutex
	allowed   map[string]bool
	secretEnv map[string]bool
}

// NewProcs returns a gate that allows git only.
func NewProcs() *Procs {
	return &Procs{allowed: map[string]bool{"git": true}, secretEnv: map[string]bool{}}
}

// Allow adds a program name (never a path) to the allow list. It is called with names from
// the compiled policy only.
func (g *Procs) Allow(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("program %q: only bare names from the policy may run", name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.allowed[name] = true
	return nil
}

func (g *Procs) isAllowed(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.allowed[name]
}

// Cmd describes one process run.
type Cmd struct {
	Name  string    // bare program name, looked up on PATH
	Args  []string  // argv after the name
	Dir   string    // working directory
	Env   []string  // the complete environment; nothing is inherited implicitly
	Stdin io.Reader // nil: stdin is closed (reads see EOF)
	// Stdout, if not nil, receives the program's output as it comes (Run then returns none):
	// a large output is never held twice.
	Stdout  io.Writer
	Timeout time.Duration
	// KeepEnv names variables that pass although they look like credentials (an agent CLI's
	// own key, named by the user config). Everything else that looks like one is removed.
	KeepEnv []string
	// OnlyEnv, if not nil, is an allow list: only these variables pass (a name, or a prefix
	// ending in "*"), plus KeepEnv. An agent CLI gets this minimal environment.
	OnlyEnv []string
}

// onlyEnv keeps the variables that allow names exactly, those matching one of its prefixes
// that do not look like credentials, and keep.
func (g *Procs) onlyEnv(env, allow, keep []string) []string {
	out := make([]string, 0, len(allow))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		ok := slices.Contains(keep, k)
		for _, a := range allow {
			if p, wild := strings.CutSuffix(a, "*"); wild && strings.HasPrefix(k, p) {
				ok = ok || !g.credentialEnv(k) // a prefix never lets a credential through
			} else if a == k {
				ok = true // named exactly by the caller: a config variable, never a key
			}
		}
		if ok {
			out = append(out, kv)
		}
	}
	return out
}

// MarkSecretEnv names an environment variable that holds a secret (model.api_key_env): no
// process of this gate gets it unless its Cmd keeps it explicitly.
func (g *Procs) MarkSecretEnv(name string) {
	if name == "" {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.secretEnv[name] = true
}

func (g *Procs) marked(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.secretEnv[name]
}

// credentialEnv reports a variable name that is marked secret or looks like it holds a
// credential.
func (g *Procs) credentialEnv(name string) bool {
	return g.marked(name) || looksCredential(name)
}

// looksCredential reports a variable name that looks like it holds a credential.
func looksCredential(name string) bool {
	u := strings.ToUpper(name)
	for _, p := range []string{"OPENAI_", "ANTHROPIC_", "GEMINI_", "GOOGLE_API", "GOOGLE_APPLICATION_CREDENTIALS", "AWS_", "AZURE_", "MISTRAL_", "COHERE_", "GROQ_", "HF_", "HUGGINGFACE", "CLAUDE_", "CODEX_", "GH_", "GITHUB_TOKEN", "GITLAB_", "NPM_TOKEN", "PYPI_"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	words := strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	for i, w := range words {
		switch w {
		case "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PWD", "CREDENTIAL", "CREDENTIALS", "AUTH", "APIKEY", "PAT":
			return w != "PWD" || i > 0 // $PWD is the working directory
		case "KEY":
			if i > 0 {
				switch words[i-1] {
				case "API", "ACCESS", "PRIVATE", "SESSION", "SECRET", "SIGNING", "ENCRYPTION", "MASTER", "LICENSE":
					return true
				}
			}
		}
	}
	return false
}

// scrubEnv drops every variable that looks like a credential unless keep names it.
func (g *Procs) scrubEnv(env, keep []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if g.credentialEnv(k) && !slices.Contains(keep, k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// ExitError is a process that ran and exited non-zero.
type ExitError struct {
	Name   string
	Code   int
	Stderr string
}

func (e *ExitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		return fmt.Sprintf("%s exited with status %d", e.Name, e.Code)
	}
	return fmt.Sprintf("%s exited with status %d: %s", e.Name, e.Code, msg)
}

// ErrNotAllowed is returned for a program the policy did not name.
var ErrNotAllowed = errors.New("program not allowed by policy")

// LookPath reports where an allowed program is found on PATH.
func (g *Procs) LookPath(name string) (string, error) {
	if !g.isAllowed(name) {
		return "", fmt.Errorf("%s: %w", name, ErrNotAllowed)
	}
	return exec.LookPath(name)
}

// Run starts an allowed program and returns its stdout (nothing when c.Stdout takes it). A
// non-zero exit is an *ExitError
// (stdout is still returned); a timeout is context.DeadlineExceeded.
func (g *Procs) Run(ctx context.Context, c Cmd) ([]byte, error) {
	if !g.isAllowed(c.Name) {
		return nil, fmt.Errorf("%s: %w", c.Name, ErrNotAllowed)
	}
	path, err := exec.LookPath(c.Name)
	if err != nil {
		return nil, fmt.Errorf("failed to find %s: %w", c.Name, err)
	}
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = g.scrubEnv(c.Env, c.KeepEnv)
	if c.OnlyEnv != nil {
		cmd.Env = g.onlyEnv(c.Env, c.OnlyEnv, c.KeepEnv)
	}
	cmd.Stdin = c.Stdin
	var stdout outputBuffer
	var stderr bytes.Buffer
	cmd.Stdout = &stdout
	if c.Stdout != nil {
		cmd.Stdout = c.Stdout
	}
	cmd.Stderr = &stderr
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	out := stdout.Bytes(err == nil && ctx.Err() == nil)
	if ctx.Err() != nil {
		return out, fmt.Errorf("%s did not finish: %w", c.Name, ctx.Err())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out, &ExitError{Name: c.Name, Code: ee.ExitCode(), Stderr: stderr.String()}
	}
	if err != nil {
		return out, fmt.Errorf("failed to run %s: %w", c.Name, err)
	}
	return out, nil
}

// FullName is the file name of the full tollgate binary that the lean guard binary
// (tollgate-guard) hands calls to; it must sit in the same directory.
var FullName = "tollgate" + exeSuffix()

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// FullTollgate finds the full tollgate binary beside the running executable (symbolic links
// resolved) and reports whether it is the same build (module version, checksum and VCS revision as
// recorded by the Go toolchain): a lean guard must not judge calls by older or newer rules
// than the binary it hands the rest to.
func FullTollgate() (sameBuild bool, err error) {
	path, err := fullPath()
	if err != nil {
		return false, err
	}
	other, err := buildinfo.ReadFile(path)
	if err != nil {
		return false, nil
	}
	self, ok := debug.ReadBuildInfo()
	return ok && buildKey(self) == buildKey(other), nil
}

func fullPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("failed to find this executable: %w", err)
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	path := filepath.Join(filepath.Dir(self), FullName)
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("failed to find %s beside %s: %w", FullName, self, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("failed to find %s beside %s: not a regular file", FullName, self)
	}
	return path, nil
}

// buildKey is what identifies a build of this module.
func buildKey(bi *debug.BuildInfo) string {
	key := bi.Main.Path + " " + bi.Main.Version + " " + bi.Main.Sum
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			key += " " + s.Key + "=" + s.Value
		}
	}
	return key
}

// Handoff runs the full tollgate beside this executable (FullTollgate) with args, input on its
// stdin, its stdout and stderr passed through and the environment inherited (it is the same
// tool), and returns its exit code. It runs that one program only: nothing from a config can
// name it.
func Handoff(ctx context.Context, args []string, input []byte, stdout, stderr io.Writer) (int, error) {
	path, err := fullPath()
	if err != nil {
		return 0, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, fmt.Errorf("failed to run %s: %w", path, err)
	}
	return 0, nil
}
