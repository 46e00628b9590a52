package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// marker identifies tollgate's entries in an agent's hook configuration.
const marker = "tollgate-guard"

// HookTimeoutSeconds is the hook timeout tollgate writes into agents' configs. The guard must
// answer well within it: an agent whose hook times out lets the call through.
const HookTimeoutSeconds = 30

// configSpec is where an agent keeps its hooks and how tollgate's entry looks there.
type configSpec struct {
	project string // file path relative to the project root
	user    string // file path relative to the home directory
	// install adds or updates tollgate's entries (command(true) prefers the lean tollgate-guard,
	// command(false) runs tollgate itself); it reports whether anything changed.
	install func(doc *obj, command func(lean bool) string) (bool, error)
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
}

// Path returns the agent's hook config file for the scope.
func Path(a Agent, s Scope) string {
	spec := a.config()
	if s.User {
		return filepath.Join(s.Home, filepath.FromSlash(spec.user))
	}
	return filepath.Join(s.Root, filepath.FromSlash(spec.project))
}

// HookCommand is the command tollgate writes into the agent's config: it runs bin (or tollgate
// from PATH) and fails closed, exiting 2 with a message (and a deny in the agent's own JSON)
// when neither can be found or the guard exits abnormally. When the lean tollgate-guard binary
// sits beside that tollgate, it runs instead (same answers, a fraction of the start-up; it hands
// content to scan back to tollgate). A Windows path is written with forward slashes, which the
// sh that runs the command there (Git for Windows') reads, and ${b%/*} cuts.
func HookCommand(a Agent, bin string) string { return hookCommand(a, bin, true) }

// hookCommand is HookCommand; with lean false it always runs tollgate itself (the entry for the
// tools that write content, which tollgate-guard would hand to tollgate anyway).
func hookCommand(a Agent, bin string, lean bool) string {
	bin = fspath.Host.Slash(bin)
	missing := a.Render(Decision{Verdict: Deny, Reason: "tollgate is not installed at " + bin + " nor on PATH, so the tollgate guard blocks this call; reinstall tollgate or run tollgate uninstall --agent " + a.Name()})
	msg := "tollgate: error: tollgate is not installed at " + bin + " nor on PATH, so this call is blocked"
	inner := ": " + marker + "; b=" + dq(bin) + "; [ -x \"$b\" ] || b=\"$(command -v tollgate)\" || { "
	if out := strings.TrimSpace(string(missing.Stdout)); out != "" {
		inner += "printf \"%s\\n\" " + dq(out) + "; "
	}
	inner += "echo " + dq(msg) + " >&2; exit 2; }; "
	run := "\"$b\" guard --agent "
	if lean {
		inner += "g=\"${b%/*}/" + marker + "\"; [ -x \"$g\" ] || g=\"$b\"; "
		run = "\"$g\" guard --agent "
	}
	inner += run + a.Name() + " || { echo \"tollgate: error: tollgate guard failed, so this call is blocked\" >&2; exit 2; }"
	return "sh -c " + shq(inner)
}

// dq quotes s inside double quotes for sh.
func dq(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
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

func writeDoc(path string, doc *obj, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	tmp := path + ".tollgate-tmp"
	if err := os.WriteFile(tmp, encode(doc), mode); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}

// Install writes tollgate's entry into the agent's config; it returns a line for the user.
func Install(a Agent, s Scope, bin string) (string, error) {
	path := Path(a, s)
	doc, mode, err := readDoc(path)
	if err != nil {
		return "", err
	}
	changed, err := a.config().install(doc, func(lean bool) string { return hookCommand(a, bin, lean) })
	if err != nil {
		return "", fmt.Errorf("failed to merge into %s: %w", path, err)
	}
	if !changed {
		return a.Name() + ": already installed in " + path, nil
	}
	if err := writeDoc(path, doc, mode); err != nil {
		return "", err
	}
	return a.Name() + ": installed the guard in " + path, nil
}

// Uninstall removes tollgate's entries from the agent's config, nothing else.
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
	if spec.ownFile && onlyVersion(doc) {
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("failed to remove %s: %w", path, err)
		}
		return a.Name() + ": removed " + path, nil
	}
	if err := writeDoc(path, doc, mode); err != nil {
		return "", err
	}
	return a.Name() + ": removed the guard from " + path, nil
}

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

// binaryOf extracts the binary path from a command HookCommand wrote.
func binaryOf(cmd string) string {
	if inner, ok := shellword.Unquote(strings.TrimPrefix(cmd, "sh -c ")); ok {
		cmd = inner // undo the outer quoting first
	}
	i := strings.Index(cmd, `b="`)
	if i < 0 {
		return "(unknown)"
	}
	rest := cmd[i+3:]
	var b strings.Builder
	for k := 0; k < len(rest); k++ {
		c := rest[k]
		if c == '\\' && k+1 < len(rest) {
			k++
			b.WriteByte(rest[k])
			continue
		}
		if c == '"' {
			break
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ours reports whether a hook entry (an object with a command field) is tollgate's.
func ours(v any, field string) (*obj, bool) {
	o, ok := v.(*obj)
	if !ok {
		return nil, false
	}
	c, _ := o.vals[field].(string)
	return o, strings.Contains(c, marker)
}

// hookGroup is one of tollgate's entries in a grouped config: the tools it matches, and whether
// its command prefers the lean tollgate-guard (commands, reads) or runs tollgate itself (tools
// that write content, which tollgate-guard would only hand over).
type hookGroup struct {
	matcher string
	lean    bool
}

// ourEntry is one of tollgate's hooks in a grouped config, and the group holding it.
type ourEntry struct {
	group, entry *obj
}

// groupedInstall handles the {hooks: {Event: [{matcher, hooks: [{type, command, timeout}]}]}}
// shape of Claude Code, Codex and Gemini CLI: one entry per hookGroup, updated in place (an
// older install's entries are reused in order; extra ones are removed).
func groupedInstall(event string, want []hookGroup, timeout any) func(doc *obj, command func(lean bool) string) (bool, error) {
	return func(doc *obj, command func(lean bool) string) (bool, error) {
		hooks, ok := doc.child("hooks")
		if !ok {
			return false, errors.New(`"hooks" is not an object`)
		}
		groups, ok := hooks.list(event)
		if !ok {
			return false, fmt.Errorf(`"hooks.%s" is not an array`, event)
		}
		found := oursIn(groups)
		changed := false
		for k, w := range want {
			cmd := command(w.lean)
			if k < len(found) {
				f := found[k]
				changed = changed || f.entry.vals["command"] != cmd || f.group.vals["matcher"] != w.matcher
				f.entry.set("command", cmd)
				f.group.set("matcher", w.matcher)
				continue
			}
			entry := newObj()
			entry.set("type", "command")
			entry.set("command", cmd)
			entry.set("timeout", timeout)
			group := newObj()
			group.set("matcher", w.matcher)
			group.set("hooks", []any{entry})
			groups = append(groups, group)
			changed = true
		}
		if len(found) > len(want) {
			groups = dropEntries(groups, found[len(want):])
			changed = true
		}
		hooks.set(event, groups)
		return changed, nil
	}
}

// oursIn lists tollgate's hooks in groups, in order.
func oursIn(groups []any) []ourEntry {
	var out []ourEntry
	for _, g := range groups {
		gobj, ok := g.(*obj)
		if !ok {
			continue
		}
		inner, _ := gobj.list("hooks")
		for _, h := range inner {
			if e, mine := ours(h, "command"); mine {
				out = append(out, ourEntry{group: gobj, entry: e})
			}
		}
	}
	return out
}

// dropEntries removes the given hooks from groups, and a group left without hooks.
func dropEntries(groups []any, drop []ourEntry) []any {
	gone := map[*obj]bool{}
	for _, d := range drop {
		gone[d.entry] = true
	}
	var keep []any
	for _, g := range groups {
		gobj, ok := g.(*obj)
		if !ok {
			keep = append(keep, g)
			continue
		}
		inner, _ := gobj.list("hooks")
		var left []any
		for _, h := range inner {
			if e, ok := h.(*obj); ok && gone[e] {
				continue
			}
			left = append(left, h)
		}
		if len(left) == 0 && len(inner) > 0 {
			continue
		}
		if len(left) != len(inner) {
			gobj.set("hooks", left)
		}
		keep = append(keep, g)
	}
	return keep
}

func groupedEntries(doc *obj) []string {
	var out []string
	hooks, _ := doc.vals["hooks"].(*obj)
	if hooks == nil {
		return nil
	}
	for _, ev := range hooks.keys {
		groups, _ := hooks.vals[ev].([]any)
		for _, e := range oursIn(groups) {
			out = append(out, e.entry.vals["command"].(string))
		}
	}
	return out
}

func groupedRemove(doc *obj) int {
	hooks, _ := doc.vals["hooks"].(*obj)
	if hooks == nil {
		return 0
	}
	removed := 0
	for _, ev := range append([]string{}, hooks.keys...) {
		groups, ok := hooks.vals[ev].([]any)
		if !ok {
			continue
		}
		found := oursIn(groups)
		if len(found) == 0 {
			continue
		}
		removed += len(found)
		if keep := dropEntries(groups, found); len(keep) == 0 {
			hooks.del(ev)
		} else {
			hooks.set(ev, keep)
		}
	}
	if len(hooks.keys) == 0 {
		doc.del("hooks")
	}
	return removed
}

// flatInstall handles the {version: 1, hooks: {event: [{field: command, ...}]}} shape of Cursor
// and Copilot CLI.
func flatInstall(field string, events []string, extra func(e *obj)) func(doc *obj, command func(lean bool) string) (bool, error) {
	return func(doc *obj, lean func(lean bool) string) (bool, error) {
		command := lean(true)
		if _, ok := doc.get("version"); !ok {
			doc.set("version", 1)
		}
		hooks, ok := doc.child("hooks")
		if !ok {
			return false, errors.New(`"hooks" is not an object`)
		}
		changed := false
		for _, ev := range events {
			list, ok := hooks.list(ev)
			if !ok {
				return false, fmt.Errorf(`"hooks.%s" is not an array`, ev)
			}
			found := false
			for _, h := range list {
				if e, mine := ours(h, field); mine {
					found = true
					if e.vals[field] != command {
						e.set(field, command)
						changed = true
					}
					extra(e)
				}
			}
			if !found {
				e := newObj()
				e.set(field, command)
				extra(e)
				hooks.set(ev, append(list, e))
				changed = true
			}
		}
		return changed, nil
	}
}

func flatEntries(field string) func(doc *obj) []string {
	return func(doc *obj) []string {
		var out []string
		hooks, _ := doc.vals["hooks"].(*obj)
		if hooks == nil {
			return nil
		}
		for _, ev := range hooks.keys {
			list, _ := hooks.vals[ev].([]any)
			for _, h := range list {
				if e, mine := ours(h, field); mine {
					out = append(out, e.vals[field].(string))
				}
			}
		}
		return out
	}
}

func flatRemove(field string) func(doc *obj) int {
	return func(doc *obj) int {
		hooks, _ := doc.vals["hooks"].(*obj)
		if hooks == nil {
			return 0
		}
		removed := 0
		for _, ev := range append([]string{}, hooks.keys...) {
			list, ok := hooks.vals[ev].([]any)
			if !ok {
				continue
			}
			var keep []any
			for _, h := range list {
				if _, mine := ours(h, field); mine {
					removed++
					continue
				}
				keep = append(keep, h)
			}
			if len(keep) == 0 {
				hooks.del(ev)
			} else {
				hooks.set(ev, keep)
			}
		}
		if len(hooks.keys) == 0 {
			doc.del("hooks")
		}
		return removed
	}
}
