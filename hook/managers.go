package hook

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tollgate-dev/tollgate/internal/fspath"
)

// Manager is another hook manager that runs this repository's hooks, or a hooks directory the
// repository itself holds. tollgate never writes into a directory such a manager regenerates
// (husky's .husky/_), into the work tree (a tracked .githooks/), or next to a manager that
// replaces other hooks when it syncs (lefthook): it prints how to add tollgate to that
// manager instead.
type Manager struct {
	Name string // husky, lefthook, pre-commit, or "the repository"
	Why  string // what shows the manager is there
	// Integration is what to add to the manager's own configuration, line by line.
	Integration []string
	// Force: --force installs anyway, chained, and the manager's hook still runs.
	Force bool
	// RunsFor are the hooks for which the manager's configuration already runs tollgate.
	RunsFor []string
}

// ManagedError is returned by Install when a Manager owns the hooks.
type ManagedError struct{ M *Manager }

func (e *ManagedError) Error() string {
	how := "tollgate installed nothing, so " + e.M.Name + " keeps working; add tollgate to it as shown"
	if e.M.Force {
		how += " (or install anyway with --force: the existing hook is kept and runs first)"
	}
	return fmt.Sprintf("%s runs this repository's hooks (%s): %s", e.M.Name, e.M.Why, how)
}

// ErrManaged matches every ManagedError.
var ErrManaged = errors.New("another hook manager runs the hooks")

func (e *ManagedError) Is(target error) bool { return target == ErrManaged }

// lefthookConfigs are the file names lefthook reads its configuration from.
var lefthookConfigs = []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
	"lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json"}

// hookArgs is what a manager's hook line passes on: git's arguments for pre-push and
// commit-msg (the message file).
func hookArgs(hook string) string {
	switch hook {
	case "pre-push":
		return ` "$@"`
	case "commit-msg":
		return ` "$1"`
	}
	return ""
}

// rel is p relative to the work tree root, for the lines a user copies.
func (r *Repo) rel(p string) string {
	if rel, err := filepath.Rel(r.Root, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// inTree reports whether p lies in the work tree, outside the git directory.
func (r *Repo) inTree(p string) bool {
	if r.Bare {
		return false
	}
	real := p
	if e, err := filepath.EvalSymlinks(p); err == nil {
		real = e
	}
	in := func(root string) bool { return fspath.Within(root, real) }
	gitDir := r.CommonDir
	if e, err := filepath.EvalSymlinks(gitDir); err == nil {
		gitDir = e
	}
	return in(r.Root) && !in(gitDir)
}

// hookMentions reports whether any of the hooks in dir holds one of the words.
func hookMentions(dir string, hooks []string, words ...string) bool {
	for _, h := range hooks {
		data, err := os.ReadFile(filepath.Join(dir, h))
		if err != nil || IsManaged(data) {
			continue
		}
		for _, w := range words {
			if bytes.Contains(data, []byte(w)) {
				return true
			}
		}
	}
	return false
}

// hooksRunning are the hooks in dir whose file runs tollgate ("tollgate hook NAME").
func hooksRunning(dir string, hooks []string) []string {
	var out []string
	for _, h := range hooks {
		if hookMentions(dir, []string{h}, "tollgate hook "+h) {
			out = append(out, h)
		}
	}
	return out
}

// DetectManager returns the manager that owns the hooks tollgate would install, or nil.
// hooksPath is core.hooksPath as configured ("" when unset).
func (r *Repo) DetectManager(hooksPath string, hooks []string) *Manager {
	if r.Bare {
		return nil
	}
	for _, detect := range []func(string, []string) *Manager{r.husky, r.treeHooks, r.lefthook, r.preCommit} {
		if m := detect(hooksPath, hooks); m != nil {
			return m
		}
	}
	return nil
}

// husky: core.hooksPath = .husky/_, or a .husky directory husky will point it to.
func (r *Repo) husky(hooksPath string, hooks []string) *Manager {
	dir := filepath.Join(r.Root, ".husky")
	if hooksPath != "" && filepath.Base(r.HooksDir) == "_" && filepath.Base(filepath.Dir(r.HooksDir)) == ".husky" {
		dir = filepath.Dir(r.HooksDir)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	why := "core.hooksPath = " + hooksPath
	if hooksPath == "" {
		why = r.rel(dir) + "/ exists, and husky points core.hooksPath there on its next install"
	}
	m := &Manager{Name: "husky", Why: why, RunsFor: hooksRunning(dir, hooks)}
	for _, h := range hooks {
		m.Integration = append(m.Integration, fmt.Sprintf("echo 'tollgate hook %s%s' >> %s", h, hookArgs(h), shellQuote(r.rel(filepath.Join(dir, h)))))
	}
	return m
}

// treeHooks: core.hooksPath names a directory in the work tree (the repository's own files).
func (r *Repo) treeHooks(hooksPath string, hooks []string) *Manager {
	if hooksPath == "" || !r.inTree(r.HooksDir) {
		return nil
	}
	dir := r.rel(r.HooksDir)
	m := &Manager{Name: "the repository", Why: "core.hooksPath = " + hooksPath + ", a directory in the work tree, whose hooks are the repository's own files",
		RunsFor: hooksRunning(r.HooksDir, hooks)}
	for _, h := range hooks {
		p := shellQuote(filepath.Join(dir, h))
		m.Integration = append(m.Integration, fmt.Sprintf("[ -e %s ] || printf '#!/bin/sh\\n' > %s; echo 'tollgate hook %s%s' >> %s; chmod +x %s", p, p, h, hookArgs(h), p, p))
	}
	m.Integration = append(m.Integration, "# then commit those files, so everyone who clones the repository runs tollgate")
	return m
}

// lefthook: its configuration file, or its hook in the hooks directory.
func (r *Repo) lefthook(_ string, hooks []string) *Manager {
	name := ""
	for _, n := range lefthookConfigs {
		if _, err := os.Lstat(filepath.Join(r.Root, n)); err == nil {
			name = n
			break
		}
	}
	if name == "" {
		if !hookMentions(r.HooksDir, hooks, "lefthook") {
			return nil
		}
		name = "lefthook.yml"
	}
	m := &Manager{Name: "lefthook", Why: name + "; lefthook replaces other hooks whenever it syncs its own"}
	if cfg, err := os.ReadFile(filepath.Join(r.Root, name)); err == nil {
		for _, h := range hooks {
			if bytes.Contains(cfg, []byte("tollgate hook "+h)) {
				m.RunsFor = append(m.RunsFor, h)
			}
		}
	}
	m.Integration = append(m.Integration, "# add to "+name+", then run: lefthook install")
	for _, h := range hooks {
		m.Integration = append(m.Integration, h+":", "  commands:", "    tollgate:")
		switch h {
		case "pre-push":
			m.Integration = append(m.Integration, "      run: tollgate hook pre-push {1} {2}", "      use_stdin: true")
		case "commit-msg":
			m.Integration = append(m.Integration, "      run: tollgate hook commit-msg {1}")
		default:
			m.Integration = append(m.Integration, "      run: tollgate hook "+h)
		}
	}
	return m
}

// preCommit: the pre-commit framework's own hook in the hooks directory.
func (r *Repo) preCommit(_ string, hooks []string) *Manager {
	if !hookMentions(r.HooksDir, hooks, "pre-commit.com", "generated by pre-commit") {
		return nil
	}
	var runs []string
	if cfg, err := os.ReadFile(filepath.Join(r.Root, ".pre-commit-config.yaml")); err == nil && bytes.Contains(cfg, []byte("id: tollgate")) {
		for _, h := range hooks {
			if hookMentions(r.HooksDir, []string{h}, "pre-commit.com", "generated by pre-commit") {
				runs = append(runs, h)
			}
		}
	}
	return &Manager{Name: "the pre-commit framework", Why: "its hook is installed in " + r.HooksDir, Force: true, RunsFor: runs, Integration: []string{
		"# add to .pre-commit-config.yaml (COMMIT: a tollgate commit id), then run:",
		"#   pre-commit install --hook-type pre-commit --hook-type commit-msg --hook-type pre-push",
		"- repo: https://github.com/tollgate-dev/tollgate",
		"  rev: COMMIT",
		"  hooks:",
		"    - id: tollgate",
		"    - id: tollgate-commit-msg",
	}}
}

// managerHooks are the hooks whose files name a manager: what install would write.
func managerHooks(o InstallOptions) []string {
	if len(o.Hooks) > 0 {
		return o.Hooks
	}
	return Hooks
}

// checkManaged returns a ManagedError when a manager owns the hooks (with --force, only for a
// manager whose hook keeps running when chained).
func (r *Repo) checkManaged(hooksPath string, o InstallOptions) error {
	m := r.DetectManager(hooksPath, managerHooks(o))
	if m == nil || (m.Force && o.Force) {
		return nil
	}
	return &ManagedError{M: m}
}
