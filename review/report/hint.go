package report

import (
	"strings"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// findingKind is what a finding is, for the way out the summary hint gives: an inline marker
// works only on a line of a file being committed now.
type findingKind int

const (
	kindLine      findingKind = iota // a line of a file in this change: an inline marker works
	kindFile                         // a whole file (a key, a credential store, a dump, JSON, a binary)
	kindHistory                      // a commit already made (a push, a range): rewrite it
	kindInjection                    // prompt injection: never suppressed inline
	kindMeta                         // a commit message, a ref name, a path
)

// wholeFileRules are the rules whose finding is about a file as a whole.
var wholeFileRules = map[string]bool{privateKeyFileRule: true, "tollgate/credential-file": true, "tollgate/database-dump": true}

// historyKinds are the changes made of commits already made (review --commit, --range,
// --all-history, a push).
var historyKinds = map[string]bool{"commit": true, "range": true, "push": true}

// kindOf says what f, found in a change of kind change, is. Prompt injection comes first (a
// marker is refused wherever it is), then a commit already made (a marker added now does not
// change it).
func kindOf(f review.Finding, change string) findingKind {
	switch {
	case f.RuleID == review.InjectionRuleID:
		return kindInjection
	case historyKinds[change] && f.Commit() != "":
		return kindHistory
	case f.Metadata != "":
		return kindMeta
	case wholeFile(f):
		return kindFile
	}
	return kindLine
}

// wholeFile reports a finding no comment can sit beside: no line (a binary), a rule about the
// whole file, a key file, or a format without comments (JSON) or a credential store (.env).
func wholeFile(f review.Finding) bool {
	if f.Line < 1 || wholeFileRules[f.RuleID] || isKeyFile(f) {
		return true
	}
	k := lang.KindOf(f.Path)
	return k == lang.JSON || k == lang.Env
}

// hints are the summary's ways out, one line per kind of failing finding, in a fixed order.
func hints(r *review.Report) []string {
	seen := map[findingKind]bool{}
	for _, f := range r.Findings {
		if f.Severity >= r.FailOn {
			seen[kindOf(f, r.Change.Kind)] = true
		}
	}
	baselineCmd := "tollgate baseline"
	if r.Change.Kind == "staged" {
		baselineCmd = "tollgate baseline --staged"
	}
	var out []string
	if seen[kindLine] {
		out = append(out, "fix or remove what is reported, or mark a false positive with an inline `tollgate:allow` comment on its line")
	}
	if seen[kindFile] {
		out = append(out, "a whole file (a key, a credential store, a dump) or a file without comments (JSON) takes no inline marker: "+
			"if it is meant to be committed (a test fixture), leave it out with `review.exclude` in .tollgate.toml or accept it with `"+baselineCmd+"`")
	}
	if seen[kindHistory] {
		out = append(out, "a finding in a commit already made stays in the history whatever later commits change: "+
			"rewrite that commit (`git commit --amend` for the last one, `git rebase -i` for an earlier one), then rotate any secret it held")
	}
	if seen[kindInjection] {
		out = append(out, "prompt injection takes no inline marker (injected text would carry one): remove the text, "+
			"or leave documentation or tests about it out with `review.exclude` in .tollgate.toml")
	}
	if seen[kindMeta] {
		out = append(out, "a commit message, ref name or path takes no marker: reword the message (commit again, or `git commit --amend` a commit already made) or rename what is reported")
	}
	return out
}

// isKeyFile reports a private key that is a file of its own: a key file by name, or a key
// block at the start of a line in a file that is neither code nor structured config (a PEM
// file with any name, such as tests/fixtures/fake_rsa). A key inside code or config is a key
// in a file, with the fix of a token.
func isKeyFile(f review.Finding) bool {
	if f.RuleID == privateKeyFileRule {
		return true
	}
	if !strings.Contains(f.RuleID, "private-key") {
		return false
	}
	if keyFileName.MatchString(baseName(f.Path)) {
		return true
	}
	k := lang.KindOf(f.Path)
	return f.Column <= 1 && (k == lang.Other || k == lang.Text)
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		return p[i+1:]
	}
	return p
}
