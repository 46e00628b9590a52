package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Finding is one reported problem. Evidence is always masked.
type Finding struct {
	RuleID     string          `json:"rule_id"`
	Severity   policy.Severity `json:"severity"`
	Confidence float64         `json:"confidence"`
	CWE        []string        `json:"cwe"`
	Path       string          `json:"path"`
	Line       int             `json:"line"`
	// Column is the 1-based column (in characters) of the match on Line; 0 when the finding
	// has no position on the line (a whole file, a tool that gives none).
	Column      int    `json:"column,omitempty"`
	EndLine     int    `json:"end_line"`
	Message     string `json:"message"`
	Evidence    string `json:"evidence"`
	Source      string `json:"source"`
	Fingerprint string `json:"fingerprint"`
	// Metadata is set when the finding is in git metadata, not in a file's content: then Path
	// names what was read ("(commit 0123456789ab message)", "(refs)") and Metadata its kind
	// (diff.MetaMessage, ...); "path" is a finding in a file's path (Path is that file).
	Metadata string `json:"metadata,omitempty"`

	// LaterRemoved is set by Run on a finding of a commit whose line (or file) a later commit
	// of the same range or push removes again: the secret is gone from the tip but still in the
	// history being pushed, so the fix is a history rewrite (the writers say so).
	LaterRemoved bool `json:"-"`
	// Also lists the rules that reported the same problem and were folded into this finding
	// (one problem is one finding: the more specific rule is kept).
	Also []string `json:"also,omitempty"`
	// Origins are other lines of the same file the problem comes from (where a query that a
	// line runs was built): an inline marker there applies to the finding too.
	Origins []int `json:"-"`

	// commit is the commit the finding is in ("" for the staged set): findings are the same
	// only when commit, path, line and rule are.
	commit string
	// text is the whole line the evidence is cut from (never shown as is); focus the byte
	// offset of the match in it; secrets the values a scanner already knows are on it. Run
	// masks every secret on the whole line before it cuts the evidence window.
	text    string
	focus   int
	secrets []string
}

// LineEvidence sets the finding's evidence from the whole line text, the match at byte offset
// focus, secrets known to be on it. The finding's Column is the match's, except for a model's
// finding: a model quotes its evidence, which is not the file's line, so its column is unknown.
func (f Finding) LineEvidence(text string, focus int, secrets ...string) Finding {
	f.text, f.focus, f.secrets = text, focus, secrets
	if f.Source != "model" {
		f.Column = column(text, focus)
	}
	f.Evidence, _ = redact.Evidence(nil, f.Path, text, focus, secrets...)
	return f
}

// Rejected is a finding that was dropped, and why.
type Rejected struct {
	RuleID string `json:"rule_id"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// NotRun is a component that was meant to run and did not.
type NotRun struct {
	Component string `json:"component"`
	Reason    string `json:"reason"`
}

// fingerprint identifies a finding across runs: rule, path and masked evidence, not the line
// (which moves as code is edited above it).
func fingerprint(f *Finding) string { return occurrenceFingerprint(f, 1) }

// Fingerprint is f's fingerprint as a scanner records it (Run numbers alike findings when it
// orders the report).
func Fingerprint(f *Finding) string { return fingerprint(f) }

// occurrenceFingerprint is the fingerprint of the nth finding (from the top of the file) with
// the same rule, path and masked evidence in one commit: three distinct secrets whose masked
// lines look alike are three findings with three fingerprints, each still free of the line.
func occurrenceFingerprint(f *Finding, n int) string {
	h := sha256.New()
	for _, s := range []string{f.RuleID, f.Path, f.Evidence} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if n > 1 {
		fmt.Fprintf(h, "%d", n)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// InCommit returns " (in commit X)" for a finding of a commit's unit, "" for a staged change:
// every scanner's message ends with it.
func InCommit(u *diff.Unit) string {
	if u.Commit == "" {
		return ""
	}
	return " (in commit " + ShortCommit(u.Commit) + ")"
}

// ShortCommit is a commit id as reports show it: its first 12 hex digits.
func ShortCommit(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}

// column is the 1-based character column of byte offset focus on the first line of text (0 if
// focus is not on it).
func column(text string, focus int) int {
	if focus < 0 || focus > len(text) {
		return 0
	}
	first := text[:focus]
	if strings.ContainsAny(first, "\r\n") {
		return 0
	}
	return utf8.RuneCountInString(first) + 1
}
