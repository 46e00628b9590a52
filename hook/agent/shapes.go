package agent

import (
	"errors"
	"fmt"
	"strings"
)

// ours reports whether a hook entry (an object with a command field) is tollgate's.
func ours(v any, field string) (*obj, bool) {
	o, ok := v.(*obj)
	if !ok {
		return nil, false
	}
	c, _ := o.vals[field].(string)
	return o, strings.Contains(c, marker)
}

// ourEntry is one of tollgate's hooks in a grouped config, and the group holding it.
type ourEntry struct {
	group, entry *obj
}

// matchAll is the matcher of tollgate's entry in Claude Code, Codex and Gemini CLI: every tool,
// MCP tools (mcp__server__tool) and tools the guard does not know included.
const matchAll = "*"

// groupedInstall handles the {hooks: {Event: [{matcher, hooks: [{type, command, timeout}]}]}}
// shape of Claude Code, Codex and Gemini CLI: one entry, matching every tool. An older
// install's entry that has its group to itself is updated in place (matcher and command); its
// other entries (older versions split the tools over two), and any in a group shared with
// the user's own hooks (whose matcher is theirs), are removed, with a group they leave empty.
func groupedInstall(event string, timeout any) func(doc *obj, c hookCmd) (bool, error) {
	return func(doc *obj, c hookCmd) (bool, error) {
		cmd := c.sh
		hooks, ok := doc.child("hooks")
		if !ok {
			return false, errors.New(`"hooks" is not an object`)
		}
		groups, ok := hooks.list(event)
		if !ok {
			return false, fmt.Errorf(`"hooks.%s" is not an array`, event)
		}
		found := oursIn(groups)
		keep := -1
		for i, f := range found {
			if inner, _ := f.group.list("hooks"); len(inner) == 1 {
				keep = i
				break
			}
		}
		var drop []ourEntry
		for i, f := range found {
			if i != keep {
				drop = append(drop, f)
			}
		}
		changed := len(drop) > 0
		groups = dropEntries(groups, drop)
		if keep < 0 {
			entry := newObj()
			entry.set("type", "command")
			entry.set("command", cmd)
			entry.set("timeout", timeout)
			group := newObj()
			group.set("matcher", matchAll)
			group.set("hooks", []any{entry})
			groups = append(groups, group)
			changed = true
		} else {
			f := found[keep]
			changed = changed || f.entry.vals["command"] != cmd || f.group.vals["matcher"] != matchAll
			f.entry.set("command", cmd)
			f.group.set("matcher", matchAll)
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
	return removeEach(doc, func(groups []any) ([]any, int) {
		found := oursIn(groups)
		if len(found) == 0 {
			return groups, 0
		}
		return dropEntries(groups, found), len(found)
	})
}

// removeEach drops from every event's list under doc's "hooks" what drop removes; an event left
// empty goes, and "hooks" with it when no event is left. It returns how many entries went.
func removeEach(doc *obj, drop func(list []any) ([]any, int)) int {
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
		keep, n := drop(list)
		if n == 0 {
			continue
		}
		removed += n
		if len(keep) == 0 {
			hooks.del(ev)
		} else {
			hooks.set(ev, keep)
		}
	}
	if removed > 0 && len(hooks.keys) == 0 {
		doc.del("hooks")
	}
	return removed
}

// hookCmd is what an entry runs: the POSIX sh command, and for agents that take one
// (Copilot CLI) the PowerShell command for Windows.
type hookCmd struct{ sh, powershell string }

// setOn writes the commands into entry e, the sh one under field.
func (c hookCmd) setOn(e *obj, field string) {
	e.set(field, c.sh)
	if c.powershell != "" {
		e.set("powershell", c.powershell)
	}
}

// flatInstall handles the {version: 1, hooks: {event: [{field: command, ...}]}} shape of Cursor
// and Copilot CLI: one entry per event (these have no matcher: an event's hook sees every call
// of its kind). An older install's entry is updated in place, a second one of tollgate's in the
// same event removed.
func flatInstall(field string, events []string, extra func(e *obj)) func(doc *obj, c hookCmd) (bool, error) {
	return func(doc *obj, c hookCmd) (bool, error) {
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
			var keep []any
			found := false
			for _, h := range list {
				e, mine := ours(h, field)
				if !mine {
					keep = append(keep, h)
					continue
				}
				if found {
					changed = true // a duplicate of tollgate's entry
					continue
				}
				found = true
				before := string(encode(e))
				c.setOn(e, field)
				extra(e)
				changed = changed || string(encode(e)) != before
				keep = append(keep, e)
			}
			if !found {
				e := newObj()
				c.setOn(e, field)
				extra(e)
				keep = append(keep, e)
				changed = true
			}
			hooks.set(ev, keep)
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
		return removeEach(doc, func(list []any) ([]any, int) {
			var keep []any
			for _, h := range list {
				if _, mine := ours(h, field); !mine {
					keep = append(keep, h)
				}
			}
			return keep, len(list) - len(keep)
		})
	}
}
