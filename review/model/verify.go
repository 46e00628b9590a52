package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/review"
)

// verify asks for verdicts on F1, F2, ...; only an explicit "reject" rejects. note says why the
// verification did not happen, if it did not. The exchange gets its own audit line (key).
func (ex *exchange) verify(ctx context.Context, fs []review.Finding) ([]review.Finding, []review.Rejected, string) {
	var b strings.Builder
	b.WriteString("Findings to check:\n")
	for i, f := range fs {
		// Quoted: the path, message and evidence come from the repository and the model, and
		// must never end the line and write their own.
		fmt.Fprintf(&b, "F%d: %s:%d [%s] %s: %s\n    evidence: %s\n", i+1, strconv.Quote(f.Path), f.Line, f.Severity, strconv.Quote(f.RuleID), strconv.Quote(f.Message), strconv.Quote(f.Evidence))
	}
	b.WriteString("\nBEGIN UNTRUSTED MATERIAL\n" + ex.redacted + "\nEND UNTRUSTED MATERIAL\n")
	ans, err := ex.complete(ctx, ex.cfg, VerifyPolicy, b.String())
	if err != nil {
		ex.audit(auditLine{Outcome: "verify: failed: " + err.Error()})
		return fs, nil, "verification did not run: " + err.Error()
	}
	verdicts, err := extractVerdicts(ans.Text)
	if err != nil {
		ex.audit(auditLine{Outcome: "verify: failed: " + err.Error(), Tokens: &ans, Kept: len(fs)})
		return fs, nil, "verification gave no usable verdicts: " + err.Error()
	}
	var kept []review.Finding
	var rejected []review.Rejected
	for i, f := range fs {
		v, ok := verdicts["F"+strconv.Itoa(i+1)]
		if ok && isReject(v) {
			reason := "rejected by the verifier"
			if v.Reason != "" {
				reason += ": " + review.FirstLine(v.Reason)
			}
			rejected = append(rejected, review.Rejected{RuleID: f.RuleID, Path: f.Path, Line: f.Line, Reason: reason})
			continue
		}
		kept = append(kept, f)
	}
	ex.audit(auditLine{Outcome: "verify: ok", Tokens: &ans, Kept: len(kept), Rejected: len(rejected)})
	return kept, rejected, ""
}

type verdict struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// extractVerdicts merges the verdicts of every {"verdicts": [...]} object in the answer. A
// finding counts as rejected only if every verdict given for it rejects it: a "reject" quoted
// from the material next to the verifier's own "keep" leaves the finding standing.
func extractVerdicts(text string) (map[string]verdict, error) {
	out := map[string]verdict{}
	n := eachObject(text, func(dec *json.Decoder) bool {
		var v struct {
			Verdicts *[]verdict `json:"verdicts"`
		}
		if dec.Decode(&v) != nil || v.Verdicts == nil {
			return false
		}
		for _, x := range *v.Verdicts {
			id := strings.TrimSpace(x.ID)
			if prev, ok := out[id]; ok && isReject(prev) != isReject(x) {
				x = verdict{ID: id, Decision: "keep", Reason: "conflicting verdicts"}
			}
			out[id] = x
		}
		return true
	})
	if n == 0 {
		return nil, errors.New("no {\"verdicts\": [...]} object")
	}
	return out, nil
}

func isReject(v verdict) bool { return strings.EqualFold(strings.TrimSpace(v.Decision), "reject") }
