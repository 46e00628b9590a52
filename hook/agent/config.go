package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// marker identifies tollgate's entries in an agent's hook configuration: every command tollgate
// writes (and every older form of it) names the lean binary.
const marker = "tollgate-guard"

// HookTimeoutSeconds is the hook timeout tollgate writes into agents' configs. The guard must
// answer well within it: an agent whose hook times out lets the call through.
const HookTimeoutSeconds = 30

// configSpec is where an agent keeps its hooks and how tollgate's entry looks there.
type configSpec struct {
	project string // file path relative to the project root
	user    string // file path relative to the home directory
	// install adds or updates tollgate's entries with the command; it reports whether anything
	// changed. An older install's entries are replaced, never duplicated.
	install func(doc *obj, c hookCmd) (bool, error)
	// powershell, when set, is the agent's PowerShell command for the scope (Copilot CLI runs
	// its "powershell" field on Windows, its "bash" field elsewhere).
	powershell func(s Scope, bin string) string
	// entries returns the commands of tollgate's entries; remove drops them.
	entries func(doc *obj) []string
	remove  func(doc *obj) int
	// ownFile: the whole file is tollgate's; uninstall deletes it when nothing else is left.
	ownFile bool
}

// Scope is where a hook config lives.
type Scope struct {
	User bool   // the home-directory config instead of the project's
	Root string // the project root (for project scope)
	Home string // the home directory (for user scope)
	// State is a directory where install records the files and directories it created, so
	// uninstall removes them and nothing the user had; "" records nothing (uninstall then
	// keeps every file that held more than tollgate's entries).
	State string
}

// Path returns the agent's hook config file for the scope.
func Path(a Agent, s Scope) string {
	spec := a.config()
	if s.User {
		return filepath.Join(s.Home, filepath.FromSlash(spec.user))
	}
	return filepath.Join(s.Root, filepath.FromSlash(spec.project))
}

// base is the directory a scope's config paths are relative to; install never creates it.
func (s Scope) base() string {
	if s.User {
		return s.Home
	}
	return s.Root
}

// readDoc reads a JSON config (absent or empty: a new object).
func readDoc(path string) (*obj, os.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return newObj(), 0o644, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("failed to read %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if strings.TrimSpace(string(data)) == "" {
		return newObj(), mode, nil
	}
	v, err := parseOrdered(data)
	if err != nil {
		return nil, 0, fmt.Errorf("failed to parse %s as JSON (%v); fix or move it, tollgate does not overwrite it", path, err)
	}
	doc, ok := v.(*obj)
	if !ok {
		return nil, 0, fmt.Errorf("failed to merge into %s: it is not a JSON object", path)
	}
	return doc, mode, nil
}

// writeDoc writes doc to path, creating its directory; it returns the directories it created,
// deepest first.
func writeDoc(path, base string, doc *obj, mode os.FileMode) ([]string, error) {
	made := missingDirs(filepath.Dir(path), base)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	tmp := path + ".tollgate-tmp"
	if err := os.WriteFile(tmp, encode(doc), mode); err != nil {
		return made, fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return made, fmt.Errorf("failed to write %s: %w", path, err)
	}
	return made, nil
}

// missingDirs lists dir and its parents below base that do not exist yet, deepest first.
func missingDirs(dir, base string) []string {
	var out []string
	for d := filepath.Clean(dir); d != filepath.Clean(base) && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		out = append(out, d)
	}
	return out
}

// Install writes tollgate's entry into the agent's config; it returns a line for the user. In
// project scope the entry holds no machine path (ProjectCommand); in user scope it runs bin.
func Install(a Agent, s Scope, bin string) (string, error) {
	path := Path(a, s)
	_, statErr := os.Stat(path)
	existed := statErr == nil
	doc, mode, err := readDoc(path)
	if err != nil {
		return "", err
	}
	spec := a.config()
	c := hookCmd{sh: command(a, s, bin)}
	if spec.powershell != nil {
		c.powershell = spec.powershell(s, bin)
	}
	changed, err := spec.install(doc, c)
	if err != nil {
		return "", fmt.Errorf("failed to merge into %s: %w", path, err)
	}
	if !changed {
		return a.Name() + ": already installed in " + path, nil
	}
	made, err := writeDoc(path, s.base(), doc, mode)
	if !existed && err == nil {
		err = recordCreated(s.State, path, made)
	}
	if err != nil {
		return "", err
	}
	return a.Name() + ": installed the guard in " + path, nil
}

// Uninstall removes tollgate's entries from the agent's config, nothing else. A file install
// created (and directories it made for it) is removed when nothing but tollgate's scaffolding
// is left; a file the user had stays, even when it is left empty.
func Uninstall(a Agent, s Scope) (string, error) {
	path := Path(a, s)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return a.Name() + ": not installed (" + path + " does not exist)", nil
	}
	doc, mode, err := readDoc(path)
	if err != nil {
		return "", err
	}
	spec := a.config()
	n := spec.remove(doc)
	if n == 0 {
		return a.Name() + ": not installed in " + path, nil
	}
	rec, err := loadCreated(s.State)
	if err != nil {
		return "", err
	}
	_, mine := rec.Files[path]
	if onlyVersion(doc) && (mine || spec.ownFile) {
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("failed to remove %s: %w", path, err)
		}
		removeMadeDirs(rec, path)
		delete(rec.Files, path)
		return a.Name() + ": removed " + path, saveCreated(s.State, rec)
	}
	if _, err := writeDoc(path, s.base(), doc, mode); err != nil {
		return "", err
	}
	if mine {
		// the user has added to the file since: it is theirs now
		delete(rec.Files, path)
		return a.Name() + ": removed the guard from " + path, saveCreated(s.State, rec)
	}
	return a.Name() + ": removed the guard from " + path, nil
}

// onlyVersion reports a document with nothing but what install scaffolds ("version", for the
// Cursor and Copilot shape).
func onlyVersion(doc *obj) bool {
	for _, k := range doc.keys {
		if k != "version" {
			return false
		}
	}
	return true
}

// State is what status reports about one agent in one scope.
type State struct {
	Agent  string
	Path   string
	Binary string // the binary the installed command runs ("" when not installed)
	Err    error
}

// Installed reports whether tollgate's entry is there.
func (s State) Installed() bool { return s.Binary != "" }

// FromPath reports an entry that finds the binary on PATH (the project-scope command).
func (s State) FromPath() bool { return s.Binary == fromPath }

// Status reads the agent's config in the scope.
func Status(a Agent, s Scope) State {
	st := State{Agent: a.Name(), Path: Path(a, s)}
	if _, err := os.Stat(st.Path); err != nil {
		return st
	}
	doc, _, err := readDoc(st.Path)
	if err != nil {
		st.Err = err
		return st
	}
	for _, c := range a.config().entries(doc) {
		st.Binary = binaryOf(c)
	}
	return st
}
