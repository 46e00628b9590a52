package hook

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// maxSpecBytes bounds the paths one `git diff-tree` of merges' candidate files is given.
const maxSpecBytes = 64 << 10

// mergeUnits returns the unit of each merge (nil where it could not be read: then listed in
// r.Unreadable), each the lines the merge adds against every parent (onlyNew), without
// diffing the content a merge brings from its branches: that is most of a history's diff
// output, and onlyNew drops all of it. One `git diff-tree --raw` of every merge against each
// parent names the files that differ from every parent (the only ones onlyNew keeps); only
// those are then diffed with their lines, in one call for many merges, limited to their paths.
// A merge whose listing of those files differs when limited (rename detection that paired
// otherwise) is diffed in full against each parent, as before.
func (r *Repo) mergeUnits(ctx context.Context, g *Git, merges []listedCommit) ([]*diff.Unit, error) {
	if len(merges) == 0 {
		return nil, nil
	}
	out := make([]*diff.Unit, len(merges))
	lists, err := r.mergeListings(ctx, g, merges)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for i := range merges {
			if out[i], err = r.mergeAlone(ctx, g, merges[i]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	cands := make([]map[string]bool, len(merges))
	var todo []int
	for i, c := range merges {
		cands[i] = candidates(lists[i])
		if len(cands[i]) > 0 {
			todo = append(todo, i)
			continue
		}
		u := diff.Unit{Commit: c.id}
		if len(lists[i][0]) > 0 {
			u.Files = []diff.FileDiff{} // as onlyNew leaves it
		}
		out[i] = &u
	}
	for len(todo) > 0 {
		group, spec := specGroup(todo, lists, cands)
		if err := r.candidateUnits(ctx, g, merges, lists, cands, group, spec, out); err != nil {
			return nil, err
		}
		todo = todo[len(group):]
	}
	return out, nil
}

// parentsOf returns a commit's parents, first parent first.
func parentsOf(c listedCommit) []string {
	return append([]string{c.parent}, c.others...)
}

// mergeListings returns, per merge and parent, the raw listing of the merge against that
// parent (no lines), from one `git diff-tree --stdin` process.
func (r *Repo) mergeListings(ctx context.Context, g *Git, merges []listedCommit) ([][][]rawEntry, error) {
	var (
		diffTree  = "diff-tree"
		fromIn    = "--stdin"
		always    = "--always"
		recursive = "-r"
		renames   = "-M"
		rawFlag   = "--raw"
		nulFlag   = "-z"
		noAbbrev  = "--no-abbrev"
	)
	var runs []listedCommit
	var in strings.Builder
	for _, c := range merges {
		for _, p := range parentsOf(c) {
			runs = append(runs, listedCommit{id: c.id, parent: p})
			in.WriteString(c.id + " " + p + "\n")
		}
	}
	args := append([]string{diffTree, fromIn, always, recursive, renames, rawFlag, nulFlag, noAbbrev}, diffFlags...)
	out, err := g.run(ctx, strings.NewReader(in.String()), args...)
	if err != nil {
		return nil, err
	}
	sections, err := splitStream(out, runs)
	if err != nil {
		return nil, err
	}
	if len(sections) != len(runs) {
		return nil, errShortStream
	}
	lists := make([][][]rawEntry, len(merges))
	k := 0
	for i, c := range merges {
		for range parentsOf(c) {
			entries, err := parseRaw(sections[k])
			if err != nil {
				return nil, err
			}
			lists[i] = append(lists[i], dropUnmerged(entries))
			k++
		}
	}
	return lists, nil
}

// rawPath is the path a file of a raw entry is known by (diff.FileDiff.Path).
func rawPath(e *rawEntry) string {
	if e.status == 'D' {
		return e.oldPath
	}
	return e.newPath
}

// candidates returns the paths of the files a merge's listing against its first parent
// (lists[0]) shares with its listing against every other parent: the files onlyNew keeps.
func candidates(lists [][]rawEntry) map[string]bool {
	cand := map[string]bool{}
	for i := range lists[0] {
		cand[rawPath(&lists[0][i])] = true
	}
	for _, l := range lists[1:] {
		seen := map[string]bool{}
		for i := range l {
			if p := rawPath(&l[i]); cand[p] {
				seen[p] = true
			}
		}
		cand = seen
	}
	return cand
}

// specGroup returns the leading merges of todo whose candidate files (and the names they
// have in each parent) fit in maxSpecBytes, at least one, and those paths, sorted.
func specGroup(todo []int, lists [][][]rawEntry, cands []map[string]bool) ([]int, []string) {
	set := map[string]bool{}
	size, n := 0, 0
	for _, i := range todo {
		add := map[string]bool{}
		for _, l := range lists[i] {
			for k := range l {
				if e := &l[k]; cands[i][rawPath(e)] {
					add[e.oldPath], add[e.newPath] = true, true
				}
			}
		}
		more := 0
		for p := range add {
			if !set[p] {
				more += len(p) + 1
			}
		}
		if n > 0 && size+more > maxSpecBytes {
			break
		}
		for p := range add {
			set[p] = true
		}
		size += more
		n++
	}
	delete(set, "")
	spec := make([]string, 0, len(set))
	for p := range set {
		spec = append(spec, p)
	}
	slices.Sort(spec)
	return todo[:n], spec
}

// candidateUnits diffs the merges of group against each parent, limited to spec, in one git
// process, and sets their units in out. A merge that cannot be read so, or whose limited
// listing differs from its full one, is diffed alone in full (mergeAlone).
func (r *Repo) candidateUnits(ctx context.Context, g *Git, merges []listedCommit, lists [][][]rawEntry, cands []map[string]bool, group []int, spec []string, out []*diff.Unit) error {
	var (
		diffTree = "diff-tree"
		fromIn   = "--stdin"
		always   = "--always"
		sep      = "--"
	)
	var runs []listedCommit
	var in strings.Builder
	for _, i := range group {
		for _, p := range parentsOf(merges[i]) {
			runs = append(runs, listedCommit{id: merges[i].id, parent: p})
			in.WriteString(merges[i].id + " " + p + "\n")
		}
	}
	args := append(append([]string{diffTree, fromIn, always}, unitFlags...), diffFlags...)
	args = append(append(args, sep), spec...)
	res, runErr := g.run(ctx, strings.NewReader(in.String()), args...)
	var sections [][]byte
	if runErr == nil {
		sections, runErr = splitStream(res, runs)
	}
	k := 0
	for _, i := range group {
		c := merges[i]
		n := len(parentsOf(c))
		var u *diff.Unit
		if runErr == nil && len(sections) == len(runs) {
			u = r.limitedUnit(ctx, g, c, lists[i], cands[i], sections[k:k+n])
		}
		k += n
		if u == nil {
			var err error
			if u, err = r.mergeAlone(ctx, g, c); err != nil {
				return err
			}
		}
		out[i] = u
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// limitedUnit builds a merge's unit from its limited diffs against each parent (sections), or
// returns nil when they do not list the candidate files exactly as the full listings do, or
// cannot be read.
func (r *Repo) limitedUnit(ctx context.Context, g *Git, c listedCommit, lists [][]rawEntry, cand map[string]bool, sections [][]byte) *diff.Unit {
	diffTree := "diff-tree"
	var per []diff.Unit
	for k, p := range parentsOf(c) {
		sec := sections[k]
		rawOut := sec
		if j := bytes.Index(sec, []byte{0, 0}); j >= 0 {
			rawOut = sec[:j+1]
		}
		entries, err := parseRaw(rawOut)
		if err != nil || !slices.Equal(only(dropUnmerged(entries), cand), only(lists[k], cand)) {
			return nil
		}
		u, err := r.parseUnit(ctx, g, c.id, []string{diffTree}, []string{p, c.id}, sec)
		if err != nil {
			return nil
		}
		files := u.Files[:0:0]
		for _, f := range u.Files {
			if cand[f.Path()] {
				files = append(files, f)
			}
		}
		u.Files = files
		per = append(per, u)
	}
	u := onlyNew(per[0], per[1:])
	return &u
}

// only returns the entries whose path is in cand.
func only(entries []rawEntry, cand map[string]bool) []rawEntry {
	var out []rawEntry
	for i := range entries {
		if cand[rawPath(&entries[i])] {
			out = append(out, entries[i])
		}
	}
	return out
}

// mergeAlone diffs a merge in full against each parent, one process each; a merge that cannot
// be read is listed in r.Unreadable (nil unit).
func (r *Repo) mergeAlone(ctx context.Context, g *Git, c listedCommit) (*diff.Unit, error) {
	var per []diff.Unit
	for _, p := range parentsOf(c) {
		u, _, err := r.unitAgainst(ctx, g, c.id, p)
		if err != nil {
			return nil, r.keepUnreadable(err)
		}
		per = append(per, u)
	}
	u := onlyNew(per[0], per[1:])
	return &u, nil
}
