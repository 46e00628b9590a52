package review

import (
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// The escape hatches: what a review leaves out, each visible in the report. A file can be
// excluded (review.exclude, .gitleaks.toml [allowlist] paths), a finding suppressed (an inline
// marker, gitleaks:allow, .gitleaksignore) or baselined (.tollgate-baseline.json). Each is
// counted; with Options.ShowSuppressed each is listed (rule, path, line, by what).

// Suppression is one finding (or one excluded file, with no rule) a review left out, and why.
type Suppression struct {
	RuleID string `json:"rule_id,omitempty"`
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Commit string `json:"commit,omitempty"`
	By     string `json:"by"`
}

// Suppress counts f as suppressed by by (an inline marker, gitleaks:allow, .gitleaksignore).
func (r *Result) Suppress(f *Finding, by string) {
	r.Suppressed++
	r.Suppressions = append(r.Suppressions, Suppression{RuleID: f.RuleID, Path: f.Path, Line: f.Line, Commit: f.commit, By: by})
}

// Exclude says whether a path of a commit ("" for the staged set) is left out of the review,
// and by what ("" when it is not): the repository's config may differ from commit to commit.
type Exclude func(commit, path string) (by string)

// Commit is the commit the finding is in ("" for the staged set).
func (f *Finding) Commit() string { return f.commit }

// Baseline holds findings accepted earlier: a review drops them and counts them.
type Baseline interface {
	// Has reports whether f is in the baseline (matched by content, never by line).
	Has(f *Finding) bool
}

// ContentKey is what a baseline keys a finding by: its rule and a normalised form of what it
// matched (the secret values a scanner found, else its whole line with runs of whitespace
// collapsed, else its evidence), never its path or line number, so moving code or renaming its
// file neither hides a new finding nor resurrects an old one. It may hold a secret in clear:
// hash it before it is stored anywhere.
func (f *Finding) ContentKey() string {
	return f.RuleID + "\x00" + f.matched()
}

// PathKey is ContentKey with the path in it too: what version 1 baselines keyed by.
func (f *Finding) PathKey() string {
	return f.RuleID + "\x00" + f.Path + "\x00" + f.matched()
}

// matched is the normalised form of what f matched (ContentKey).
func (f *Finding) matched() string {
	switch {
	case len(f.secrets) > 0:
		vals := append([]string(nil), f.secrets...)
		sort.Strings(vals)
		return "secrets:" + strings.Join(vals, "\x00")
	case f.text != "":
		return "line:" + strings.Join(strings.Fields(f.text), " ")
	}
	return "evidence:" + strings.Join(strings.Fields(f.Evidence), " ")
}

// excludeFiles drops from every unit the files ex excludes and returns them.
func excludeFiles(ch *diff.Change, ex Exclude) []Suppression {
	if ex == nil {
		return nil
	}
	var out []Suppression
	for ui := range ch.Units {
		u := &ch.Units[ui]
		kept := u.Files[:0:0]
		for _, f := range u.Files {
			if by := ex(u.Commit, f.Path()); by != "" {
				out = append(out, Suppression{Path: f.Path(), Commit: u.Commit, By: by})
				continue
			}
			kept = append(kept, f)
		}
		u.Files = kept
	}
	return out
}

// dropBaselined removes the findings the baseline has, counting and listing each.
func dropBaselined(res *Result, b Baseline) int {
	if b == nil {
		return 0
	}
	n := 0
	kept := res.Findings[:0]
	for _, f := range res.Findings {
		if b.Has(&f) {
			n++
			res.Suppressions = append(res.Suppressions, Suppression{RuleID: f.RuleID, Path: f.Path, Line: f.Line, Commit: f.commit, By: "baseline"})
			continue
		}
		kept = append(kept, f)
	}
	res.Findings = kept
	return n
}
