package hook

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/internal/shellword"
)

//go:embed shim.sh
var shimTemplate string

// Marker is the line that identifies a tollgate-managed hook.
const Marker = ">>> tollgate managed hook: do not edit; `tollgate uninstall` removes it <<<"

// chainedSuffix names the kept copy of a hook that existed before install.
const chainedSuffix = ".tollgate-chained"

// Hooks are the hook names tollgate can install. pre-merge-commit and commit-msg go with
// pre-commit: a merge made by `git merge` creates a commit without running pre-commit, and the
// message being committed exists only for commit-msg.
var Hooks = []string{"pre-commit", "pre-merge-commit", "commit-msg", "pre-push"}

// ErrHooksPath is returned when core.hooksPath points elsewhere and --force was not given.
var ErrHooksPath = errors.New("core.hooksPath is set")

// shellQuote quotes s for POSIX sh.
var shellQuote = shellword.Quote

// Shim renders the hook script for one hook and binary path.
func Shim(hook, bin string) string {
	stdin := ""
	if hook == "pre-push" || hook == "pre-receive" {
		// git's ref lines go to the chained hook and to tollgate: read them once into a
		// variable (no temp file to fail or to land in the repository); the final "." keeps
		// the last newline, and a failed read blocks the push.
		stdin = `if [ -x "$chained" ] && [ -z "$nested" ]; then
	replay=$(cat && echo .) || { echo "tollgate: error: failed to read git's ref lines for $hook_name; blocking it" >&2; exit 1; }
	replay=${replay%.}
	have_replay=1
fi`
	}
	r := strings.NewReplacer("{{HOOK}}", hook, "{{BIN}}", shellQuote(fspath.Host.Slash(bin)), "{{STDIN}}", stdin, "{{REVIEW_FIRST}}", map[bool]string{true: "1"}[ReviewFirst(hook)])
	return r.Replace(shimTemplate)
}

// IsManaged reports whether a hook file's content is a tollgate shim.
func IsManaged(content []byte) bool { return bytes.Contains(content, []byte(Marker)) }

// InstallOptions configure Install.
type InstallOptions struct {
	Hooks  []string
	Force  bool
	Binary string // absolute path of the installing binary
}

// HooksPathConfig returns core.hooksPath as configured, or "".
func (r *Repo) HooksPathConfig(ctx context.Context) (string, error) {
	var (
		config = "config"
		get    = "--get"
		key    = "core.hooksPath"
	)
	out, err := r.Git.output(ctx, config, get, key)
	if err != nil {
		if exitCode(err) == 1 {
			return "", nil
		}
		return "", err
	}
	return out, nil
}

// defaultHooksDir is $GIT_COMMON_DIR/hooks.
func (r *Repo) defaultHooksDir() string { return filepath.Join(r.CommonDir, "hooks") }

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// Install writes the shims into the hooks directory git uses. It returns one line per action.
func (r *Repo) Install(ctx context.Context, o InstallOptions) ([]string, error) {
	hp, err := r.HooksPathConfig(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.checkManaged(hp, o); err != nil {
		return nil, err
	}
	if hp != "" && !samePath(r.HooksDir, r.defaultHooksDir()) && !o.Force {
		return nil, fmt.Errorf("%w to %q (hooks run from %s, probably another hook manager's): %w",
			ErrHooksPath, hp, r.HooksDir, errors.New("refusing to install there without --force"))
	}
	if err := os.MkdirAll(r.HooksDir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create hooks directory: %w", err)
	}
	var msgs []string
	for _, h := range o.Hooks {
		msg, err := r.installOne(h, o)
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, msg)
	}
	return msgs, nil
}

func (r *Repo) installOne(hook string, o InstallOptions) (string, error) {
	path := filepath.Join(r.HooksDir, hook)
	chained := path + chainedSuffix
	shim := Shim(hook, o.Binary)
	cur, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// A dangling symlink or unreadable file: never overwrite what we cannot read.
		if _, lerr := os.Lstat(path); lerr == nil {
			exists = true
		} else {
			return "", fmt.Errorf("failed to read %s: %w", path, err)
		}
	}
	msg := fmt.Sprintf("installed %s hook: %s", hook, path)
	switch {
	case exists && IsManaged(cur):
		if string(cur) == shim {
			if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o111 != 0 {
				return fmt.Sprintf("%s hook already installed: %s", hook, path), nil
			}
		}
		msg = fmt.Sprintf("updated %s hook: %s", hook, path)
	case exists:
		if _, err := os.Lstat(chained); err == nil {
			return "", fmt.Errorf("failed to install %s hook: %s exists and so does %s; move one of them away first (nothing was changed)", hook, path, chained)
		}
		if err := os.Rename(path, chained); err != nil {
			return "", fmt.Errorf("failed to keep existing %s hook: %w", hook, err)
		}
		msg = fmt.Sprintf("installed %s hook: %s (the existing hook was kept as %s and %s)", hook, path, filepath.Base(chained), chainedOrder(hook))
	}
	if err := writeAtomic(path, []byte(shim), 0o755); err != nil {
		return "", fmt.Errorf("failed to write %s hook: %w", hook, err)
	}
	return msg, nil
}

func writeAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
}

// Uninstall removes tollgate's shims and restores hooks that install set aside.
func (r *Repo) Uninstall(ctx context.Context) ([]string, error) {
	var msgs []string
	for _, hook := range append(append([]string{}, Hooks...), ServerHooks...) {
		path := filepath.Join(r.HooksDir, hook)
		chained := path + chainedSuffix
		cur, err := os.ReadFile(path)
		switch {
		case err == nil && IsManaged(cur):
			if err := os.Remove(path); err != nil {
				return msgs, fmt.Errorf("failed to remove %s: %w", path, err)
			}
			msg := fmt.Sprintf("removed %s hook: %s", hook, path)
			if _, err := os.Lstat(chained); err == nil {
				if err := os.Rename(chained, path); err != nil {
					return msgs, fmt.Errorf("failed to restore %s: %w", chained, err)
				}
				msg += " (restored the hook it had kept)"
			}
			msgs = append(msgs, msg)
		case err == nil:
			msgs = append(msgs, fmt.Sprintf("%s hook is not tollgate's; left alone: %s", hook, path))
		}
	}
	if len(msgs) == 0 {
		msgs = append(msgs, "no tollgate hooks installed in "+r.HooksDir)
	}
	return msgs, nil
}

// HookState describes one hook for status.
type HookState struct {
	Name      string
	Path      string
	Installed bool   // a tollgate shim
	Foreign   bool   // a hook that is not tollgate's
	Binary    string // the binary the shim names
	Outdated  bool   // a tollgate shim, but not the one this version writes
	// BinaryGone: a tollgate shim whose binary is no longer there (or not executable); the
	// shim then falls back to tollgate on PATH, or blocks.
	BinaryGone bool
	Chained    bool // a kept earlier hook runs first
}

// HookStates reports each hook tollgate manages.
func (r *Repo) HookStates() []HookState {
	var out []HookState
	names := Hooks
	if r.Bare {
		names = ServerHooks
	} else if _, err := os.Lstat(filepath.Join(r.HooksDir, ServerHooks[0])); err == nil {
		names = append(append([]string{}, Hooks...), ServerHooks...)
	}
	for _, hook := range names {
		path := filepath.Join(r.HooksDir, hook)
		st := HookState{Name: hook, Path: path}
		if cur, err := os.ReadFile(path); err == nil {
			st.Installed = IsManaged(cur)
			st.Foreign = !st.Installed
			if st.Installed {
				for _, line := range strings.Split(string(cur), "\n") {
					if v, ok := strings.CutPrefix(line, "tollgate_bin="); ok {
						st.Binary, _ = shellword.Unquote(v)
					}
				}
				st.Outdated = string(cur) != Shim(hook, st.Binary)
				fi, err := os.Stat(st.Binary)
				st.BinaryGone = err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0
			}
		}
		if _, err := os.Lstat(path + chainedSuffix); err == nil {
			st.Chained = true
		}
		out = append(out, st)
	}
	return out
}
