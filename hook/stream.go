package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// firstBatch and streamBatch are how many commits one `git diff-tree --stdin` process diffs:
// the first batch is small, so the review starts reading soon, and each next one twice the
// size of the one before, up to streamBatch, which bounds one call's output and time
// (gitTimeout) on a long history. Every process costs a start, and its packs and heap are
// faulted in anew: flask's 3,800 commits that are not merges, diffed in 14 processes of 400,
// cost git 39k page faults and 0.6 s of system time, against 22k and 0.3 s in one. A call
// that runs out of time still gives the commits it diffed, and addCommits goes on from there.
var (
	firstBatch  = 400
	streamBatch = 3200
)

// addCommits adds one unit per commit with the commit's message and identities (addCommitMeta).
func (r *Repo) addCommits(ctx context.Context, ch *diff.Change, commits []listedCommit) error {
	if len(commits) == 0 {
		return nil
	}
	ids := make([]string, len(commits))
	for i, c := range commits {
		ids[i] = c.id
	}
	// The commit objects are read while the diffs are: one cat-file process beside them.
	type read struct {
		objs map[string]rawObject
		err  error
	}
	meta := make(chan read, 1)
	go func() {
		objs, err := r.readObjects(ctx, ids)
		meta <- read{objs, err}
	}()
	err := r.addCommitDiffs(ctx, ch, commits)
	m := <-meta
	if err != nil {
		return err
	}
	if m.err != nil {
		return m.err
	}
	r.attachCommitMeta(ch, ids, m.objs)
	return nil
}

// addCommitDiffs adds one unit per commit, each against its first parent (the empty tree for
// a root commit); a merge's unit is what it adds against every parent (mergeUnits). The diffs
// come from one `git diff-tree --stdin` process per batch instead of one process per commit.
// Where that stream stops early (an object it cannot read), the commit it stopped at is diffed
// alone, so it is listed as unreadable, and the stream resumes after it.
func (r *Repo) addCommitDiffs(ctx context.Context, ch *diff.Change, commits []listedCommit) error {
	g, err := r.treeGit()
	if err != nil {
		return err
	}
	// git diffs the next batch while this one is parsed and read: at most one batch's output
	// waits.
	var next *plainRun
	defer func() { next.wait() }()
	for size := firstBatch; len(commits) > 0; size = min(2*size, streamBatch) {
		batch := commits[:min(len(commits), size)]
		cur := next
		if !cur.is(batch) {
			cur.wait()
			cur = r.startPlain(ctx, g, batch)
		}
		next = nil
		if rest := commits[len(batch):]; len(rest) > 0 {
			next = r.startPlain(ctx, g, rest[:min(len(rest), min(2*size, streamBatch))])
		}
		units, done, err := r.streamUnits(ctx, g, batch, cur)
		ch.Units = append(ch.Units, units...)
		commits = commits[done:]
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var se *streamError
		if !errors.As(err, &se) {
			return err
		}
		// The commit the stream could not finish, alone and the old way: it either is read
		// or is listed as unreadable.
		c := commits[0]
		u, _, err := r.unitAgainst(ctx, g, c.id, c.parent)
		if err != nil {
			if err = r.keepUnreadable(err); err != nil {
				return err
			}
		} else {
			ch.Units = append(ch.Units, u)
		}
		commits = commits[1:]
	}
	return nil
}

// streamError says the stream ended before the unit of the commit at index done.
type streamError struct {
	done int
	err  error
}

func (e *streamError) Error() string {
	return fmt.Sprintf("failed to read the diff of commit %d of the batch: %v", e.done+1, e.err)
}

func (e *streamError) Unwrap() error { return e.err }

// errShortStream is git output that ends before the last commit asked for.
var errShortStream = errors.New("failed to read the diffs: git printed fewer commits than asked")

// streamUnits returns the units of the leading commits whose diffs are complete and how many
// commits that covers: all of them, or those before the commit (not a merge) where git
// stopped, then with a *streamError. The commits that are not merges are diffed in one git
// process (run, when it was started for these commits already); the merges by mergeUnits. A merge that cannot be read has no unit (it is listed in
// r.Unreadable) but counts as done.
func (r *Repo) streamUnits(ctx context.Context, g *Git, commits []listedCommit, run *plainRun) ([]diff.Unit, int, error) {
	if !run.is(commits) {
		run.wait()
		run = r.startPlain(ctx, g, commits)
	}
	var merges []listedCommit
	for _, c := range commits {
		if len(c.others) > 0 {
			merges = append(merges, c)
		}
	}
	// The merges are diffed while the other commits' output is parsed.
	var mu []mergeOut
	var merr error
	mergesDone := make(chan struct{})
	go func() {
		defer close(mergesDone)
		mu, merr = r.mergeUnits(ctx, g, merges)
	}()
	pu, perr := r.plainUnits(ctx, g, run)
	<-mergesDone
	if perr != nil && !errors.As(perr, new(*streamError)) {
		return nil, 0, perr
	}
	if merr != nil {
		return nil, 0, merr
	}
	// The commits before the first plain commit without a unit; the merges after it are
	// diffed again with the next batch.
	cut, seen := len(commits), 0
	for i, c := range commits {
		if len(c.others) > 0 {
			continue
		}
		if seen == len(pu) {
			cut = i
			break
		}
		seen++
	}
	units := make([]diff.Unit, 0, cut)
	for _, c := range commits[:cut] {
		if len(c.others) == 0 {
			units, pu = append(units, pu[0]), pu[1:]
			continue
		}
		m := mu[0]
		mu = mu[1:]
		if m.u != nil {
			units = append(units, *m.u)
		} else if err := r.keepUnreadable(m.unreadable); err != nil {
			return nil, 0, err
		}
	}
	if perr != nil {
		return units, cut, &streamError{done: cut, err: perr}
	}
	return units, cut, nil
}

// plainRun is one `git diff-tree --stdin` of a batch's commits that are not merges, under way
// in a goroutine of its own.
type plainRun struct {
	first   string // the batch's first commit, and its length: which batch this is
	n       int
	commits []listedCommit // those that are not merges
	done    chan struct{}
	out     []byte
	err     error
}

// startPlain starts diffing the commits of batch that are not merges. Each stdin line is a
// commit and its parent: git prints the commit id and a NUL, the raw -z listing, an empty
// record, then the patch. A root commit alone is diffed against the empty tree (--root). Ids
// are resolved object ids only.
func (r *Repo) startPlain(ctx context.Context, g *Git, batch []listedCommit) *plainRun {
	run := &plainRun{first: batch[0].id, n: len(batch), done: make(chan struct{})}
	var in strings.Builder
	for _, c := range batch {
		if len(c.others) > 0 {
			continue
		}
		run.commits = append(run.commits, c)
		in.WriteString(c.id)
		if c.parent != "" {
			in.WriteString(" " + c.parent)
		}
		in.WriteByte('\n')
	}
	if len(run.commits) == 0 {
		close(run.done)
		return run
	}
	var (
		diffTree = "diff-tree"
		fromIn   = "--stdin"
		root     = "--root"
		always   = "--always"
	)
	args := append(append([]string{diffTree, fromIn, root, always}, unitFlags...), diffFlags...)
	go func() {
		defer close(run.done)
		run.out, run.err = g.run(ctx, strings.NewReader(in.String()), args...)
	}()
	return run
}

// is reports whether run was started for batch (a nil run for none).
func (run *plainRun) is(batch []listedCommit) bool {
	return run != nil && len(batch) > 0 && run.first == batch[0].id && run.n == len(batch)
}

// wait waits for run's git process to end (nil: nothing to wait for).
func (run *plainRun) wait() {
	if run != nil {
		<-run.done
	}
}

// plainUnits waits for run and returns the units of the leading commits whose output is
// complete: all of them, or those before the commit where git stopped (then with a
// *streamError).
func (r *Repo) plainUnits(ctx context.Context, g *Git, run *plainRun) ([]diff.Unit, error) {
	run.wait()
	commits, out, runErr := run.commits, run.out, run.err
	run.out = nil
	if len(commits) == 0 {
		return nil, nil
	}
	diffTree := "diff-tree"
	sections, err := splitStream(out, commits)
	if err != nil {
		return nil, err
	}
	complete := len(sections)
	if runErr != nil && complete > 0 {
		complete-- // the last section may be cut where git stopped
	}
	var units []diff.Unit
	for i, c := range commits[:complete] {
		parent := c.parent
		if parent == "" {
			if parent, err = r.EmptyTree(ctx); err != nil {
				return units, err
			}
		}
		u, err := r.parseUnit(ctx, g, c.id, []string{diffTree}, []string{parent, c.id}, sections[i])
		if err != nil {
			return units, err
		}
		units = append(units, u)
	}
	if runErr != nil {
		return units, &streamError{done: len(units), err: runErr}
	}
	if len(units) != len(commits) {
		return units, errShortStream
	}
	return units, nil
}

// onlyNew keeps of a merge's unit against its first parent (u) what is in none of its other
// parents (each unit of others is the merge against one of them): a file the merge leaves as
// another parent has it is dropped, and of the rest only the added lines that are added against
// every parent stay. What a merge brings from a branch was reviewed at the branch's own commits
// (in the range, or already on the remote); what the merge itself adds (an "evil merge") is
// reviewed here. A commit with one parent is returned as it is.
func onlyNew(u diff.Unit, others []diff.Unit) diff.Unit {
	if len(others) == 0 {
		return u
	}
	kept := u.Files[:0:0]
	for _, f := range u.Files {
		keep := true
		var sets []map[int]bool
		for _, o := range others {
			of := findFile(o, f.Path())
			if of == nil {
				keep = false // as that parent has it
				break
			}
			set := map[int]bool{}
			for l := range of.Added() {
				set[l.New] = true
			}
			sets = append(sets, set)
		}
		if !keep {
			continue
		}
		f.Hunks = keepAdded(f.Hunks, func(n int) bool {
			for _, set := range sets {
				if !set[n] {
					return false
				}
			}
			return true
		})
		kept = append(kept, f)
	}
	u.Files = kept
	return u
}

// findFile returns the file of u at path (its new name), or nil.
func findFile(u diff.Unit, path string) *diff.FileDiff {
	for i := range u.Files {
		if u.Files[i].Path() == path {
			return &u.Files[i]
		}
	}
	return nil
}

// keepAdded returns hunks with only the added lines keep accepts (other lines stay), dropping
// hunks left without lines.
func keepAdded(hunks []diff.Hunk, keep func(newLine int) bool) []diff.Hunk {
	out := make([]diff.Hunk, 0, len(hunks))
	for _, h := range hunks {
		kept := diff.NewHunk(h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		kept.NoNewlineAtEnd = h.NoNewlineAtEnd
		for _, l := range h.Lines() {
			if l.Kind != diff.Add || keep(l.New) {
				kept.Append(l)
			}
		}
		if kept.Len() > 0 {
			out = append(out, kept)
		}
	}
	return out
}

// wholeStream runs a `git diff-tree --stdin` (args) of the commits that in names, and returns
// one section per commit (splitStream), all of them or an error.
func wholeStream(ctx context.Context, g *Git, in string, args []string, commits []listedCommit) ([][]byte, error) {
	out, err := g.run(ctx, strings.NewReader(in), args...)
	if err != nil {
		return nil, err
	}
	sections, err := splitStream(out, commits)
	if err != nil {
		return nil, err
	}
	if len(sections) != len(commits) {
		return nil, errShortStream
	}
	return sections, nil
}

// splitStream cuts diff-tree --stdin -z output into one section per commit (the raw listing,
// an empty record and the patch, without the commit id), in the order of commits. The raw
// listing is walked record by record, so a file named like the next commit id cannot end a
// section early; the patch never holds a line that starts with an id and ends with NUL (each
// patch line starts with its own prefix character), so the next section starts at the first
// "\n<next id>\x00" after it.
func splitStream(out []byte, commits []listedCommit) ([][]byte, error) {
	var sections [][]byte
	pos := 0
	for i, c := range commits {
		if pos >= len(out) {
			break
		}
		head := c.id + "\x00"
		if !bytes.HasPrefix(out[pos:], []byte(head)) {
			return nil, fmt.Errorf("failed to read the diffs: expected commit %s at byte %d", c.id, pos)
		}
		start := pos + len(head)
		end := len(out)
		if i+1 < len(commits) {
			next := []byte(commits[i+1].id + "\x00")
			rawEnd := skipRaw(out, start)
			switch {
			case bytes.HasPrefix(out[rawEnd:], next):
				end = rawEnd // no patch
			default:
				if k := bytes.Index(out[rawEnd:], append([]byte{'\n'}, next...)); k >= 0 {
					end = rawEnd + k + 1
				}
			}
		}
		sections = append(sections, out[start:end])
		pos = end
	}
	return sections, nil
}

// skipRaw returns the offset just past the raw -z records that start at pos and the empty
// record after them, if any. A record is ":<modes> <ids> <status>\x00<path>\x00", with a
// second path for a rename or copy.
func skipRaw(out []byte, pos int) int {
	for pos < len(out) && out[pos] == ':' {
		meta := bytes.IndexByte(out[pos:], 0)
		if meta < 0 {
			return len(out)
		}
		fields := bytes.Fields(out[pos : pos+meta])
		paths := 1
		if len(fields) > 0 {
			if st := fields[len(fields)-1]; len(st) > 0 && (st[0] == 'R' || st[0] == 'C') {
				paths = 2
			}
		}
		pos += meta + 1
		for range paths {
			n := bytes.IndexByte(out[pos:], 0)
			if n < 0 {
				return len(out)
			}
			pos += n + 1
		}
	}
	if pos < len(out) && out[pos] == 0 {
		pos++ // the empty record between the listing and the patch
	}
	return pos
}
