package review

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Scanner is one deterministic check over a unit of the change.
type Scanner interface {
	Name() string
	// Scan adds findings (and anything it could not do) to r. An error means the scanner
	// did not finish: it is reported as not run.
	Scan(ctx context.Context, u *diff.Unit, r *Result) error
}

// Step is a review step that runs after the scanners, unit by unit, seeing their findings:
// the model step (review/model). What it could not do it adds to the result's NotRun under
// Component; it never turns a failure into "no findings".
type Step interface {
	// Name is how the report lists the step when it ran ("model openai").
	Name() string
	// Component is the not_run component of its failures ("model:openai").
	Component() string
	// Review adds the step's findings for unit u to r; det are the findings so far.
	Review(ctx context.Context, cfg policy.Config, u *diff.Unit, det []Finding, r *Result)
}

// Result collects what scanners found in one review.
type Result struct {
	Findings   []Finding
	NotRun     []NotRun
	Limits     []string
	Rejected   []Rejected
	Suppressed int
	// Suppressions lists every finding counted in Suppressed (and, in Run, the baselined
	// findings and the excluded files).
	Suppressions []Suppression
	Binary       []string // binary files: scanned by name only
	// Notes are failures around the review that do not change its outcome (a cache or audit
	// write): the report notes them.
	Notes []string
}

// merge appends everything in o to r.
func (r *Result) merge(o *Result) {
	r.Findings = append(r.Findings, o.Findings...)
	r.NotRun = append(r.NotRun, o.NotRun...)
	r.Limits = append(r.Limits, o.Limits...)
	r.Rejected = append(r.Rejected, o.Rejected...)
	r.Binary = append(r.Binary, o.Binary...)
	r.Notes = append(r.Notes, o.Notes...)
	r.Suppressed += o.Suppressed
	r.Suppressions = append(r.Suppressions, o.Suppressions...)
}

func (r *Result) add(f Finding) {
	f.Fingerprint = fingerprint(&f)
	r.Findings = append(r.Findings, f)
}

// Add records a finding of a scanner, with its fingerprint.
func (r *Result) Add(f Finding) { r.add(f) }

// InjectionRuleID is the rule of every prompt-injection finding. Inline markers never
// suppress it: the text under review is the attacker's, and could carry the marker itself.
const InjectionRuleID = "tollgate/prompt-injection-attempt"

// uniq returns xs without repeats, in first-seen order.
func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Options configure one review.
type Options struct {
	Config   policy.Config
	Scanners []Scanner
	Version  string
	// Notes are lines the report shows about its own setup (e.g. a rule set warning).
	Notes []string
	// NotRun lists components the caller knows will not run (e.g. not available).
	NotRun []NotRun
	// Model is the optional model step (nil: no model configured).
	Model Step
	// Detector, if set, masks any secret left in a finding's evidence or message, whichever
	// scanner wrote it.
	Detector *redact.Detector
	// Exclude, if set, names the files no scanner reviews (review.exclude, allowlisted paths).
	Exclude Exclude
	// Baseline, if set, drops the findings it holds.
	Baseline Baseline
	// ShowSuppressed puts every suppressed, baselined and excluded item in the report.
	ShowSuppressed bool
	// Collect, if set, sees every finding the review kept, unmasked, before max_findings cuts
	// them (the baseline command hashes them; it must never store them as they are).
	Collect func([]Finding)
}

// Run reviews the change with every scanner and returns the ordered report.
func Run(ctx context.Context, ch *diff.Change, opts Options) *Report {
	start := time.Now()
	res := Result{NotRun: append([]NotRun{}, opts.NotRun...)}
	for ui := range ch.Units {
		if ch.Units[ui].Blobs == nil {
			ch.Units[ui].Blobs = ch.Blobs
		}
	}
	excluded := excludeFiles(ch, opts.Exclude)
	sups := make([]*Suppressor, len(ch.Units))
	ran := runScanners(ctx, ch, opts, sups, &res)
	if opts.Model != nil && runStep(ctx, ch, opts, opts.Model, sups, &res) {
		ran = append(ran, opts.Model.Name())
	}
	baselined := dropBaselined(&res, opts.Baseline)
	if opts.Collect != nil {
		opts.Collect(res.Findings)
	}
	rep := &Report{
		Tool:   Tool{Name: "tollgate", Version: opts.Version},
		Change: ChangeInfo{Kind: ch.Kind, Base: ch.Base, Head: ch.Head, Files: ch.FileCount()},
		FailOn: opts.Config.FailOn, Ran: ran, Suppressed: res.Suppressed, Binary: uniq(res.Binary),
		AddedLines: addedLines(ch), SetupNotes: opts.Notes,
		Excluded: len(excluded), Baselined: baselined,
	}
	if opts.ShowSuppressed {
		rep.Suppressions = append(nonNil(excluded), res.Suppressions...)
	}
	markLaterRemoved(ch, res.Findings)
	masker := redact.NewMasker(opts.Detector)
	mask := func(f *Finding) { maskFinding(masker, f) }
	rep.Findings, rep.Limits = order(res.Findings, opts.Config, res.Limits, mask, ch.Kind == "all")
	rep.Rejected = nonNil(res.Rejected)
	rep.NotRun = nonNil(res.NotRun)
	rep.Notes = uniq(res.Notes)
	rep.Status = status(rep)
	rep.Elapsed = time.Since(start)
	return rep
}

// addedLines counts the added lines of the change (of a commit message alone, its lines).
func addedLines(ch *diff.Change) int {
	lines := 0
	for ui := range ch.Units {
		for fi := range ch.Units[ui].Files {
			lines += ch.Units[ui].Files[fi].AddedCount()
		}
		if ch.Kind == "message" {
			for mi := range ch.Units[ui].Meta {
				lines += ch.Units[ui].Meta[mi].AddedCount()
			}
		}
	}
	return lines
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// status is the report's status: findings win over incompleteness.
func status(rep *Report) string {
	switch {
	case len(rep.Findings) > 0:
		return "findings"
	case rep.Incomplete():
		return "incomplete"
	}
	return "clean"
}

// scanOut is what one scanner did on one unit.
type scanOut struct {
	res Result
	err error
}

// runScanners runs the scanners side by side, each on every unit in turn with a private
// result, then merges the results in scanner and unit order, so reports stay deterministic.
// It returns the names of the scanners that finished.
func runScanners(ctx context.Context, ch *diff.Change, opts Options, sups []*Suppressor, res *Result) []string {
	scanCtx, cancel := ctx, context.CancelFunc(func() {})
	if t := opts.Config.ReviewTimeout; t > 0 {
		scanCtx, cancel = context.WithTimeout(ctx, t)
	}
	defer cancel()
	outs := make([][]scanOut, len(opts.Scanners))
	var wg sync.WaitGroup
	for si, s := range opts.Scanners {
		wg.Add(1)
		outs[si] = make([]scanOut, 0, len(ch.Units)) // a history has thousands of units
		go func() {
			defer wg.Done()
			for ui := range ch.Units {
				var o scanOut
				o.err = s.Scan(scanCtx, &ch.Units[ui], &o.res)
				outs[si] = append(outs[si], o)
				if o.err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	var ran []string
	for si, s := range opts.Scanners {
		if mergeScanner(ctx, ch, opts, s, outs[si], sups, res) {
			ran = append(ran, s.Name())
		}
	}
	return ran
}

// mergeScanner merges one scanner's results, unit by unit, into res; it reports whether the
// scanner finished.
func mergeScanner(ctx context.Context, ch *diff.Change, opts Options, s Scanner, outs []scanOut, sups []*Suppressor, res *Result) bool {
	finished := true
	for ui, o := range outs {
		before := len(res.Findings)
		res.merge(&o.res)
		inUnit(res.Findings[before:], &ch.Units[ui])
		dropSuppressed(ctx, &ch.Units[ui], &sups[ui], res, before)
		if err := o.err; err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				err = fmt.Errorf("review.timeout (%s) reached: %w", opts.Config.ReviewTimeout, err)
			}
			res.NotRun = append(res.NotRun, NotRun{Component: "scanner:" + s.Name(), Reason: err.Error()})
			finished = false
		}
	}
	return finished
}

// runStep runs the step on every unit, seeing the findings so far; it reports whether the
// step ran (nothing of it under not_run).
func runStep(ctx context.Context, ch *diff.Change, opts Options, step Step, sups []*Suppressor, res *Result) bool {
	before := len(res.NotRun)
	for ui := range ch.Units {
		det := append([]Finding(nil), res.Findings...)
		start := len(res.Findings)
		step.Review(ctx, opts.Config, &ch.Units[ui], det, res)
		inUnit(res.Findings[start:], &ch.Units[ui])
		dropSuppressed(ctx, &ch.Units[ui], &sups[ui], res, start)
	}
	for _, n := range res.NotRun[before:] {
		if n.Component == step.Component() {
			return false
		}
	}
	return true
}

// dropSuppressed removes the findings added since index from that an inline marker allows,
// counting each; the unit's suppressor is made on first use.
func dropSuppressed(ctx context.Context, u *diff.Unit, sup **Suppressor, res *Result, from int) {
	if len(res.Findings) == from {
		return
	}
	if *sup == nil {
		*sup = NewSuppressor(ctx, u.Blobs, u)
	}
	kept := res.Findings[:from]
	for _, f := range res.Findings[from:] {
		if (*sup).Suppressed(&f) {
			res.Suppress(&f, "inline marker")
			continue
		}
		kept = append(kept, f)
	}
	res.Findings = kept
}

// inUnit records the unit's commit on findings its scanners just added, and on a finding in
// the unit's git metadata what kind it is.
func inUnit(fs []Finding, u *diff.Unit) {
	for i := range fs {
		fs[i].commit = u.Commit
		if fs[i].Metadata == "" {
			fs[i].Metadata = metaKind(u, fs[i].Path)
		}
	}
}

// metaKind is the kind of the unit's metadata named path ("" when none is).
func metaKind(u *diff.Unit, path string) string {
	for i := range u.Meta {
		if u.Meta[i].NewPath == path {
			return u.Meta[i].Meta
		}
	}
	return ""
}

// maskFinding renders a finding's evidence from its whole line with every secret the detector
// (when set) finds on that line masked before the line is cut, and masks every secret in its
// message, and every part of a secret on its line that a message quotes. No report shows a
// secret in clear, whichever scanner wrote the text. The finding's raw line is dropped.
func maskFinding(m *redact.Masker, f *Finding) {
	var onLine []string
	if f.text != "" {
		f.Evidence, onLine = m.Evidence(f.Path, f.text, f.focus, f.secrets...)
	} else {
		f.Evidence = m.Text(f.Evidence)
	}
	f.Message = redact.Scrub(m.Text(f.Message), onLine...)
	f.Path = redact.Scrub(m.Text(f.Path), onLine...) // a path may hold a token too
	f.text, f.secrets = "", nil
}

// maskAll masks findings on every core: each finding's line goes through the secret detector.
func maskAll(fs []Finding, mask func(*Finding)) {
	workers := min(runtime.GOMAXPROCS(0), len(fs)/16+1)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(fs); i = int(next.Add(1)) - 1 {
				mask(&fs[i])
			}
		}()
	}
	wg.Wait()
}

// cut keeps the first review.max_findings of the sorted findings and says how many it left
// out. A whole-tree review (whole: --all) keeps every finding at or above fail_on however many
// there are, and cuts only below it: what fails the review is never hidden.
func cut(out []Finding, cfg policy.Config, limits []string, whole bool) ([]Finding, []string) {
	max := cfg.MaxFindings
	if max <= 0 || len(out) <= max {
		return out, limits
	}
	below := ""
	if whole {
		for max < len(out) && out[max].Severity >= cfg.FailOn {
			max++ // sorted by severity: the ones at or above fail_on come first
		}
		below = " below fail_on (" + cfg.FailOn.String() + "; every finding at or above it is shown)"
		if max == len(out) {
			return out, limits
		}
	}
	more := "findings"
	if len(out)-max == 1 {
		more = "finding"
	}
	limits = append(limits, fmt.Sprintf("review.max_findings reached (%d): %d more %s%s not shown", cfg.MaxFindings, len(out)-max, more, below))
	return out[:max], limits
}

// order deduplicates (a finding is a repeat only when commit, path, line and rule are the
// same: every location is a finding), folds findings of one problem into one (oneProblem),
// filters by confidence, sorts and truncates findings, then masks (mask, when set) and
// fingerprints the ones kept. Only the kept ones are masked: masking runs the secret detector
// on each finding's line, which on 60,000 findings took 20 s.
func order(fs []Finding, cfg policy.Config, limits []string, mask func(*Finding), whole bool) ([]Finding, []string) {
	type key struct {
		commit, path string
		line         int
		rule         string
	}
	seen := map[key]bool{}
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		if f.Confidence < cfg.MinConfidence {
			continue
		}
		k := key{f.commit, f.Path, f.Line, f.RuleID}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	out = oneProblem(out)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.RuleID < b.RuleID
	})
	if limits == nil {
		limits = []string{}
	}
	out, limits = cut(out, cfg, limits, whole)
	// Alike findings (same rule, path and masked evidence) in one commit are numbered from the
	// top of the file, so each keeps a fingerprint of its own. The kept findings are a prefix
	// of the sorted ones, so each gets the number it would have among all of them.
	if mask != nil {
		maskAll(out, mask)
	}
	nth := map[[2]string]int{}
	for i := range out {
		k := [2]string{out[i].commit, fingerprint(&out[i])}
		nth[k]++
		out[i].Fingerprint = occurrenceFingerprint(&out[i], nth[k])
	}
	return out, limits
}
