package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// The pre-commit framework's entries (.pre-commit-hooks.yaml): `tollgate` (entry `tollgate hook
// pre-commit`, file names passed) and `tollgate-push` (entry `tollgate hook pre-push`). Without
// a stages key each runs at commit and at push time, so a config with both would review every
// change twice: each entry leaves the other's stage to it when the repository's
// .pre-commit-config.yaml runs the other there.

// frameworkFiles is the change the framework's commit stage asks about: the staged change of
// the named files when they are all staged (a commit; the framework may split a long list over
// several runs, each reviewing its part), else the full content in the index of the named files
// (`pre-commit run --all-files` or `--files`: what is committed there, not an empty diff).
func frameworkFiles(ctx context.Context, s *session, files []string) (*diff.Change, error) {
	ch, err := s.repo.Staged(ctx)
	if err != nil {
		return nil, err
	}
	staged := hook.StagedPaths(ch)
	want := map[string]bool{}
	all := true
	for _, f := range files {
		f = strings.TrimPrefix(f, "./")
		want[f] = true
		all = all && staged[f]
	}
	if all {
		for ui := range ch.Units {
			u := &ch.Units[ui]
			kept := u.Files[:0:0]
			for _, f := range u.Files {
				if want[f.Path()] {
					kept = append(kept, f)
				}
			}
			u.Files = kept
		}
		return ch, nil
	}
	ch, missing, err := s.repo.IndexFiles(ctx, files)
	if err != nil {
		return nil, err
	}
	for _, m := range missing {
		s.repo.Unreadable = append(s.repo.Unreadable, m+" is not in the index (untracked?): tollgate reviews what git holds; stage it, or leave it out of --files")
	}
	s.repo.Notes = append(s.repo.Notes, fmt.Sprintf("the pre-commit framework named %s that the staged change does not hold (run --all-files or --files): each was reviewed at its full content in the index", pluralWord(len(files), "file")))
	return ch, nil
}

var (
	hookItem  = lazyre.New(`^(\s*)-\s+id:\s*['"]?(tollgate(?:-push|-commit-msg)?)['"]?\s*(?:#.*)?$`)
	stagesKey = lazyre.New(`^\s*stages:\s*(.*)$`)
	listItem  = lazyre.New(`^\s*-\s*['"]?([\w-]+)['"]?\s*$`)
)

// frameworkRuns reports whether the repository's .pre-commit-config.yaml runs the hook id at
// this stage (push or commit): it lists the id with no stages key, or with a stage of that kind
// (`pre-push`/`push`, or `pre-commit`/`commit`). When in doubt (no config, no such entry), no:
// then nothing is skipped.
func frameworkRuns(s *session, id string, push bool) bool {
	if push {
		return frameworkRunsAt(s, id, "pre-push", "push")
	}
	return frameworkRunsAt(s, id, "pre-commit", "commit")
}

// frameworkRunsAt reports whether .pre-commit-config.yaml lists the hook id with no stages key
// or with one of the stage names.
func frameworkRunsAt(s *session, id string, names ...string) bool {
	data, err := policy.ReadRepoFile(s.boundary, ".pre-commit-config.yaml")
	if err != nil || data == nil {
		return false
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		m := hookItem.FindStringSubmatch(l)
		if m == nil || m[2] != id {
			continue
		}
		stages, ok := itemStages(lines[i+1:], len(m[1]))
		if !ok {
			return true // no stages key: every stage
		}
		for _, st := range stages {
			if slices.Contains(names, st) {
				return true
			}
		}
	}
	return false
}

// itemStages reads the stages key of a list item whose "-" is at column indent, from the lines
// after its first; ok is false when the item has none.
func itemStages(lines []string, indent int) ([]string, bool) {
	for i, l := range lines {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
			return nil, false // the next item or the end of the list
		}
		m := stagesKey.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if v := strings.TrimSpace(m[1]); v != "" {
			v = strings.Trim(v, "[] ")
			var out []string
			for _, st := range strings.Split(v, ",") {
				out = append(out, strings.Trim(strings.TrimSpace(st), `'"`))
			}
			return out, true
		}
		var out []string
		for _, b := range lines[i+1:] {
			mm := listItem.FindStringSubmatch(b)
			if mm == nil {
				break
			}
			out = append(out, mm[1])
		}
		return out, true
	}
	return nil, false
}

// frameworkMessage handles the framework's `tollgate` entry run at the commit-msg stage (a
// config with no stages runs it at every stage it is installed for): its one file name is
// then git's message file, which lies in the git directory, never in the work tree. It
// reviews the message, or leaves it to the tollgate-commit-msg entry when the config lists
// that one. ok is false when this is not the commit-msg stage.
func frameworkMessage(c *cli.Context, s *session) (ch *diff.Change, ok bool, err error) {
	if c.Command.Name != "pre-commit" || c.Args().Len() != 1 || !s.repo.InGitDir(c.Args().First()) {
		return nil, false, nil
	}
	if frameworkRunsAt(s, "tollgate-commit-msg", "commit-msg") {
		fmt.Fprintln(c.App.ErrWriter, "tollgate: the tollgate-commit-msg hook of .pre-commit-config.yaml reviews the commit message (not reviewed twice)")
		return nil, true, nil
	}
	ch, err = s.repo.Message(c.Context, c.Args().First())
	return ch, true, err
}
