package redact

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Outgoing text: every byte of a model request passes a Filter (gitleaks' default rules, any
// rules the repository adds, and tollgate's credential rules, each file scanned with its real
// path). The caller either blocks the send, or sends the output of Redact, where each secret
// value is replaced by a stable placeholder.

// Found is one secret in outgoing text.
type Found struct {
	RuleID string // secrets/<gitleaks id> or tollgate/hardcoded-credential
	Value  string // never print it
	Line   int    // 1-based line of the text it starts on (0: not located)
}

// ErrUnredactable is returned when a secret would survive redaction.
var ErrUnredactable = errors.New("a detected secret survives redaction")

// Find returns every secret in text, each distinct value once, in order of first appearance.
// If the rules cannot run, it returns an error: callers treat that as "not safe to send".
func (d *Detector) Find(text string) ([]Found, error) {
	all, err := d.findAt("", text)
	if err != nil {
		return nil, err
	}
	return Distinct(all), nil
}

// findAt returns every occurrence of a secret in text, as the file at path ("" for text that
// is no file's); path-scoped rules run only with a path.
func (d *Detector) findAt(path, text string) ([]Found, error) {
	var out []Found
	secrets, err := d.Scan(path, text, 1)
	if err != nil {
		return nil, err
	}
	for _, s := range secrets {
		out = append(out, Found{RuleID: "secrets/" + s.RuleID, Value: s.Value, Line: s.Line})
		// A rule whose secret group is part of the match: the whole match goes too.
		if s.Match != s.Value && len(s.Match) <= 4*len(s.Value)+64 {
			out = append(out, Found{RuleID: "secrets/" + s.RuleID, Value: s.Match, Line: s.Line})
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if c, ok := FindCredential(line, AllForms); ok {
			out = append(out, Found{RuleID: "tollgate/hardcoded-credential", Value: c.Value, Line: i + 1})
		}
		for _, t := range FindTokens(line) {
			out = append(out, Found{RuleID: "tollgate/" + t.Kind, Value: t.Value, Line: i + 1})
		}
	}
	return out, nil
}

// Distinct keeps the first occurrence of each value (and drops empty ones).
func Distinct(found []Found) []Found {
	var out []Found
	seen := map[string]bool{}
	for _, f := range found {
		if f.Value == "" || seen[f.Value] {
			continue
		}
		seen[f.Value] = true
		out = append(out, f)
	}
	return out
}

// Redact replaces every secret value in text with [REDACTED:<rule>:<n>]; the same value gets
// the same placeholder. It re-checks its output and fails rather than return a secret.
func (d *Detector) Redact(text string) (string, []Found, error) {
	found, err := d.Find(text)
	if err != nil {
		return "", nil, err
	}
	return redactWith(text, found, d.Find)
}

// redactWith replaces the known secrets in text, then looks again with find until nothing is
// left (a few rounds at most).
func redactWith(text string, found []Found, find func(string) ([]Found, error)) (string, []Found, error) {
	found = Distinct(found)
	if len(found) == 0 {
		return text, nil, nil
	}
	out := Replace(text, found)
	for _, f := range found {
		if strings.Contains(out, f.Value) {
			return "", found, ErrUnredactable
		}
	}
	// Replacing can join text into a new secret: look again, and give up after a few rounds.
	for round := 0; round < 3; round++ {
		again, err := find(out)
		if err != nil {
			return "", found, err
		}
		if len(again) == 0 {
			return out, found, nil
		}
		for _, f := range again {
			out = strings.ReplaceAll(out, f.Value, fmt.Sprintf("[REDACTED:%s:%d]", f.RuleID, len(found)+1))
			found = append(found, f)
		}
	}
	if again, err := find(out); err != nil || len(again) > 0 {
		return "", found, ErrUnredactable
	}
	return out, found, nil
}

// Replace replaces each value of found in text with its placeholder, [REDACTED:<rule>:<n>]
// (n its position in found, from 1). Longest values go first, so a secret that contains
// another is replaced whole; each line of a multi-line secret goes too.
func Replace(text string, found []Found) string {
	type rep struct{ value, placeholder string }
	var reps []rep
	for i, f := range found {
		if f.Value == "" {
			continue
		}
		ph := fmt.Sprintf("[REDACTED:%s:%d]", f.RuleID, i+1)
		reps = append(reps, rep{f.Value, ph})
		if strings.Contains(f.Value, "\n") {
			for _, part := range strings.Split(f.Value, "\n") {
				if part = strings.TrimSpace(part); len(part) >= 8 {
					reps = append(reps, rep{part, ph})
				}
			}
		}
	}
	sort.SliceStable(reps, func(i, j int) bool { return len(reps[i].value) > len(reps[j].value) })
	out := text
	for _, r := range reps {
		out = strings.ReplaceAll(out, r.value, r.placeholder)
	}
	return out
}

// Filter is the outgoing filter: the rules every byte sent to a model passes. They are the
// user's, not the repository's: gitleaks' default rules always run, whatever a repository's
// .gitleaks.toml disables or allowlists, plus tollgate's credential rules; the repository's own
// rule set runs as well, so it may add rules, never remove any.
type Filter struct {
	dets []*Detector
}

// NewFilter builds the outgoing filter: gitleaks' defaults, plus repo (the review's detector)
// when it was built from a repository's config.
func NewFilter(repo *Detector) (*Filter, error) {
	base, err := New(Options{})
	if err != nil {
		return nil, err
	}
	f := &Filter{dets: []*Detector{base}}
	if repo != nil && repo.cfg != nil {
		f.dets = append(f.dets, repo)
	}
	return f, nil
}

// FindAt returns every occurrence of a secret in text, read as the content of the file at path
// ("" for text that is no file's): path-scoped rules (a nuget config, a Kubernetes secret,
// Terraform variables) run with the file's real path.
func (f *Filter) FindAt(path, text string) ([]Found, error) {
	var out []Found
	for _, d := range f.dets {
		found, err := d.findAt(path, text)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	split, err := f.splitFound(path, text)
	if err != nil {
		return nil, err
	}
	return append(out, split...), nil
}

// Find returns every distinct secret in text that is no file's content.
func (f *Filter) Find(text string) ([]Found, error) {
	all, err := f.FindAt("", text)
	if err != nil {
		return nil, err
	}
	return Distinct(all), nil
}

// PathRule returns the id of a rule that marks the file at path as a secret by its name alone
// (a key store), or "".
func (f *Filter) PathRule(path string) (string, error) {
	for _, d := range f.dets {
		secs, err := d.ScanPath(path)
		if err != nil {
			return "", err
		}
		if len(secs) > 0 {
			return "secrets/" + secs[0].RuleID, nil
		}
	}
	return "", nil
}

// Redact replaces the known secrets (found by FindAt on the parts of text) and every secret
// Find sees in text, and re-checks its output; it fails rather than return a secret.
func (f *Filter) Redact(text string, known []Found) (string, []Found, error) {
	more, err := f.Find(text)
	if err != nil {
		return "", nil, err
	}
	return redactWith(text, append(append([]Found{}, known...), more...), f.Find)
}
