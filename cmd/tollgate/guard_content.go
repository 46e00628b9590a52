package main

import (
	"context"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/guard"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/rules"
)

// reviewContentCheck runs the commit-time scanners review/guard cannot import over content an
// agent is about to write: prompt injection, tollgate's key and credential file rules, and its
// rules of self-identifying tokens and credential store entries.
// (Secrets are scanned by review/guard itself, through redact.)
func reviewContentCheck(path, content string) []guard.Hit {
	// Every piece between newlines is a line, a last empty one included.
	h := diff.TextHunk(content + "\n")
	u := &diff.Unit{Files: []diff.FileDiff{{NewPath: path, Status: diff.Added, Hunks: []diff.Hunk{h}}}}
	var res review.Result
	ctx := context.Background()
	scanners := []review.Scanner{rules.SecretScanner{}}
	if guard.InstructionFile(path) {
		// prompt injection is acted on only there (the guard drops it elsewhere): elsewhere its
		// scanner's start (compiling its patterns) is a large part of a write's wait
		scanners = append(scanners, injection.Scanner{})
	}
	for _, s := range scanners {
		if err := s.Scan(ctx, u, &res); err != nil {
			return []guard.Hit{{Rule: "guard/scan-failed", Message: "tollgate's " + s.Name() + " scanner failed: " + err.Error()}}
		}
	}
	var hits []guard.Hit
	for _, f := range res.Findings {
		switch {
		case f.RuleID == "tollgate/prompt-injection-attempt":
			hits = append(hits, guard.Hit{Rule: f.RuleID, Message: f.Message, Evidence: f.Evidence})
		case f.RuleID == "tollgate/private-key-file", f.RuleID == "tollgate/credential-file":
			hits = append(hits, guard.Hit{Rule: f.RuleID, Message: f.Message})
		case review.ShapeRule(f.RuleID) && f.RuleID != "tollgate/"+redact.PasswordHash:
			// A token known by its shape, or a credential store's entry: a secret in the content,
			// its evidence masked. (A password hash is left to the commit-time review.)
			hits = append(hits, guard.Hit{Rule: f.RuleID, Message: f.Message, Evidence: f.Evidence})
		}
	}
	return hits
}
