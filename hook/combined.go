package hook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// bigFileBytes is bigFileThreshold in bytes: git diffs a larger file as binary.
const bigFileBytes = 1 << 20

// combinedEntry is one record of `git diff-tree -c --raw -z`: a path that differs from every
// parent, with its mode, blob id and status against each parent (modes and oids hold the
// result's last).
type combinedEntry struct {
	modes, oids []string
	status      string
	path        string
}

// against returns the entry as the raw listing of the merge against parent n gives it.
func (e *combinedEntry) against(n int) rawEntry {
	last := len(e.modes) - 1
	return rawEntry{oldMode: e.modes[n], newMode: e.modes[last], oldOID: e.oids[n], newOID: e.oids[last],
		status: e.status[n], oldPath: e.path, newPath: e.path}
}

// parseCombinedRaw parses the NUL-separated combined raw listing of a merge with parents
// parents: "::<modes> <ids> <statuses>\x00<path>\x00" per path (one colon per parent).
func parseCombinedRaw(b []byte, parents int) ([]combinedEntry, error) {
	fields := splitZ(b)
	if len(fields)%2 != 0 {
		return nil, fmt.Errorf("failed to parse git combined raw diff: %d fields", len(fields))
	}
	colons := strings.Repeat(":", parents)
	var out []combinedEntry
	for i := 0; i < len(fields); i += 2 {
		head, ok := strings.CutPrefix(fields[i], colons)
		parts := strings.Fields(head)
		if !ok || len(parts) != 2*(parents+1)+1 || len(parts[2*(parents+1)]) != parents || fields[i+1] == "" {
			return nil, fmt.Errorf("failed to parse git combined raw diff: unexpected record %q", fields[i])
		}
		out = append(out, combinedEntry{
			modes: parts[:parents+1], oids: parts[parents+1 : 2*(parents+1)],
			status: parts[2*(parents+1)], path: fields[i+1],
		})
	}
	return out, nil
}

// plainCombined reports that a merge's combined listing gives the same files, statuses and
// blobs as its listings against each parent with rename detection would: every file is a
// regular file modified against every parent. A file added or deleted against a parent may be
// one half of a rename there (which git's combined diff without -M does not pair), and a type
// change, symlink or submodule is diffed differently: those merges are read as before.
func plainCombined(entries []combinedEntry) bool {
	for i := range entries {
		e := &entries[i]
		if strings.Trim(e.status, "M") != "" {
			return false
		}
		for _, m := range e.modes {
			if m != "100644" && m != "100755" {
				return false
			}
		}
	}
	return true
}

// combinedUnits gives each merge its unit from git's combined diff (`git diff-tree -c`), which
// diffs only the files that differ from every parent and shows each line of the result with
// the parents it is added against and each removed line with the parents it is removed from.
// From that, a merge's unit is rebuilt exactly as onlyNew makes it from the diffs against each
// parent: the diff against the first parent, of those files only, with only the added lines
// that are added against every parent. One `git diff-tree -c --raw` of all merges lists their
// files first (no lines); a merge without such files has an empty unit; one whose listing
// could pair renames or holds anything but regular files modified against every parent, or a
// blob above bigFileBytes (git's combined diff holds every version of a file), is returned in
// rest, as is one whose combined diff cannot be read so (a binary file), or that git could not
// diff (a missing blob; it stops there, so the merges after it too): the caller reads those as
// before. Only the others are diffed with their lines, in one more call.
func (r *Repo) combinedUnits(ctx context.Context, g *Git, merges []listedCommit) ([]mergeOut, []int, error) {
	out := make([]mergeOut, len(merges))
	lists, err := r.combinedListings(ctx, g, merges)
	if err != nil {
		return nil, nil, err
	}
	var todo, rest []int
	for i, c := range merges {
		switch {
		case len(lists[i]) == 0:
			out[i] = mergeOut{u: &diff.Unit{Commit: c.id}}
		case plainCombined(lists[i]):
			todo = append(todo, i)
		default:
			rest = append(rest, i)
		}
	}
	big, err := r.largeBlobs(ctx, g, lists, todo)
	if err != nil {
		return nil, nil, err
	}
	todo = slices.DeleteFunc(todo, func(i int) bool {
		if big[i] {
			rest = append(rest, i)
		}
		return big[i]
	})
	sel := make([]listedCommit, len(todo))
	for k, i := range todo {
		sel[k] = merges[i]
	}
	sections, err := r.combinedPatches(ctx, g, sel)
	if err != nil {
		return nil, nil, err
	}
	for k, i := range todo {
		if k >= len(sections) { // after a merge git could not read
			rest = append(rest, i)
			continue
		}
		u, err := r.combinedUnit(ctx, merges[i], lists[i], sections[k])
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			rest = append(rest, i)
			continue
		}
		out[i] = mergeOut{u: u}
	}
	slices.Sort(rest)
	return out, rest, nil
}

// combinedArgs are the arguments of `git diff-tree --stdin -c` of merges, with their lines
// (patch) or without.
func combinedArgs(patch bool) []string {
	var (
		diffTree  = "diff-tree"
		fromIn    = "--stdin"
		always    = "--always"
		combined  = "-c"
		recursive = "-r"
		rawFlag   = "--raw"
		nulFlag   = "-z"
		noAbbrev  = "--no-abbrev"
		patchFlag = "-p"
		// One line of context: without it git leaves out the unchanged lines that only carry
		// removed lines, and numbers the lines after them wrongly (diff.ParseCombined).
		context = "-U1"
	)
	args := []string{diffTree, fromIn, always, combined, recursive, rawFlag, nulFlag, noAbbrev}
	if patch {
		args = append(args, patchFlag, context)
	}
	return append(args, diffFlags...)
}

// combinedStdin is the `diff-tree --stdin` input that asks for the combined diff of each
// merge against the parents rev-list named: "<merge> <parent>..." per line.
func combinedStdin(merges []listedCommit) string {
	var in strings.Builder
	for _, c := range merges {
		in.WriteString(c.id + " " + strings.Join(parentsOf(c), " ") + "\n")
	}
	return in.String()
}

// combinedListings returns each merge's combined raw listing, from one git call.
func (r *Repo) combinedListings(ctx context.Context, g *Git, merges []listedCommit) ([][]combinedEntry, error) {
	sections, err := wholeStream(ctx, g, combinedStdin(merges), combinedArgs(false), merges)
	if err != nil {
		return nil, err
	}
	lists := make([][]combinedEntry, len(merges))
	for i, c := range merges {
		if lists[i], err = parseCombinedRaw(sections[i], len(parentsOf(c))); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

// combinedPatches returns the sections of one `git diff-tree --stdin -c -p` of merges (each
// merge's combined raw listing, an empty record and its combined patch) of the leading merges
// git printed whole: all of them, or those before one whose objects it could not read.
func (r *Repo) combinedPatches(ctx context.Context, g *Git, merges []listedCommit) ([][]byte, error) {
	if len(merges) == 0 {
		return nil, nil
	}
	res, runErr := g.run(ctx, strings.NewReader(combinedStdin(merges)), combinedArgs(true)...)
	if runErr != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	sections, err := splitStream(res, merges)
	if err != nil {
		return nil, err
	}
	switch {
	case runErr != nil && len(sections) > 0:
		sections = sections[:len(sections)-1] // the last may be cut where git stopped
	case runErr == nil && len(sections) != len(merges):
		return nil, errShortStream
	}
	return sections, nil
}

// largeBlobs returns the merges of todo with a blob above bigFileBytes (or one git does not
// have), from one `git cat-file --batch-check` of their files' blobs.
func (r *Repo) largeBlobs(ctx context.Context, g *Git, lists [][]combinedEntry, todo []int) (map[int]bool, error) {
	var oids []string
	seen := map[string]bool{}
	for _, i := range todo {
		for _, e := range lists[i] {
			for _, oid := range e.oids {
				if !seen[oid] && blobID(oid) {
					seen[oid] = true
					oids = append(oids, oid)
				}
			}
		}
	}
	small, err := smallBlobs(ctx, g, oids)
	if err != nil {
		return nil, err
	}
	big := map[int]bool{}
	for _, i := range todo {
		for _, e := range lists[i] {
			big[i] = big[i] || slices.ContainsFunc(e.oids, func(oid string) bool { return blobID(oid) && !small[oid] })
		}
	}
	return big, nil
}

// smallBlobs returns which of oids are blobs of at most bigFileBytes.
func smallBlobs(ctx context.Context, g *Git, oids []string) (map[string]bool, error) {
	var (
		catFileCmd = "cat-file"
		check      = "--batch-check"
	)
	small := map[string]bool{}
	if len(oids) == 0 {
		return small, nil
	}
	res, err := g.run(ctx, strings.NewReader(strings.Join(oids, "\n")+"\n"), catFileCmd, check)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(res), "\n") {
		f := strings.Fields(line) // "<oid> <type> <size>", or "<oid> missing"
		if len(f) != 3 || f[1] != "blob" {
			continue
		}
		if n, err := strconv.ParseInt(f[2], 10, 64); err == nil && n <= bigFileBytes {
			small[f[0]] = true
		}
	}
	return small, nil
}

// combinedUnit builds a merge's unit from its combined raw listing and patch (sec), which must
// list the files of entries: per file, the diff against the first parent (as the raw listing
// and the patch against that parent would give it), and of its added lines only those added
// against every parent.
func (r *Repo) combinedUnit(ctx context.Context, c listedCommit, entries []combinedEntry, sec []byte) (*diff.Unit, error) {
	parents := len(parentsOf(c))
	rawOut, patchOut := sec, []byte(nil)
	if i := bytes.Index(sec, []byte{0, 0}); i >= 0 {
		rawOut, patchOut = sec[:i+1], sec[i+2:]
	}
	again, err := parseCombinedRaw(rawOut, parents)
	if err != nil {
		return nil, err
	}
	if !slices.EqualFunc(again, entries, func(a, b combinedEntry) bool {
		return a.path == b.path && a.status == b.status && slices.Equal(a.oids, b.oids) && slices.Equal(a.modes, b.modes)
	}) {
		return nil, fmt.Errorf("failed to read merge %s: its combined listing changed", c.id)
	}
	files, err := diff.ParseCombined(patchOut, parents)
	if err != nil {
		return nil, err
	}
	if len(files) != len(entries) {
		return nil, fmt.Errorf("failed to read merge %s: git listed %d files but the combined patch has %d", c.id, len(entries), len(files))
	}
	u := diff.Unit{Commit: c.id, Files: make([]diff.FileDiff, 0, len(files))}
	for k := range files {
		cf, e := &files[k], entries[k].against(0)
		if cf.Path != e.newPath || cf.Binary {
			return nil, fmt.Errorf("failed to read merge %s: %q is binary or out of order", c.id, cf.Path)
		}
		hunks, every := cf.Against(0)
		if err := r.markNoNewline(ctx, cf, e.newOID, hunks); err != nil {
			return nil, err
		}
		f := diff.FileDiff{Hunks: hunks}
		applyRaw(&f, &e)
		f.Hunks = keepAdded(f.Hunks, func(n int) bool { return every[n] })
		u.Files = append(u.Files, f)
	}
	return &u, nil
}

// markNoNewline sets NoNewlineAtEnd on the last hunk when it ends with the result's last line
// added and the blob (oid) has no final newline, as git's patch against the parent marks it
// ("\ No newline at end of file"); the combined diff does not say. With context, an added line
// that is not the result's last is followed by a line the diff shows (LastNew).
func (r *Repo) markNoNewline(ctx context.Context, cf *diff.CombinedFile, oid string, hunks []diff.Hunk) error {
	if len(hunks) == 0 {
		return nil
	}
	h := &hunks[len(hunks)-1]
	var last diff.Line
	for _, l := range h.Lines() {
		last = l
	}
	if last.Kind != diff.Add || last.New != cf.LastNew() {
		return nil
	}
	end, err := r.lastByte(ctx, oid)
	if err != nil {
		return err
	}
	h.NoNewlineAtEnd = end != '\n'
	return nil
}

// lastByte returns the last byte of a blob (0 for an empty one), read through the review's
// cat-file process without keeping the rest.
func (r *Repo) lastByte(ctx context.Context, oid string) (byte, error) {
	if !blobID(oid) {
		return 0, fmt.Errorf("no blob %q", oid)
	}
	var last byte
	err := r.cat.read(ctx, r.Git, oid, func(size int, src io.Reader) error {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				last = buf[n-1]
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
	if err != nil {
		return 0, fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	return last, nil
}
