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
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: r.Tool.Name, Version: r.Tool.Version,
			InformationURI: "https://github.com/tollgate-dev/tollgate"}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: !r.Incomplete(), Notifications: []sarifNotification{}}},
		Results:     []sarifResult{},
	}
	docs := map[string]review.Rule{}
	for _, d := range s.Rules {
		docs[d.ID] = d
	}
	index := map[string]int{}
	ids := []string{}
	for _, f := range r.Findings {
		if _, ok := index[f.RuleID]; !ok {
			index[f.RuleID] = -1
			ids = append(ids, f.RuleID)
		}
	}
	sort.Strings(ids)
	for i, id := range ids {
		index[id] = i
		sev, cwe, desc := policy.Info, []string{}, ""
		for _, f := range r.Findings { // the rule's worst severity in this report
			if f.RuleID == id {
				sev, cwe, desc = max(sev, f.Severity), f.CWE, f.Message
			}
		}
		if d, ok := docs[id]; ok {
			desc = d.Description
		}
		tags := []string{"security"}
		for _, c := range cwe {
			tags = append(tags, "external/cwe/"+strings.ToLower(c))
		}
		help := desc
		if d, ok := docs[id]; ok {
			help = fmt.Sprintf("%s\n\nCatches, in %s: %s\nLeaves alone, in %s: %s", d.Description, d.Catches.Path, d.Catches.Text, d.Leaves.Path, d.Leaves.Text)
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: id, Name: id, ShortDescription: sarifText{review.FirstLine(desc)}, FullDescription: sarifText{desc},
			Help: sarifText{help}, DefaultConfiguration: map[string]any{"level": sarifLevel(sev)},
			Properties: map[string]any{"security-severity": securitySeverity(sev), "tags": tags},
		})
	}
	if run.Tool.Driver.Rules == nil {
		run.Tool.Driver.Rules = []sarifRule{}
	}
	for _, f := range r.Findings {
		res := sarifResult{
			RuleID: f.RuleID, RuleIndex: index[f.RuleID], Level: sarifLevel(f.Severity),
			Message:             sarifText{f.Message + evidenceSuffix(f.Evidence)},
			PartialFingerprints: map[string]string{"primaryLocationLineHash": f.Fingerprint},
			Properties:          map[string]any{"security-severity": securitySeverity(f.Severity), "confidence": f.Confidence, "source": f.Source},
		}
		if len(f.Also) > 0 {
			res.Properties["also"] = f.Also
		}
		loc := sarifLocationOf(f)
		if loc.PhysicalLocation.Region.StartColumn > 0 {
			run.ColumnKind = "unicodeCodePoints"
		}
		res.Locations = []sarifLocation{loc}
		run.Results = append(run.Results, res)
	}
	inv := &run.Invocations[0]
	for _, n := range r.NotRun {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{"not run: " + n.Component + ": " + n.Reason}})
	}
	for _, l := range r.Limits {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "warning", Message: sarifText{"limit: " + l}})
	}
	return encodeJSON(w, sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
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
