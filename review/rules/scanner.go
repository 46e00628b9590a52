package rules

import (
	"context"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Scanner runs tollgate's own rules, one family a file: sensitive files (files.go),
// credentials in config and code (creds.go), self-identifying tokens and password hashes
// (tokens.go), credential store entries by content (stores.go), and the insecure-code floor
// (code.go, code_sql.go, code_eval.go, code_deser.go; cross-line reading in flow.go).
type Scanner struct{}

// Name implements Scanner.
func (Scanner) Name() string { return "builtin" }

// All lists every built-in rule, for documentation (the README, SARIF help) and tests.
func All() []review.Rule {
	var out []review.Rule
	for _, r := range fileRules {
		out = append(out, r.Rule)
	}
	out = append(out, credentialRule)
	out = append(out, tokenRuleList()...)
	out = append(out, credentialEntry)
	for _, r := range codeRules {
		out = append(out, r.Rule)
	}
	for _, r := range sqlRules {
		out = append(out, r.Rule)
	}
	out = append(out, flowRules...)
	return dedupRules(out)
}

func dedupRules(in []review.Rule) []review.Rule {
	seen := map[string]bool{}
	var out []review.Rule
	for _, r := range in {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, withFix(r))
		}
	}
	return out
}

// Scan implements Scanner.
func (Scanner) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	return review.ForEachFile(ctx, u, r, func(f *diff.FileDiff, r *review.Result) { builtinFile(ctx, u, f, r, false) })
}

// SecretScanner runs only the rules of secrets that need no keyword: sensitive files
// (files.go), self-identifying tokens and password hashes (tokens.go) and credential store
// entries by content (stores.go). Their findings are exactly Scanner's findings of those rules;
// the credential rule (creds.go) and the insecure-code floor do not run. The agent guard runs
// it over content about to be written, where it judges the credential rule its own way and
// ignores code findings.
type SecretScanner struct{}

// Name implements Scanner.
func (SecretScanner) Name() string { return "builtin" }

// Scan implements Scanner.
func (SecretScanner) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	return review.ForEachFile(ctx, u, r, func(f *diff.FileDiff, r *review.Result) { builtinFile(ctx, u, f, r, true) })
}

// ctxLines is how many lines a per-line scanner reads between two looks at its context.
const ctxLines = 4096

// builtinFile runs the built-in rules on one file (secretsOnly: SecretScanner's); once ctx
// ends it stops (review.ForEachFile then reports the file as not finished).
func builtinFile(ctx context.Context, u *diff.Unit, f *diff.FileDiff, r *review.Result, secretsOnly bool) {
	if f.Status == diff.Deleted {
		return
	}
	p := f.Path()
	k := lang.KindOf(p)
	scanFile(u, f, p, r)
	if f.Binary {
		return
	}
	// A file reported as a store of password hashes (shadow, htpasswd) is one problem.
	hashesTold := reported(r, p, credentialFile.ID)
	var entries entryLines
	if secretsOnly {
		if secretLines(ctx, f, p, k, hashesTold, &entries, u, r) {
			entries.report(u, p, r)
		}
		return
	}
	var names map[string]bool
	if isLocalServiceFile(p) || serviceConfig(p, f) {
		names = serviceNames(f)
	}
	var fl *flow
	var docs docBlock
	if !k.IsProse() {
		fl = newFlow(u, p, k, r)
	}
	i := 0
	for hi := range f.Hunks {
		if fl != nil {
			fl.hunk()
		}
		for _, l := range f.Hunks[hi].Lines() {
			if l.Kind != diff.Add {
				continue
			}
			if i%ctxLines == 0 && ctx.Err() != nil {
				return
			}
			i++
			entries.add(l)
			before, doc := len(r.Findings), k == lang.Python && docs.inside(l.Text)
			scanLine(u, p, k, l, lineState{names: names, hashesTold: hashesTold, fl: fl}, r)
			if doc {
				lowerSince(r, before, "in a docstring or an EXAMPLES block")
			}
		}
	}
	if fl != nil {
		fl.done()
	}
	entries.report(u, p, r)
	reportJWK(u, f, p, r)
}

// secretLines runs SecretScanner's line rules (tokens, credential store entries) on the file's
// added lines; false once ctx ended.
func secretLines(ctx context.Context, f *diff.FileDiff, p string, k lang.Kind, hashesTold bool, entries *entryLines, u *diff.Unit, r *review.Result) bool {
	i := 0
	var docs docBlock
	for hi := range f.Hunks {
		for _, l := range f.Hunks[hi].Lines() {
			if l.Kind != diff.Add {
				continue
			}
			if i%ctxLines == 0 && ctx.Err() != nil {
				return false
			}
			i++
			entries.add(l)
			before, doc := len(r.Findings), k == lang.Python && docs.inside(l.Text)
			scanTokens(u, p, k, l, hashesTold, r)
			if doc {
				lowerSince(r, before, "in a docstring or an EXAMPLES block")
			}
		}
	}
	return true
}

// lineState is what the rules of one line need to know of its file: the local-service names
// (see throwaway), whether the file is one store of hashes, and its cross-line reader.
type lineState struct {
	names      map[string]bool
	hashesTold bool
	fl         *flow
}

// scanLine runs the line rules on one added line.
func scanLine(u *diff.Unit, p string, k lang.Kind, l diff.Line, st lineState, r *review.Result) {
	// the line's code part, cut once for the credential rule and the cross-line reader
	code, credText := credentialText(k, l.Text)
	scanCredentials(u, p, k, l, credText, st.names, r)
	scanTokens(u, p, k, l, st.hashesTold, r)
	if k.IsProse() {
		return
	}
	if st.fl != nil {
		st.fl.add(l, code) // fl reads code kinds only: code is the line's code part
	}
	scanCode(u, p, k, l, r, st.fl, code)
}

// flowRules are the rules the cross-line reader reports besides the SQL line rules, for
// documentation and tests.
var flowRules = []review.Rule{evalRule, evalVarRule, sqlRunRule, deserAliasRule}

// testSeverity lowers a code or credential finding in test code to low.
func testSeverity(p string, sev policy.Severity, msg string) (policy.Severity, string) {
	if lang.IsTestPath(p) && sev > policy.Low {
		return policy.Low, msg + " (in test code: lowered to low)"
	}
	return sev, msg
}

// joinLines joins a file's added lines' text with newlines. A new file's text is returned as
// it is (without its final newline); otherwise the text is built at its exact size.
func joinLines(f *diff.FileDiff) string {
	if len(f.Hunks) == 1 {
		if t, ok := f.Hunks[0].Text(); ok {
			return strings.TrimSuffix(t, "\n")
		}
	}
	n := 0
	for l := range f.Added() {
		n += len(l.Text) + 1
	}
	var b strings.Builder
	b.Grow(n)
	first := true
	for l := range f.Added() {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(l.Text)
	}
	return b.String()
}

// firstAdded is the new-file number of the file's first added line (ok false: none).
func firstAdded(f *diff.FileDiff) (n int, ok bool) {
	for l := range f.Added() {
		return l.New, true
	}
	return 0, false
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// example is a rule's documented example: a file path and its added lines.
func example(path, text string) review.Example { return review.Example{Path: path, Text: text} }
