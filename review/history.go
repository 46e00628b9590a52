package review

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// markLaterRemoved sets LaterRemoved on every finding of a commit whose line a later commit of
// the same change deletes again (and no commit after that adds back), or whose file a later
// commit deletes. Such a finding is gone from the tip of the range but stays in the history
// that is about to be pushed: removing it in one more commit does not fix it.
func markLaterRemoved(ch *diff.Change, fs []Finding) {
	if len(ch.Units) < 2 || len(fs) == 0 {
		return
	}
	order := map[string]int{}
	for i := range ch.Units {
		if c := ch.Units[i].Commit; c != "" {
			order[c] = i
		}
	}
	// touched indexes the files of every unit by the paths they touch, so a finding reads only
	// the later diffs of its own file.
	type at struct{ unit, file int }
	touched := map[string][]at{}
	for ui := range ch.Units {
		for fi := range ch.Units[ui].Files {
			f := &ch.Units[ui].Files[fi]
			if f.OldPath != "" {
				touched[f.OldPath] = append(touched[f.OldPath], at{ui, fi})
			}
			if f.NewPath != "" && f.NewPath != f.OldPath {
				touched[f.NewPath] = append(touched[f.NewPath], at{ui, fi})
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		ui, ok := order[f.commit]
		if !ok || ui == len(ch.Units)-1 {
			continue
		}
		needle := removalNeedle(f)
		path, removed := f.Path, false
		for _, t := range touched[path] {
			if t.unit <= ui {
				continue
			}
			fd := &ch.Units[t.unit].Files[t.file]
			removed = laterState(fd, path, needle, removed)
		}
		f.LaterRemoved = removed
	}
}

// removalNeedle is what a later deleted line must hold to take the finding out: a secret the
// scanner knows, else the finding's whole first line; "" for a finding about a whole file.
func removalNeedle(f *Finding) string {
	for _, s := range f.secrets {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	line, _, _ := strings.Cut(f.text, "\n")
	return strings.TrimSpace(line)
}

// laterState returns whether the finding is removed after fd (a later diff touching path),
// given whether it was removed before it.
func laterState(fd *diff.FileDiff, path, needle string, removed bool) bool {
	if fd.Status == diff.Deleted && fd.OldPath == path {
		return true
	}
	if needle == "" {
		// A file finding: the file added back makes it present again.
		if fd.NewPath == path && fd.Status == diff.Added {
			return false
		}
		return removed
	}
	for _, h := range fd.Hunks {
		for _, l := range h.Lines() {
			switch {
			case l.Kind == diff.Del && fd.OldPath == path && strings.Contains(l.Text, needle):
				removed = true
			case l.Kind == diff.Add && fd.NewPath == path && strings.Contains(l.Text, needle):
				removed = false
			}
		}
	}
	return removed
}
