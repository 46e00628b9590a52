package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// Process gate. This file is the only place in the module that starts a process. A program
// runs only if its name is on the allow list: git always; anything else only after the
// compiled policy allowed it (enabled external scanners, an enabled agent CLI).

var (
	allowMu sync.Mutex
	allowed = map[string]bool{"git": true}
)

// AllowProgram adds a program name (never a path) to the allow list. It is called with names
// from the compiled policy only.
func AllowProgram(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("program %q: only bare names from the policy may run", name)
	}
	allowMu.Lock()
	defer allowMu.Unlock()
	allowed[name] = true
	return nil
}

func isAllowed(name string) bool {
	allowMu.Lock()
	defer allowMu.Unlock()
	return allowed[name]
}

// Cmd describes one process run.
type Cmd struct {
	Name    string    // bare program name, looked up on PATH
	Args    []string  // argv after the name
	Dir     string    // working directory
	Env     []string  // the complete environment; nothing is inherited implicitly
	Stdin   io.Reader // nil: stdin is closed (reads see EOF)
	Timeout time.Duration
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
	return fmt.Sprintf("%s exited with status %d: %s", e.Name, e.Code, msg)
}

// ErrNotAllowed is returned for a program the policy did not name.
var ErrNotAllowed = errors.New("program not allowed by policy")

// LookPath reports where an allowed program is found on PATH.
func LookPath(name string) (string, error) {
	if !isAllowed(name) {
		return "", fmt.Errorf("%s: %w", name, ErrNotAllowed)
	}
	return exec.LookPath(name)
}

// Run starts an allowed program and returns its stdout. A non-zero exit is an *ExitError
// (stdout is still returned); a timeout is context.DeadlineExceeded.
func Run(ctx context.Context, c Cmd) ([]byte, error) {
	if !isAllowed(c.Name) {
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
	cmd.Env = slices.Clone(c.Env)
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin = c.Stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return stdout.Bytes(), fmt.Errorf("%s did not finish: %w", c.Name, ctx.Err())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.Bytes(), &ExitError{Name: c.Name, Code: ee.ExitCode(), Stderr: stderr.String()}
	}
	if err != nil {
		return stdout.Bytes(), fmt.Errorf("failed to run %s: %w", c.Name, err)
	}
	return stdout.Bytes(), nil
}
