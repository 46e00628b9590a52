package review

import (
	"context"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Rule documents one built-in rule: what it is, and an example of what it catches and what it
// leaves alone. The examples are tests (rules_test.go) and the README's rule list.
type Rule struct {
	ID          string
	Severity    policy.Severity
	CWE         []string
	Description string
	Catches     Example
	Leaves      Example
}

// Example is one file line (or file) a rule is shown on.
type Example struct {
	Path string
	Text string // the added lines, newline-separated
}

// lineRule is a rule matched on one added line's code (comments stripped unless inComments).
type lineRule struct {
	Rule
	kinds      []lang.Kind // nil: every kind that is not prose
	re         *lazyRE
	unless     *lazyRE // the line is safe if this matches
	check      func(code string, m []int) bool
	hint       string   // a substring every match contains (case-sensitive): the regex runs only then
	anyFold    []string // lower-case words one of which every match contains (case-insensitive)
	confidence float64
	inComments bool
}

func (r *lineRule) applies(k lang.Kind) bool {
	if r.kinds == nil {
		return !k.IsProse()
	}
	for _, x := range r.kinds {
		if x == k {
			return true
		}
	}
	return false
}

// BuiltinScanner runs tollgate's own rules: sensitive files, credentials in config and code,
// and the insecure-code floor.
type BuiltinScanner struct{}

// Name implements Scanner.
func (BuiltinScanner) Name() string { return "builtin" }

// Rules lists every built-in rule, for documentation and tests.
func Rules() []Rule {
	var out []Rule
	for _, r := range fileRules {
		out = append(out, r.Rule)
	}
	out = append(out, credentialRule)
	for _, r := range codeRules {
		out = append(out, r.Rule)
	}
	return dedupRules(out)
}

func dedupRules(in []Rule) []Rule {
	seen := map[string]bool{}
	var out []Rule
	for _, r := range in {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	return out
}

// Scan implements Scanner.
func (BuiltinScanner) Scan(ctx context.Context, u *diff.Unit, r *Result) error {
	return ForEachFile(ctx, u, r, func(f *diff.FileDiff, r *Result) { builtinFile(ctx, u, f, r) })
}

// ctxLines is how many lines a per-line scanner reads between two looks at its context.
const ctxLines = 4096

// builtinFile runs the built-in rules on one file; once ctx ends it stops (ForEachFile then
// reports the file as not finished).
func builtinFile(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *Result) {
	if f.Status == diff.Deleted {
		return
	}
	p := f.Path()
	k := lang.KindOf(p)
	added := f.AddedLines()
	scanFile(u, f, p, added, r)
	if f.Binary {
		return
	}
	for i, l := range added {
		if i%ctxLines == 0 && ctx.Err() != nil {
			return
		}
		scanCredentials(u, p, k, l, r)
		if k.IsProse() {
			continue
		}
		code, lower := "", ""
		codeDone := false
		for ri := range codeRules {
			rule := &codeRules[ri]
			if !rule.applies(k) || (rule.hint != "" && !strings.Contains(l.Text, rule.hint)) {
				continue
			}
			if len(rule.anyFold) > 0 {
				if lower == "" {
					lower = strings.ToLower(l.Text)
				}
				if !containsAny(lower, rule.anyFold) {
					continue
				}
			}
			text := l.Text
			if !rule.inComments {
				if !codeDone {
					code, codeDone = lang.CodePart(k, l.Text), true
				}
				text = code
			}
			if text == "" {
				continue
			}
			m := rule.re.FindStringSubmatchIndex(text)
			if m == nil {
				continue
			}
			if rule.unless != nil && rule.unless.MatchString(text) {
				continue
			}
			if rule.check != nil && !rule.check(text, m) {
				continue
			}
			sev, msg := testSeverity(p, rule.Severity, rule.Description)
			r.add(Finding{
				RuleID: rule.ID, Severity: sev, Confidence: rule.confidence, CWE: rule.CWE,
				Path: p, Line: l.New, EndLine: l.New, Message: msg + InCommit(u), Source: "builtin",
			}.LineEvidence(l.Text, m[0]))
		}
	}
}

// testSeverity lowers a code or credential finding in test code to low.
func testSeverity(p string, sev policy.Severity, msg string) (policy.Severity, string) {
	if lang.IsTestPath(p) && sev > policy.Low {
		return policy.Low, msg + " (in test code: lowered to low)"
	}
	return sev, msg
}

// joinLines joins added lines' text with newlines.
func joinLines(ls []diff.Line) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
	}
	return b.String()
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
