package redact

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Outgoing text: every byte of a model request passes Find (gitleaks' rules plus tollgate's
// credential rules). The caller either blocks the send when anything is found, or sends the
// output of Redact, where each secret value is replaced by a stable placeholder.

// Found is one secret in outgoing text.
type Found struct {
	RuleID string // secrets/<gitleaks id> or tollgate/hardcoded-credential
	Value  string // never print it
}

// ErrUnredactable is returned when a secret would survive redaction.
var ErrUnredactable = errors.New("a detected secret survives redaction")

// Find returns every secret in text, each distinct value once, in order of first appearance.
// If the rules cannot run, it returns an error: callers treat that as "not safe to send".
func (d *Detector) Find(text string) ([]Found, error) {
	var out []Found
	seen := map[string]bool{}
	add := func(rule, v string) {
		if v == "" || seen[v] {
			return
		}
		seen[v] = true
		out = append(out, Found{RuleID: rule, Value: v})
	}
	secrets, err := d.Scan("", text, 1)
	if err != nil {
		return nil, err
	}
	for _, s := range secrets {
		add("secrets/"+s.RuleID, s.Value)
		// A rule whose secret group is part of the match: the whole match goes too.
		if s.Match != s.Value && len(s.Match) <= 4*len(s.Value)+64 {
			add("secrets/"+s.RuleID, s.Match)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if c, ok := FindCredential(line, AllForms); ok {
			add("tollgate/hardcoded-credential", c.Value)
		}
	}
	return out, nil
}

// Redact replaces every secret value in text with [REDACTED:<rule>:<n>]; the same value gets
// the same placeholder. It re-checks its output and fails rather than return a secret.
func (d *Detector) Redact(text string) (string, []Found, error) {
	found, err := d.Find(text)
	if err != nil {
		return "", nil, err
	}
	if len(found) == 0 {
		return text, nil, nil
	}
	type rep struct{ value, placeholder string }
	var reps []rep
	for i, f := range found {
		ph := fmt.Sprintf("[REDACTED:%s:%d]", f.RuleID, i+1)
		reps = append(reps, rep{f.Value, ph})
		// Each line of a multi-line secret (a PEM block) goes too, should it appear alone.
		if strings.Contains(f.Value, "\n") {
			for _, part := range strings.Split(f.Value, "\n") {
				if part = strings.TrimSpace(part); len(part) >= 8 {
					reps = append(reps, rep{part, ph})
				}
			}
		}
	}
	// Longest first, so a secret that contains another is replaced whole.
	sort.SliceStable(reps, func(i, j int) bool { return len(reps[i].value) > len(reps[j].value) })
	out := text
	for _, r := range reps {
		out = strings.ReplaceAll(out, r.value, r.placeholder)
	}
	for _, f := range found {
		if strings.Contains(out, f.Value) {
			return "", found, ErrUnredactable
		}
	}
	// Replacing can join text into a new secret: look again, and give up after a few rounds.
	for round := 0; round < 3; round++ {
		again, err := d.Find(out)
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
	if again, err := d.Find(out); err != nil || len(again) > 0 {
		return "", found, ErrUnredactable
	}
	return out, found, nil
}
