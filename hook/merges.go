package hook

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// maxSpecBytes bounds the paths one `git diff-tree` of merges' candidate files is given.
const maxSpecBytes = 64 << 10

// maxGroups is how many calls mergeUnits prefers at most for one batch's merges: a call costs
// a git start; a merge in a call limited to more paths than its own may cost diffs of files
// it drops.
const maxGroups = 4

// mergeOut is a merge's unit, or why it could not be read (an *unreadableError).
type mergeOut struct {
	u          *diff.Unit
	unreadable error
}

// mergeUnits returns the unit of each merge (or, where it could not be read, why: the caller
// lists that in r.Unreadable; mergeUnits changes nothing of r, so it runs beside the diff of
// the batch's other commits), each the lines the merge adds against every parent (onlyNew),
// without diffing the content a merge brings from its branches. Most merges are read from
// git's combined diff (combinedUnits); those it cannot give the same unit for, and all of them
// when it fails, are read from their listings against each parent (listedMergeUnits).
func (r *Repo) mergeUnits(ctx context.Context, g *Git, merges []listedCommit) ([]mergeOut, error) {
	if len(merges) == 0 {
		return nil, nil
	}
	out, rest, err := r.combinedUnits(ctx, g, merges)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return r.listedMergeUnits(ctx, g, merges)
	}
	if len(rest) == 0 {
		return out, nil
	}
	sel := make([]listedCommit, len(rest))
	for k, i := range rest {
		sel[k] = merges[i]
	}
	listed, err := r.listedMergeUnits(ctx, g, sel)
	if err != nil {
		return nil, err
	}
	for k, i := range rest {
		out[i] = listed[k]
	}
	return out, nil
}

// listedMergeUnits returns the unit of each merge as mergeUnits does (or why it could not be
// read): the lines the merge adds against every parent (onlyNew), without diffing the content
// a merge brings from its branches (most of a history's diff output, all dropped by onlyNew). One `git diff-tree --raw` of every merge against each
// parent names the files that differ from every parent (the only ones onlyNew keeps); only
// those are then diffed with their lines, in one call for many merges, limited to their paths.
// A merge whose listing of those files differs when limited (rename detection that paired
// otherwise) is diffed in full against each parent, as before.
func (r *Repo) listedMergeUnits(ctx context.Context, g *Git, merges []listedCommit) ([]mergeOut, error) {
	if len(merges) == 0 {
		return nil, nil
	}
	out := make([]mergeOut, len(merges))
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
		out[i] = mergeOut{u: &u}
	}
	for _, gr := range planGroups(todo, lists, cands) {
		if err := r.candidateUnits(ctx, g, merges, lists, cands, gr.members, gr.paths(), out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parentsOf returns a commit's parents, first parent first.
func parentsOf(c listedCommit) []string {
	return append([]string{c.parent}, c.others...)
}

// perParent lists each merge once per parent, first parent first, and the `diff-tree --stdin`
// lines ("<merge> <parent>") that ask git for those diffs, in the same order.
func perParent(merges []listedCommit) ([]listedCommit, string) {
	var runs []listedCommit
	var in strings.Builder
	for _, c := range merges {
		for _, p := range parentsOf(c) {
			runs = append(runs, listedCommit{id: c.id, parent: p})
			in.WriteString(c.id + " " + p + "\n")
		}
	}
	return runs, in.String()
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
	runs, in := perParent(merges)
	args := append([]string{diffTree, fromIn, always, recursive, renames, rawFlag, nulFlag, noAbbrev}, diffFlags...)
	sections, err := wholeStream(ctx, g, in, args, runs)
	if err != nil {
		return nil, err
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

// specGroup is merges whose candidate files are diffed in one git call, limited to spec.
type specGroup struct {
	members []int
	spec    map[string]bool
	size    int // bytes of spec's paths
}

// paths returns the group's paths, sorted.
func (gr *specGroup) paths() []string {
	out := make([]string, 0, len(gr.spec))
	for p := range gr.spec {
		if p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// planGroups puts the merges of todo into groups, each diffed in one call limited to the
// union of its members' paths (their candidate files, by every name they have in a parent),
// of at most maxSpecBytes (or one merge). A merge joins the first group where no member,
// itself included, has a file the union would add that it does not need (a path one merge
// needs makes git diff, in another merge, a file that merge drops, which can be large); with
// maxGroups groups open, it joins the one where it adds fewest such files.
func planGroups(todo []int, lists [][][]rawEntry, cands []map[string]bool) []*specGroup {
	pl := groupPlan{own: map[int]map[string]bool{}, listed: map[int]map[string]bool{}}
	for _, i := range todo {
		pl.own[i], pl.listed[i] = map[string]bool{}, map[string]bool{}
		for _, l := range lists[i] {
			for k := range l {
				e := &l[k]
				pl.listed[i][e.oldPath], pl.listed[i][e.newPath] = true, true
				if cands[i][rawPath(e)] {
					pl.own[i][e.oldPath], pl.own[i][e.newPath] = true, true
				}
			}
		}
	}
	var groups []*specGroup
	for _, i := range todo {
		size := 0
		for p := range pl.own[i] {
			size += len(p) + 1
		}
		home := pl.home(i, size, groups)
		if home == nil {
			home = &specGroup{spec: map[string]bool{}}
			groups = append(groups, home)
		}
		home.members = append(home.members, i)
		for p := range pl.own[i] {
			if !home.spec[p] {
				home.spec[p] = true
				home.size += len(p) + 1
			}
		}
	}
	return groups
}

// groupPlan holds, per merge, the paths its candidate files have (own) and every path its
// listings name (listed).
type groupPlan struct {
	own, listed map[int]map[string]bool
}

// waste counts the files that diffing merge m limited to paths would diff only to drop.
func (pl *groupPlan) waste(m int, paths map[string]bool) int {
	n := 0
	for p := range paths {
		if pl.listed[m][p] && !pl.own[m][p] {
			n++
		}
	}
	return n
}

// cost counts the files diffed only to be dropped if merge i joined gr, in i and in gr's
// members.
func (pl *groupPlan) cost(i int, gr *specGroup) int {
	n := pl.waste(i, gr.spec)
	for _, m := range gr.members {
		n += pl.waste(m, pl.own[i])
	}
	return n
}

// home returns the group merge i (size bytes of paths) joins: the first one where it costs
// nothing, else a new one (nil) while there are fewer than maxGroups, else the one where it
// costs least.
func (pl *groupPlan) home(i, size int, groups []*specGroup) *specGroup {
	var best *specGroup
	least := 0
	for _, gr := range groups {
		if gr.size+size > maxSpecBytes {
			continue
		}
		c := pl.cost(i, gr)
		if c == 0 {
			return gr
		}
		if best == nil || c < least {
			best, least = gr, c
		}
	}
	if len(groups) < maxGroups {
		return nil
	}
	return best
}

// candidateUnits diffs the merges of group against each parent, limited to spec, in one git
// process, and sets their units in out. A merge that cannot be read so, or whose limited
// listing differs from its full one, is diffed alone in full (mergeAlone).
func (r *Repo) candidateUnits(ctx context.Context, g *Git, merges []listedCommit, lists [][][]rawEntry, cands []map[string]bool, group []int, spec []string, out []mergeOut) error {
	var (
		diffTree = "diff-tree"
		fromIn   = "--stdin"
		always   = "--always"
		sep      = "--"
	)
	sel := make([]listedCommit, len(group))
	for k, i := range group {
		sel[k] = merges[i]
	}
	runs, in := perParent(sel)
	args := append(append([]string{diffTree, fromIn, always}, unitFlags...), diffFlags...)
	args = append(append(args, sep), spec...)
	res, runErr := g.run(ctx, strings.NewReader(in), args...)
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
		out[i] = mergeOut{u: u}
		if u == nil {
			var err error
			if out[i], err = r.mergeAlone(ctx, g, c); err != nil {
				return err
			}
		}
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
// be read has no unit but the reason.
func (r *Repo) mergeAlone(ctx context.Context, g *Git, c listedCommit) (mergeOut, error) {
	var per []diff.Unit
	for _, p := range parentsOf(c) {
		u, _, err := r.unitAgainst(ctx, g, c.id, p)
		if err != nil {
			if errors.As(err, new(*unreadableError)) {
				return mergeOut{unreadable: err}, nil
			}
			return mergeOut{}, err
		}
		per = append(per, u)
	}
	u := onlyNew(per[0], per[1:])
	return mergeOut{u: &u}, nil
}
