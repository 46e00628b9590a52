package guard

import (
	"os"
	"strings"
)

// An edit's new text can complete a token that is already half in the file: the fragment
// alone holds no secret, the file after the edit does. So an edit of a file inside the project
// is judged on the file as it would be after it: the guard reads the file (bounded), applies
// the edits as the agent's tool would (old text replaced once, or everywhere), and scans the
// changed lines with editContext lines around them. A secret the file held before the edit is
// not the edit's. When the file cannot be read or an old text is not in it (the agent's edit
// would fail), the new text alone is scanned, as before.

const (
	maxEditFile = 1 << 20
	editContext = 24
)

type textEdit struct {
	old, new string
	all      bool
}

// editsOf reads an edit tool's input: Claude Code's Edit {old_string, new_string,
// replace_all} and MultiEdit {edits: [...]}, Gemini CLI's replace {old_string, new_string,
// expected_replacements}, Copilot CLI's edit {old_str, new_str}, and the filesystem MCP
// server's {edits: [{oldText, newText}]}.
func editsOf(args map[string]any) ([]textEdit, bool) {
	one := func(m map[string]any) (textEdit, bool) {
		old, okOld := firstString(m, "old_string", "old_str", "oldText", "old_text")
		nw, okNew := firstString(m, "new_string", "new_str", "newText", "new_text")
		if !okOld || !okNew || old == "" {
			return textEdit{}, false
		}
		e := textEdit{old: old, new: nw}
		if b, ok := m["replace_all"].(bool); ok {
			e.all = b
		}
		if n, ok := m["expected_replacements"]; ok && n != nil {
			e.all = true // more than one replacement: every occurrence (a superset)
		}
		return e, true
	}
	if args == nil {
		return nil, false
	}
	if list, ok := args["edits"].([]any); ok {
		var out []textEdit
		for _, v := range list {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			e, ok := one(m)
			if !ok {
				return nil, false
			}
			out = append(out, e)
		}
		return out, len(out) > 0
	}
	e, ok := one(args)
	if !ok {
		return nil, false
	}
	return []textEdit{e}, true
}

func firstString(m map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

// edit judges an edit's content on the file as it would be after the edit.
func (j *judge) edit(call Call) {
	edits, ok := editsOf(call.Args)
	if !ok {
		j.content(call.Path, call.Content)
		return
	}
	before, ok := j.readForEdit(call.Path)
	if !ok {
		j.content(call.Path, call.Content)
		return
	}
	after, ok := applyEdits(before, edits)
	if !ok {
		j.content(call.Path, call.Content)
		return
	}
	window, start := changedWindow(before, after)
	j.contentAt(call.Path, call.Content, scanText{text: window, start: start, existing: before})
}

// readForEdit reads the file an edit changes, when it is a regular file inside the project of
// at most maxEditFile bytes.
func (j *judge) readForEdit(p string) (string, bool) {
	abs, ok := j.abs(p)
	if !ok {
		return "", false
	}
	real := resolve(abs)
	if !under(real, j.o.Project) {
		return "", false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxEditFile {
		return "", false
	}
	data, err := os.ReadFile(real)
	if err != nil || len(data) > maxEditFile {
		return "", false
	}
	return string(data), true
}

// applyEdits applies the edits in order; ok is false when an old text is not found.
func applyEdits(text string, edits []textEdit) (string, bool) {
	for _, e := range edits {
		if !strings.Contains(text, e.old) {
			return "", false
		}
		if e.all {
			text = strings.ReplaceAll(text, e.old, e.new)
		} else {
			text = strings.Replace(text, e.old, e.new, 1)
		}
		if len(text) > 2*maxEditFile {
			return "", false
		}
	}
	return text, true
}

// changedWindow returns the lines of after that differ from before, with editContext lines
// around them, and the number of the window's first line.
func changedWindow(before, after string) (string, int) {
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	from, to := p, len(after)-s
	for n := 0; n <= editContext && from > 0; {
		from--
		if after[from] == '\n' {
			n++
		}
	}
	if from > 0 {
		from++ // just after the newline
	}
	for n := 0; n <= editContext && to < len(after); to++ {
		if after[to] == '\n' {
			n++
		}
	}
	return after[from:to], 1 + strings.Count(after[:from], "\n")
}

// patchResult judges an apply_patch Update File on the file as it would be after it: each hunk
// (split at @@ lines) replaces its context and removed lines with its context and added lines,
// in order. It reports false, judging nothing, when the file cannot be read or a hunk does not
// apply (the added lines alone are then scanned).
func (j *judge) patchResult(path string, body []string, added string) bool {
	before, ok := j.readForEdit(path)
	if !ok {
		return false
	}
	var edits []textEdit
	var old, nw []string
	bare := false // a hunk with added lines only: nowhere to place it, so the fragment is scanned
	hunk := func() {
		if len(old) > 0 {
			edits = append(edits, textEdit{old: strings.Join(old, "\n"), new: strings.Join(nw, "\n")})
		} else if len(nw) > 0 {
			bare = true
		}
		old, nw = nil, nil
	}
	for _, l := range body {
		switch {
		case strings.HasPrefix(l, "@@"):
			hunk()
		case l == "":
			old, nw = append(old, ""), append(nw, "")
		case l[0] == ' ':
			old, nw = append(old, l[1:]), append(nw, l[1:])
		case l[0] == '-':
			old = append(old, l[1:])
		case l[0] == '+':
			nw = append(nw, l[1:])
		}
	}
	hunk()
	if len(edits) == 0 || bare {
		return false
	}
	after, ok := applyEdits(before, edits)
	if !ok {
		return false
	}
	window, start := changedWindow(before, after)
	j.contentAt(path, added, scanText{text: window, start: start, existing: before})
	return true
}
