package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/external"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/model"
	"github.com/tollgate-dev/tollgate/review/model/provider"
	"github.com/tollgate-dev/tollgate/review/report"
	"github.com/tollgate-dev/tollgate/review/rules"
	"github.com/tollgate-dev/tollgate/review/secrets"
)

// session is an opened repository with its compiled policy and detector.
type session struct {
	repo     *hook.Repo
	cfg      policy.Config
	boundary *policy.Boundary // config files at the root: read with symlinks always refused
	detector *redact.Detector
	// procs is the process gate of the session: git (shared with repo), and what the policy
	// enables (external scanners, an agent CLI).
	procs *policy.Procs
	notes []string
	// user is the user's config layer (nil: none); at is where the repository's files are read.
	user *policy.Layer
	at   configAt
	// main is the policy of the index, of HEAD, or of the change's head commit; perCommit the
	// policy of each reviewed commit (atCommits, see commitpolicy.go).
	main      *repoPolicy
	perCommit *commitPolicies
	// ready is closed when the policy and its detector (built concurrently with reading the
	// change) are set; detErr is its error.
	ready  chan struct{}
	detErr error
	// tipBaseline: an on-demand review of commits (review --commit, --range, --all-history),
	// where the baseline at the reviewed tip applies to every commit besides the commit's own
	// (commitBaseline).
	tipBaseline bool
}

// configAt says where a review reads the repository's config files from.
type configAt int

const (
	atIndex   configAt = iota // the index: a staged review (pre-commit, review --staged)
	atHead                    // HEAD: review --all, tollgate baseline
	atCommits                 // each reviewed commit: --commit, --range, pre-push, pre-receive
)

// wait returns once the detector is built.
func (s *session) wait() error {
	<-s.ready
	return s.detErr
}

// openSession opens the repository that contains the working directory and compiles its policy
// from the repository's files where at says (atCommits: once the change is known, in review).
func openSession(ctx context.Context, configFlag string, at configAt) (*session, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("failed to get working directory: %w", err)
	}
	repo, err := hook.Open(ctx, cwd)
	if err != nil {
		return nil, err
	}
	// Config files are read with symlinks refused, whatever the config will say.
	strict, err := policy.NewBoundary(repo.Root, false)
	if err != nil {
		return nil, err
	}
	// The user layer is trusted: it must not be a file the repository under review provides
	// (--config ./x, XDG_CONFIG_HOME or HOME inside it). Only a file that exists is refused: a
	// HOME that is itself a repository (dotfiles) with no config file in it is no threat.
	user, err := policy.ReadUserLayer(configFlag)
	if err != nil {
		return nil, err
	}
	if user != nil && insideRoot(repo.Root, user.Name) {
		return nil, &policy.ConfigError{File: user.Name, Msg: "the user config lies inside the repository under review, " +
			"which could then grant itself what only you may (egress, a model); keep it outside (XDG_CONFIG_HOME, HOME or --config)"}
	}
	s := &session{repo: repo, boundary: strict, procs: repo.Git.Procs, user: user, at: at, ready: make(chan struct{})}
	if at == atCommits {
		return s, nil
	}
	src := source{index: at == atIndex}
	if at == atHead {
		src.rev, _ = repo.Head(ctx)
	}
	// gitleaks' rule set takes tens of milliseconds to build: build it while git reads the change.
	go func() {
		defer close(s.ready)
		p, err := loadPolicy(ctx, repo, src, user)
		if err != nil {
			s.detErr = err
			return
		}
		s.main, s.cfg, s.detector, s.notes = p, p.cfg, p.detector, p.notes
		if at == atIndex {
			s.notes = append(s.notes, workTreeNotes(ctx, repo, strict)...)
		}
	}()
	return s, nil
}

// output is where a report goes and how.
type output struct {
	format   string // text | json
	path     string // "" for stdout
	failOn   string // "" to keep the config's
	noColor  bool
	noCache  bool      // ask the model even when the verdict cache has an answer
	progress io.Writer // where a terminal progress line may go (stderr)
	// showSuppressed lists every suppressed, baselined and excluded item (--show-suppressed).
	showSuppressed bool
	// collect, if set, sees every finding unmasked and no baseline applies (tollgate baseline).
	collect func([]review.Finding)
	// notRun, if set, sees what did not run (tollgate baseline says so).
	notRun func([]review.NotRun)
}

func (o output) validate() error {
	switch o.format {
	case "text", "json", "sarif":
	default:
		return usageError("unknown --format %q (want text, json or sarif)", o.format)
	}
	if o.failOn != "" {
		if _, err := policy.ParseSeverity(o.failOn); err != nil {
			return usageError("bad --fail-on: %v", err)
		}
	}
	return nil
}

// review runs the pipeline on a change and renders the report; the error carries the exit code.
func (s *session) review(ctx context.Context, ch *diff.Change, o output, stdout io.Writer) error {
	defer s.repo.Close() // the blob reader's git process; a later read starts it again
	if s.at == atCommits {
		s.forChange(ctx, ch)
	}
	if err := s.wait(); err != nil {
		return err
	}
	s.notes = append(s.notes, s.repo.Notes...)
	opts, cleanup, err := s.reviewOptions(o)
	defer cleanup()
	if err != nil {
		return err
	}
	rep := review.Run(ctx, ch, opts)
	if o.notRun != nil {
		o.notRun(rep.NotRun)
	}
	if o.failOn != "" {
		sev, _ := policy.ParseSeverity(o.failOn)
		rep.SetFailOn(sev)
	}
	if err := s.writeReport(rep, o, stdout); err != nil {
		return err
	}
	if code := rep.ExitCode(); code != review.ExitClean {
		return &exitError{code: code}
	}
	return nil
}

// reviewOptions sets up one review: the scanners, what will not run (unreadable objects, a
// model that could not be set up), the model step and the baseline. cleanup is never nil; it
// removes what the model step set up.
func (s *session) reviewOptions(o output) (opts review.Options, cleanup func(), err error) {
	none := func() {}
	// What git could not read of the change (a partial clone's missing objects) is not run.
	var notRun []review.NotRun
	for _, why := range s.repo.Unreadable {
		notRun = append(notRun, review.NotRun{Component: "git", Reason: why})
	}
	scanners := []review.Scanner{s.secretsScanner(), rules.Scanner{}, injection.Scanner{}}
	ext, extNotRun, err := s.externalScanners()
	if err != nil {
		return opts, none, err
	}
	scanners = append(scanners, ext...)
	notRun = append(notRun, extNotRun...)
	step, cleanup, err := s.modelStep(o)
	if err != nil {
		var ce *policy.ConfigError
		if errors.As(err, &ce) {
			return opts, none, err
		}
		notRun = append(notRun, review.NotRun{Component: "model:" + s.cfg.Model.Provider, Reason: err.Error() + "; nothing was sent"})
	}
	ver, _, _ := buildVersion()
	opts = review.Options{
		Config:         s.cfg,
		Scanners:       scanners,
		Version:        ver,
		Notes:          s.notes,
		NotRun:         notRun,
		Model:          step,
		Detector:       s.detector,
		Exclude:        s.exclude,
		ShowSuppressed: o.showSuppressed,
		Collect:        o.collect,
	}
	if o.collect == nil {
		base, err := s.reviewBaseline()
		if err != nil {
			return opts, cleanup, err
		}
		opts.Baseline = base
	}
	return opts, cleanup, nil
}

// writeReport renders the report in o's format to o.path, or to stdout (in color on a
// terminal).
func (s *session) writeReport(rep *review.Report, o output, stdout io.Writer) error {
	w, color := stdout, false
	if o.path != "" {
		f, err := os.Create(o.path)
		if err != nil {
			return fmt.Errorf("failed to create report file: %w", err)
		}
		defer f.Close()
		w = f
	} else {
		color = !o.noColor && isTerminal(stdout)
	}
	if err := report.New(o.format, report.Options{Color: color, Rules: rules.All(), Fixes: reportFixes(rep)}).Write(w, rep); err != nil {
		return fmt.Errorf("failed to write report: %w", err)
	}
	if f, ok := w.(*os.File); ok && o.path != "" {
		if err := f.Close(); err != nil {
			return fmt.Errorf("failed to write report: %w", err)
		}
	}
	return nil
}

// exclude names what leaves a path of a commit out of the review: a review.exclude pattern, or
// the repository's .gitleaks.toml allowlisting the path as a whole ("" when nothing does),
// each as the commit's own config says. No pattern excludes the file that holds it.
func (s *session) exclude(commit, path string) string {
	p := s.policyOf(commit)
	if pattern, ok := p.cfg.Exclude.Match(path); ok && path != policy.RepoConfigName {
		return fmt.Sprintf("review.exclude %q", pattern)
	}
	if p.detector != nil && p.detector.ExcludedPath(path) {
		return gitleaksConfigName + " [allowlist] paths"
	}
	return ""
}

// externalScanners builds the external scanners the config enables; one that cannot run here
// (no scratch directory outside the repository) is not run.
func (s *session) externalScanners() ([]review.Scanner, []review.NotRun, error) {
	var scanners []review.Scanner
	var notRun []review.NotRun
	for _, name := range s.cfg.External {
		if err := s.scratchOutside(); err != nil {
			notRun = append(notRun, review.NotRun{Component: "scanner:" + name, Reason: err.Error()})
			continue
		}
		if err := s.procs.Allow(name); err != nil {
			return nil, nil, err
		}
		tool, ok := external.ByName(name)
		if !ok {
			return nil, nil, fmt.Errorf("unknown external scanner %q", name)
		}
		if name == "semgrep" {
			tool = external.Semgrep{Config: s.semgrepRules()}
		}
		scanners = append(scanners, &external.Scanner{Tool: tool, Procs: s.procs, Timeout: s.cfg.ScannerTimeout})
	}
	return scanners, notRun, nil
}

// semgrepRules returns the repository's own semgrep rules (nil: none).
func (s *session) semgrepRules() []byte {
	for _, f := range []string{".semgrep.yml", ".semgrep.yaml"} {
		if data, err := policy.ReadRepoFile(s.boundary, f); err == nil && data != nil {
			return data
		}
	}
	return nil
}

// modelStep builds the model step when the user configured a provider (nil otherwise).
func (s *session) modelStep(o output) (review.Step, func(), error) {
	none := func() {}
	if !s.cfg.Model.Configured() {
		return nil, none, nil
	}
	if err := s.scratchOutside(); err != nil {
		return nil, none, err
	}
	scratch, err := os.MkdirTemp("", "tollgate-model-")
	if err != nil {
		return nil, none, fmt.Errorf("failed to create a scratch directory: %w", err)
	}
	cleanup := func() { os.RemoveAll(scratch) }
	gate := egress.New(s.cfg.Egress, s.cfg.Connect)
	p, err := provider.New(s.cfg.Model, gate, s.procs, scratch)
	if err != nil {
		return nil, cleanup, err
	}
	// The outgoing filter is the user's: gitleaks' defaults whatever the repository's
	// .gitleaks.toml says, plus the rules it adds.
	filter, err := redact.NewFilter(s.detector)
	if err != nil {
		return nil, cleanup, fmt.Errorf("failed to build the outgoing secret filter: %w", err)
	}
	step := &model.Step{Provider: p, Detector: s.detector, Filter: filter, SecretFile: rules.SecretFile, NoCache: o.noCache}
	// Nothing of tollgate's is written into the repository: a cache or audit directory that
	// resolves inside it (HOME=., a relative XDG_*_HOME, a dotfiles repository at HOME) is
	// refused, and the review does without it.
	if dir, err := os.UserCacheDir(); err == nil && !s.inside(dir) {
		step.CacheDir = filepath.Join(absPath(dir), "tollgate", "verdicts")
	}
	if s.cfg.Model.Audit {
		if dir := policy.StateDir(); dir != "" && !s.inside(dir) {
			step.AuditPath = filepath.Join(absPath(dir), "tollgate", "audit.jsonl")
		}
	}
	if o.progress != nil && isTerminal(o.progress) {
		step.Progress = o.progress
	}
	return step, cleanup, nil
}

// inside reports whether dir lies in the repository (nothing of tollgate's may be written there).
func (s *session) inside(dir string) bool { return insideRoot(s.repo.Root, dir) }

// absPath is p made absolute against the working directory (p itself if that fails).
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// insideRoot reports whether p (relative paths against the working directory, symbolic links
// resolved as far as they exist) lies in root (a canonical path; "" is no root). It is the
// command's one containment check, on fspath's.
func insideRoot(root, p string) bool {
	if root == "" {
		return false
	}
	p = absPath(p)
	real := p
	// Resolve the longest existing ancestor, so a path not yet created is judged where it will be.
	for dir, rest := p, ""; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	return fspath.Within(root, real)
}

// scratchOutside checks that external scanners' scratch files land outside the repository.
func (s *session) scratchOutside() error {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		return fmt.Errorf("no usable temporary directory: %w", err)
	}
	if s.inside(tmp) {
		return fmt.Errorf("the temporary directory %s is inside the repository; set TMPDIR elsewhere", tmp)
	}
	return nil
}

// isTerminal reports whether w is a terminal and colour is wanted (NO_COLOR, TERM=dumb).
func isTerminal(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// reportFixes is the fix of each rule the text report may show: the built-in and injection
// rules', and the secrets rules' (one fix for every token) of the findings at hand; listing all
// of gitleaks' rules for an empty report would read each one's description.
func reportFixes(rep *review.Report) map[string]string {
	fixes := report.Fixes(rules.All(), []review.Rule{injection.Rule})
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.RuleID, secrets.RulePrefix) {
			fixes[f.RuleID] = secrets.Fix
		}
	}
	return fixes
}
