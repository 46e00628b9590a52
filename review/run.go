package review

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
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

// Result collects what scanners found in one review.
type Result struct {
	Findings   []Finding
	NotRun     []NotRun
	Limits     []string
	Rejected   []Rejected
	Suppressed int
	Binary     []string // binary files: scanned by name only
}

// merge appends everything in o to r.
func (r *Result) merge(o *Result) {
	r.Findings = append(r.Findings, o.Findings...)
	r.NotRun = append(r.NotRun, o.NotRun...)
	r.Limits = append(r.Limits, o.Limits...)
	r.Rejected = append(r.Rejected, o.Rejected...)
	r.Binary = append(r.Binary, o.Binary...)
	r.Suppressed += o.Suppressed
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
	Model *ModelStep
	// Detector, if set, masks any secret left in a finding's evidence or message, whichever
	// scanner wrote it.
	Detector *redact.Detector
}

// Run reviews the change with every scanner and returns the ordered report.
func Run(ctx context.Context, ch *diff.Change, opts Options) *Report {
	start := time.Now()
	res := Result{NotRun: append([]NotRun{}, opts.NotRun...)}
	lines := 0
	for ui := range ch.Units {
		for fi := range ch.Units[ui].Files {
			lines += len(ch.Units[ui].Files[fi].AddedLines())
		}
	}
	for ui := range ch.Units {
		if ch.Units[ui].Blobs == nil {
			ch.Units[ui].Blobs = ch.Blobs
		}
	}
	var ran []string
	sups := make([]*suppressor, len(ch.Units))
	scanCtx, cancel := ctx, context.CancelFunc(func() {})
	if t := opts.Config.ReviewTimeout; t > 0 {
		scanCtx, cancel = context.WithTimeout(ctx, t)
	}
	defer cancel()
	// The scanners run side by side, each on every unit in turn with a private result; the
	// results are merged in scanner and unit order, so reports stay deterministic.
	type unitOut struct {
		res Result
		err error
	}
	outs := make([][]unitOut, len(opts.Scanners))
	var wg sync.WaitGroup
	for si, s := range opts.Scanners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ui := range ch.Units {
				var o unitOut
				o.err = s.Scan(scanCtx, &ch.Units[ui], &o.res)
				outs[si] = append(outs[si], o)
				if o.err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for si, s := range opts.Scanners {
		failed := false
		for ui, o := range outs[si] {
			before := len(res.Findings)
			res.merge(&o.res)
			inUnit(res.Findings[before:], &ch.Units[ui])
			dropSuppressed(ctx, &ch.Units[ui], &sups[ui], &res, before)
			if err := o.err; err != nil {
				if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
					err = fmt.Errorf("review.timeout (%s) reached: %w", opts.Config.ReviewTimeout, err)
				}
				res.NotRun = append(res.NotRun, NotRun{Component: "scanner:" + s.Name(), Reason: err.Error()})
				failed = true
			}
		}
		if !failed {
			ran = append(ran, s.Name())
		}
	}
	if opts.Model != nil {
		before := len(res.NotRun)
		for ui := range ch.Units {
			det := append([]Finding(nil), res.Findings...)
			start := len(res.Findings)
			opts.Model.run(ctx, opts.Config, &ch.Units[ui], det, &res)
			inUnit(res.Findings[start:], &ch.Units[ui])
			dropSuppressed(ctx, &ch.Units[ui], &sups[ui], &res, start)
		}
		failed := false
		for _, n := range res.NotRun[before:] {
			failed = failed || n.Component == opts.Model.component()
		}
		if !failed {
			ran = append(ran, "model "+opts.Model.Provider.Name())
		}
	}
	rep := &Report{
		Tool:   Tool{Name: "tollgate", Version: opts.Version},
		Change: ChangeInfo{Kind: ch.Kind, Base: ch.Base, Head: ch.Head, Files: ch.FileCount()},
		FailOn: opts.Config.FailOn, Ran: ran, Suppressed: res.Suppressed, Binary: uniq(res.Binary),
		AddedLines: lines, SetupNotes: opts.Notes,
	}
	masker := redact.NewMasker(opts.Detector)
	for i := range res.Findings {
		maskFinding(opts.Detector, masker, &res.Findings[i])
	}
	rep.Findings, rep.Limits = order(res.Findings, opts.Config, res.Limits)
	rep.Rejected = res.Rejected
	rep.NotRun = res.NotRun
	if rep.Rejected == nil {
		rep.Rejected = []Rejected{}
	}
	if rep.NotRun == nil {
		rep.NotRun = []NotRun{}
	}
	switch {
	case len(rep.Findings) > 0:
		rep.Status = "findings"
	case rep.Incomplete():
		rep.Status = "incomplete"
	default:
		rep.Status = "clean"
	}
	rep.Elapsed = time.Since(start)
	return rep
}

// dropSuppressed removes the findings added since index from that an inline marker allows,
// counting each; the unit's suppressor is made on first use.
func dropSuppressed(ctx context.Context, u *diff.Unit, sup **suppressor, res *Result, from int) {
	if len(res.Findings) == from {
		return
	}
	if *sup == nil {
		*sup = newSuppressor(ctx, u.Blobs, u)
	}
	kept := res.Findings[:from]
	for _, f := range res.Findings[from:] {
		if (*sup).suppressed(&f) {
			res.Suppressed++
			continue
		}
		kept = append(kept, f)
	}
	res.Findings = kept
}

// inUnit records the unit's commit on findings its scanners just added.
func inUnit(fs []Finding, u *diff.Unit) {
	for i := range fs {
		fs[i].commit = u.Commit
	}
}

// maskFinding renders a finding's evidence from its whole line with every secret the detector
// (when set) finds on that line masked before the line is cut, and masks every secret in its
// message, and every part of a secret on its line that a message quotes. No report shows a
// secret in clear, whichever scanner wrote the text. The finding's raw line is dropped.
func maskFinding(d *redact.Detector, m *redact.Masker, f *Finding) {
	var onLine []string
	if f.text != "" {
		f.Evidence, onLine = m.Evidence(f.Path, f.text, f.focus, f.secrets...)
	} else if d != nil {
		f.Evidence = maskText(d, f.Evidence)
	}
	if d != nil {
		f.Message = maskText(d, f.Message)
	}
	f.Message = redact.Scrub(f.Message, onLine...)
	f.text, f.secrets = "", nil
}

// maskText masks every secret the detector finds in text (each line kept).
func maskText(d *redact.Detector, text string) string {
	found, err := d.Find(text)
	if err != nil {
		return "[withheld: the secret detector could not check it]"
	}
	if len(found) == 0 {
		return text
	}
	values := make([]string, len(found))
	for i, x := range found {
		values[i] = x.Value
	}
	return redact.MaskAll(text, values...)
}

// order deduplicates (a finding is a repeat only when commit, path, line and rule are the
// same: every location is a finding), folds findings of one problem into one (oneProblem),
// filters by confidence, sorts, fingerprints and truncates findings.
func order(fs []Finding, cfg policy.Config, limits []string) ([]Finding, []string) {
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
	// Alike findings (same rule, path and masked evidence) in one commit are numbered from the
	// top of the file, so each keeps a fingerprint of its own.
	nth := map[[2]string]int{}
	for i := range out {
		k := [2]string{out[i].commit, fingerprint(&out[i])}
		nth[k]++
		out[i].Fingerprint = occurrenceFingerprint(&out[i], nth[k])
	}
	if limits == nil {
		limits = []string{}
	}
	if max := cfg.MaxFindings; max > 0 && len(out) > max {
		limits = append(limits, fmt.Sprintf("review.max_findings reached (%d): %d more findings not shown", max, len(out)-max))
		out = out[:max]
	}
	return out, limits
}
