package main

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/baseline"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/secrets"
)

// A review of commits (--commit, --range, pre-push, pre-receive) reads the repository's config
// files from each commit, and reviews each commit under its own: the suppressions that apply to
// a commit (review.exclude, .gitleaks.toml allowlists and rules, .gitleaksignore, the baseline)
// are those its own tree holds, as its pre-commit review had them. A config change inside a
// pushed range therefore never loosens the review of the commits before it; the commit that
// makes the change is reviewed under it, as a staged review of that commit would be. The
// review-wide settings (review.fail_on, min_confidence, max_findings, scanners, timeouts) are
// the strictest any reviewed commit's config gives. A pushed blob or tree, and a commit this
// repository does not hold, get no repository config (gitleaks' defaults).

// commitPolicies are the policies of the reviewed commits: one per distinct set of config
// files.
type commitPolicies struct {
	keyOf map[string]string      // commit → the ids of its config files (RepoFileIDs)
	byKey map[string]*repoPolicy // those ids → their policy
	none  *repoPolicy            // no repository config: a unit without a commit of its own
}

// forChange loads the policy of every commit of ch; the session's main policy is ch's head
// commit's. It closes s.ready.
func (s *session) forChange(ctx context.Context, ch *diff.Change) {
	defer close(s.ready)
	pc, err := loadCommitPolicies(ctx, s.repo, ch, s.user)
	if err != nil {
		s.detErr = err
		return
	}
	s.perCommit = pc
	s.main = pc.policy(ch.Head)
	if s.main == pc.none && len(ch.Units) > 0 {
		s.main = pc.policy(ch.Units[len(ch.Units)-1].Commit)
	}
	s.detector = s.main.detector
	all := pc.policies(s.main)
	s.cfg = strictest(all)
	for _, p := range all {
		for _, n := range p.notes {
			if !slices.Contains(s.notes, n) {
				s.notes = append(s.notes, n)
			}
		}
	}
}

// loadCommitPolicies reads which config files each commit of ch holds (one git call) and
// compiles each distinct set once.
func loadCommitPolicies(ctx context.Context, repo *hook.Repo, ch *diff.Change, user *policy.Layer) (*commitPolicies, error) {
	none, err := loadPolicy(ctx, repo, source{}, user)
	if err != nil {
		return nil, err
	}
	pc := &commitPolicies{none: none, byKey: map[string]*repoPolicy{}}
	var commits []string
	seen := map[string]bool{}
	for _, c := range append([]string{ch.Head}, unitCommits(ch)...) {
		if c != "" && !seen[c] {
			seen[c] = true
			commits = append(commits, c)
		}
	}
	if pc.keyOf, err = repo.RepoFileIDs(ctx, commits, repoPolicyFiles); err != nil {
		return nil, err
	}
	empty := emptyKey()
	for _, c := range commits {
		key := pc.keyOf[c]
		if key == empty || pc.byKey[key] != nil {
			continue
		}
		p, err := loadPolicy(ctx, repo, source{rev: c}, user)
		if err != nil {
			return nil, err
		}
		pc.byKey[key] = p
	}
	return pc, nil
}

// emptyKey is the key of a commit that holds none of the config files.
func emptyKey() string {
	return strings.Repeat(" ", len(repoPolicyFiles)-1) // RepoFileIDs joins the empty ids with spaces
}

// unitCommits are the commits of ch's units, in order.
func unitCommits(ch *diff.Change) []string {
	out := make([]string, 0, len(ch.Units))
	for _, u := range ch.Units {
		out = append(out, u.Commit)
	}
	return out
}

// policy returns the policy of commit (none for a commit without config files, or unknown).
func (pc *commitPolicies) policy(commit string) *repoPolicy {
	if p := pc.byKey[pc.keyOf[commit]]; p != nil {
		return p
	}
	return pc.none
}

// policies returns every policy in use, first first.
func (pc *commitPolicies) policies(first *repoPolicy) []*repoPolicy {
	out := []*repoPolicy{first}
	if first != pc.none {
		out = append(out, pc.none)
	}
	keys := make([]string, 0, len(pc.byKey))
	for k := range pc.byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if p := pc.byKey[k]; p != first {
			out = append(out, p)
		}
	}
	return out
}

// policyOf returns the policy that reviews commit ("" for the staged set).
func (s *session) policyOf(commit string) *repoPolicy {
	if s.perCommit == nil {
		return s.main
	}
	return s.perCommit.policy(commit)
}

// secretsScanner is the secrets scanner: with the session's detector, or, for a review of
// commits under more than one config, each unit with its commit's.
func (s *session) secretsScanner() review.Scanner {
	if s.perCommit == nil || len(s.perCommit.byKey) == 0 {
		return &secrets.Scanner{Detector: s.detector}
	}
	return &commitSecrets{s: s, byPolicy: map[*repoPolicy]*secrets.Scanner{}}
}

// commitSecrets runs the secrets scanner of each unit's commit.
type commitSecrets struct {
	s        *session
	mu       sync.Mutex
	byPolicy map[*repoPolicy]*secrets.Scanner
}

// Name implements review.Scanner.
func (c *commitSecrets) Name() string { return (&secrets.Scanner{}).Name() }

// Scan implements review.Scanner.
func (c *commitSecrets) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	p := c.s.policyOf(u.Commit)
	c.mu.Lock()
	sc := c.byPolicy[p]
	if sc == nil {
		sc = &secrets.Scanner{Detector: p.detector}
		c.byPolicy[p] = sc
	}
	c.mu.Unlock()
	return sc.Scan(ctx, u, r)
}

// reviewBaseline returns the baseline that applies (nil: none): the main policy's, or each commit's
// own; no baseline entry applies to the baseline file itself. A baseline that does not parse is
// a config error (exit 2).
func (s *session) reviewBaseline() (review.Baseline, error) {
	ps := []*repoPolicy{s.main}
	if s.perCommit != nil {
		ps = s.perCommit.policies(s.main)
	}
	any := false
	for _, p := range ps {
		set, err := p.baseline()
		if err != nil {
			return nil, err
		}
		any = any || set != nil
	}
	if !any {
		return nil, nil
	}
	return commitBaseline{s: s}, nil
}

// commitBaseline is the baseline of each finding's commit, and in an on-demand review of
// commits (session.tipBaseline) the baseline at the reviewed tip too: the baseline is the
// team's list of accepted findings, and `review --all-history` asks what in the history is not
// accepted now. A hook's review of a push keeps each commit to its own baseline, as its
// pre-commit review had it.
type commitBaseline struct{ s *session }

// Has implements review.Baseline.
func (b commitBaseline) Has(f *review.Finding) bool {
	if f.Path == baseline.FileName {
		return false
	}
	if set, _ := b.s.policyOf(f.Commit()).baseline(); set != nil && set.Has(f) {
		return true
	}
	if !b.s.tipBaseline {
		return false
	}
	tip, _ := b.s.main.baseline()
	return tip != nil && tip.Has(f)
}

// strictest is the first policy's config with the review-wide settings at the strictest any
// of ps gives: the lowest fail_on and min_confidence, the most findings, every external
// scanner, the longest timeouts. review.exclude is left to each commit (session.exclude).
func strictest(ps []*repoPolicy) policy.Config {
	cfg := ps[0].cfg
	cfg.External = slices.Clone(cfg.External)
	for _, p := range ps[1:] {
		c := p.cfg
		cfg.FailOn = min(cfg.FailOn, c.FailOn)
		cfg.MinConfidence = min(cfg.MinConfidence, c.MinConfidence)
		cfg.MaxFindings = max(cfg.MaxFindings, c.MaxFindings)
		cfg.ScannerTimeout = max(cfg.ScannerTimeout, c.ScannerTimeout)
		cfg.ReviewTimeout = max(cfg.ReviewTimeout, c.ReviewTimeout)
		for _, name := range c.External {
			if !slices.Contains(cfg.External, name) {
				cfg.External = append(cfg.External, name)
			}
		}
		for _, f := range c.Files {
			if !slices.Contains(cfg.Files, f) {
				cfg.Files = append(cfg.Files, f)
			}
		}
	}
	return cfg
}
