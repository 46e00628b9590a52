package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/model/bundle"
)

// modelFinding is one finding as the model answers it.
type modelFinding struct {
	Path       string   `json:"path"`
	Line       int      `json:"line"`
	EndLine    int      `json:"end_line"`
	Severity   string   `json:"severity"`
	Confidence *float64 `json:"confidence"`
	Category   string   `json:"category"`
	CWE        []string `json:"cwe"`
	Title      string   `json:"title"`
	Message    string   `json:"message"`
	Evidence   string   `json:"evidence"`
}

// extractFindings reads every {"findings": [...]} object in the answer (prose or a code fence
// around them is tolerated) and merges their findings: an earlier object, such as an empty one
// quoted from the material, never settles the answer alone. No valid object is an error, never
// "no findings".
func extractFindings(text string) ([]modelFinding, error) {
	var out []modelFinding
	n := eachObject(text, func(dec *json.Decoder) bool {
		var v struct {
			Findings *[]json.RawMessage `json:"findings"`
		}
		if dec.Decode(&v) != nil || v.Findings == nil {
			return false
		}
		for _, raw := range *v.Findings {
			var f modelFinding
			if json.Unmarshal(raw, &f) != nil {
				f = modelFinding{} // rejected as malformed by anchor
			}
			out = append(out, f)
		}
		return true
	})
	if n == 0 {
		return nil, errors.New("the answer holds no valid {\"findings\": [...]} object")
	}
	return out, nil
}

// eachObject tries decode at every '{' of text that is not inside an object decode accepted,
// and returns how many it accepted.
func eachObject(text string, decode func(*json.Decoder) bool) int {
	n := 0
	for i := strings.IndexByte(text, '{'); i >= 0 && i < len(text); {
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		next := i + 1
		if decode(dec) {
			n++
			next = i + int(dec.InputOffset())
		}
		j := strings.IndexByte(text[next:], '{')
		if j < 0 {
			break
		}
		i = next + j
	}
	return n
}

// anchor keeps findings whose evidence is in the material sent, correcting their line; the rest
// are rejected with the reason.
func anchor(raw []modelFinding, sent map[string][]bundle.Line, u *diff.Unit) ([]review.Finding, []review.Rejected) {
	var kept []review.Finding
	var rejected []review.Rejected
	for _, f := range raw {
		rule := "model/" + slug(f.Category)
		reject := func(reason string) {
			rejected = append(rejected, review.Rejected{RuleID: rule, Path: f.Path, Line: f.Line, Reason: reason})
		}
		sev, ok := modelSeverity(f.Severity)
		switch {
		case f.Path == "" || strings.TrimSpace(f.Evidence) == "":
			reject("malformed finding (no path or evidence)")
			continue
		case !ok:
			reject("malformed finding (unknown severity " + strconv.Quote(f.Severity) + ")")
			continue
		case meaningful(f.Evidence) < minEvidence:
			reject(fmt.Sprintf("evidence too short to anchor (fewer than %d non-space characters)", minEvidence))
			continue
		}
		p, lines, ok := materialPath(sent, f.Path)
		if !ok {
			reject("file not in the material")
			continue
		}
		f.Path = p
		line, end, ok := locate(lines, f.Evidence, f.Line)
		if !ok {
			reject("evidence not found in the material")
			continue
		}
		conf := 0.5
		if f.Confidence != nil {
			conf = min(max(*f.Confidence, 0), 1)
		}
		msg := strings.TrimSpace(f.Title)
		if f.Message != "" {
			if msg != "" {
				msg += ": "
			}
			msg += strings.TrimSpace(f.Message)
		}
		if line != f.Line {
			msg += fmt.Sprintf(" (line corrected from %d)", f.Line)
		}
		cwe := f.CWE
		if cwe == nil {
			cwe = []string{}
		}
		kept = append(kept, review.Finding{
			RuleID: rule, Severity: sev, Confidence: conf, CWE: cwe, Path: f.Path, Line: line, EndLine: end,
			Message: msg + review.InCommit(u), Source: "model",
		}.LineEvidence(firstEvidenceLine(f.Evidence), 0))
	}
	for i := range kept {
		kept[i].Fingerprint = review.Fingerprint(&kept[i])
	}
	return kept, rejected
}

// minEvidence is the fewest non-space characters of evidence that anchor a finding: "}" or
// "x" is in every file.
const minEvidence = 8

func meaningful(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// modelSeverity reads a model's severity, in any case, with the usual synonyms.
func modelSeverity(s string) (policy.Severity, bool) {
	if sev, err := policy.ParseSeverity(s); err == nil {
		return sev, true
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "informational", "information", "note", "none":
		return policy.Info, true
	case "minor", "warning-low":
		return policy.Low, true
	case "moderate", "warning", "medium-high":
		return policy.Medium, true
	case "major", "error", "severe", "important":
		return policy.High, true
	case "blocker", "crit":
		return policy.Critical, true
	}
	return policy.Info, false
}

// materialPath finds the material's file for a path the model may have written differently
// (./x, /x, a//b, x\y, a git a/ or b/ prefix).
func materialPath(sent map[string][]bundle.Line, p string) (string, []bundle.Line, bool) {
	if lines, ok := sent[p]; ok {
		return p, lines, true
	}
	q := strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	q = strings.TrimLeft(path.Clean("/"+q), "/")
	candidates := []string{q}
	for _, pre := range []string{"a/", "b/"} {
		if rest, ok := strings.CutPrefix(q, pre); ok {
			candidates = append(candidates, rest)
		}
	}
	for _, c := range candidates {
		if lines, ok := sent[c]; ok {
			return c, lines, true
		}
	}
	return p, nil, false
}

func firstEvidenceLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func slug(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "general"
	}
	return out
}

// normalize folds white space, so evidence matches "modulo whitespace".
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// locate finds evidence (one or more lines) in a file's material lines, nearest to the claimed
// line; it returns the new-file lines it covers.
func locate(lines []bundle.Line, evidence string, claimed int) (int, int, bool) {
	parts := strings.Split(strings.TrimSpace(evidence), "\n")
	var want []string
	for _, p := range parts {
		if n := normalize(p); n != "" {
			want = append(want, n)
		}
	}
	if len(want) == 0 {
		return 0, 0, false
	}
	bestLine, bestEnd, found := 0, 0, false
	for i := range lines {
		if i+len(want) > len(lines) {
			break
		}
		match := true
		for j, w := range want {
			text := normalize(lines[i+j].Text)
			if len(want) == 1 {
				match = strings.Contains(text, w)
			} else if j == 0 {
				match = strings.HasSuffix(text, w)
			} else if j == len(want)-1 {
				match = strings.HasPrefix(text, w)
			} else {
				match = text == w
			}
			if !match {
				break
			}
		}
		if !match {
			continue
		}
		l, e := lines[i].N, lines[i+len(want)-1].N
		if !found || abs(l-claimed) < abs(bestLine-claimed) {
			bestLine, bestEnd, found = l, e, true
		}
	}
	return bestLine, bestEnd, found
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
