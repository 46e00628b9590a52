package report

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
)

// SARIF 2.1.0 as GitHub code scanning reads it: one run, rules with help text and
// security-severity, results with relative URIs, level, and partialFingerprints; what did not
// run goes into the invocation's notifications and makes it unsuccessful.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool sarifTool `json:"tool"`
	// ColumnKind says how startColumn counts: in Unicode code points, as Finding.Column does
	// (set only when a result has a column).
	ColumnKind  string            `json:"columnKind,omitempty"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	DefaultConfiguration map[string]any `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn,omitempty"`
			EndLine     int `json:"endLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func sarifLevel(s policy.Severity) string {
	switch {
	case s >= policy.High:
		return "error"
	case s == policy.Medium:
		return "warning"
	}
	return "note"
}

// securitySeverity maps to GitHub's bands: >= 9 critical, 7-8.9 high, 4-6.9 medium, < 4 low.
func securitySeverity(s policy.Severity) string {
	return [...]string{"1.0", "3.0", "5.5", "8.0", "9.5"}[s]
}

// sarifURI is a repository path as a relative URI, each segment escaped.
func sarifURI(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// SARIF renders the report as SARIF 2.1.0.
type SARIF struct {
	// Rules documents rules by id: a result's rule gets its description and examples as help.
	Rules []review.Rule
}

// Write implements Writer.
func (s SARIF) Write(w io.Writer, r *review.Report) error {
	rules, index := s.rules(r.Findings)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: r.Tool.Name, Version: r.Tool.Version,
			InformationURI: "https://github.com/tollgate-dev/tollgate", Rules: rules}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: !r.Incomplete(), Notifications: sarifNotifications(r)}},
		Results:     []sarifResult{},
	}
	for _, f := range r.Findings {
		res := sarifResultOf(f, index[f.RuleID])
		if res.Locations[0].PhysicalLocation.Region.StartColumn > 0 {
			run.ColumnKind = "unicodeCodePoints"
		}
		run.Results = append(run.Results, res)
	}
	return encodeJSON(w, sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// rules describes each rule with findings in the report, sorted by id, and returns each id's
// index among them.
func (s SARIF) rules(findings []review.Finding) ([]sarifRule, map[string]int) {
	docs := map[string]review.Rule{}
	for _, d := range s.Rules {
		docs[d.ID] = d
	}
	index := map[string]int{}
	ids := []string{}
	for _, f := range findings {
		if _, ok := index[f.RuleID]; !ok {
			index[f.RuleID] = -1
			ids = append(ids, f.RuleID)
		}
	}
	sort.Strings(ids)
	rules := []sarifRule{}
	for i, id := range ids {
		index[id] = i
		d, documented := docs[id]
		rules = append(rules, sarifRuleOf(id, findings, d, documented))
	}
	return rules, index
}

// sarifRuleOf describes one rule: its worst severity in the report, its CWEs, and its
// documentation when there is some (the finding's message otherwise).
func sarifRuleOf(id string, findings []review.Finding, d review.Rule, documented bool) sarifRule {
	sev, cwe, desc := policy.Info, []string{}, ""
	for _, f := range findings {
		if f.RuleID == id {
			sev, cwe, desc = max(sev, f.Severity), f.CWE, f.Message
		}
	}
	help := desc
	if documented {
		desc = d.Description
		help = fmt.Sprintf("%s\n\nCatches, in %s: %s\nLeaves alone, in %s: %s", d.Description, d.Catches.Path, d.Catches.Text, d.Leaves.Path, d.Leaves.Text)
	}
	tags := []string{"security"}
	for _, c := range cwe {
		tags = append(tags, "external/cwe/"+strings.ToLower(c))
	}
	return sarifRule{
		ID: id, Name: id, ShortDescription: sarifText{review.FirstLine(desc)}, FullDescription: sarifText{desc},
		Help: sarifText{help}, DefaultConfiguration: map[string]any{"level": sarifLevel(sev)},
		Properties: map[string]any{"security-severity": securitySeverity(sev), "tags": tags},
	}
}

// sarifResultOf is one finding as a result of the rule at ruleIndex.
func sarifResultOf(f review.Finding, ruleIndex int) sarifResult {
	res := sarifResult{
		RuleID: f.RuleID, RuleIndex: ruleIndex, Level: sarifLevel(f.Severity),
		Message:             sarifText{f.Message + evidenceSuffix(f.Evidence)},
		PartialFingerprints: map[string]string{"primaryLocationLineHash": f.Fingerprint},
		Properties:          map[string]any{"security-severity": securitySeverity(f.Severity), "confidence": f.Confidence, "source": f.Source},
		Locations:           []sarifLocation{sarifLocationOf(f)},
	}
	if len(f.Also) > 0 {
		res.Properties["also"] = f.Also
	}
	return res
}

// sarifNotifications are the components that did not run (errors) and the limits hit
// (warnings).
func sarifNotifications(r *review.Report) []sarifNotification {
	out := []sarifNotification{}
	for _, n := range r.NotRun {
		out = append(out, sarifNotification{Level: "error", Message: sarifText{"not run: " + n.Component + ": " + n.Reason}})
	}
	for _, l := range r.Limits {
		out = append(out, sarifNotification{Level: "warning", Message: sarifText{"limit: " + l}})
	}
	return out
}

// sarifLocationOf is a finding's location: its path as a relative URI, its lines, and its
// column when it has one.
func sarifLocationOf(f review.Finding) sarifLocation {
	var loc sarifLocation
	loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(f.Path)
	loc.PhysicalLocation.ArtifactLocation.URIBaseID = "%SRCROOT%"
	loc.PhysicalLocation.Region.StartLine = max(f.Line, 1)
	loc.PhysicalLocation.Region.EndLine = max(f.EndLine, f.Line, 1)
	if f.Column > 0 && f.Line > 0 {
		loc.PhysicalLocation.Region.StartColumn = f.Column
	}
	return loc
}

func evidenceSuffix(e string) string {
	if e == "" {
		return ""
	}
	return "\nEvidence: " + e
}
