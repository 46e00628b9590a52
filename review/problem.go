package review

import (
	"strings"

	"github.com/tollgate-dev/tollgate/redact"
)

// One problem is one finding: when two rules report the same secret or the same file, the more
// specific finding is kept and names the others' rule ids in Also.
//   - on one line, a gitleaks rule of a token's shape (secrets/...) is more specific than
//     tollgate's rule of a self-identifying token or a credential store's entry
//     (tollgate/telegram-bot-token, tollgate/credential-entry, ...) reporting the same value,
//     which is more specific than gitleaks' secrets/generic-api-key on that value; all are
//     more specific than tollgate/hardcoded-credential, which knows only that a key names a
//     secret;
//   - in one file, a key's line (secrets/private-key) is more specific than the file as a whole
//     (tollgate/private-key-file), which in turn names the kind of key store better than
//     secrets/pkcs12-file, a match on the file name only.
const hardcodedCredential = "tollgate/hardcoded-credential"

// shapeRules are tollgate's rules of secrets known by their shape (package rules, tokens.go:
// one per kind redact.FindTokens reports) or by the credential store format of their line
// (stores.go).
var shapeRules = func() map[string]bool {
	m := map[string]bool{"tollgate/credential-entry": true}
	for _, k := range redact.TokenKinds {
		m["tollgate/"+k] = true
	}
	return m
}()

// ShapeRule reports whether rule is one of tollgate's rules of a secret known by its shape or
// by its credential store's format.
func ShapeRule(rule string) bool { return shapeRules[rule] }

// genericSecret is gitleaks' rule of any keyword-named value: it knows less of a secret than a
// rule of its shape.
const genericSecret = "secrets/generic-api-key"

// lineRank orders the rules that report a secret on a line (higher is more specific); 0 is
// not such a rule.
func lineRank(rule string) int {
	switch {
	case rule == genericSecret:
		return 2
	case strings.HasPrefix(rule, "secrets/"):
		return 4
	case shapeRules[rule]:
		return 3
	case rule == hardcodedCredential:
		return 1
	}
	return 0
}

// keyRank orders the rules that report a private key or key store (higher is more specific);
// 0 is not such a rule.
func keyRank(rule string) int {
	switch rule {
	case "secrets/private-key":
		return 3
	case "tollgate/private-key-file":
		return 2
	case "secrets/pkcs12-file":
		return 1
	}
	return 0
}

type (
	lineKey struct {
		commit, path string
		line         int
	}
	fileKey struct{ commit, path string }
	// problems indexes findings: the secret findings of each line (lineRank > 1), the most
	// specific key finding (its first) of each file.
	problems struct {
		secretsOn map[lineKey][]int
		bestKey   map[fileKey]int
	}
)

func indexProblems(fs []Finding) problems {
	p := problems{secretsOn: map[lineKey][]int{}, bestKey: map[fileKey]int{}}
	for i := range fs {
		f := &fs[i]
		if lineRank(f.RuleID) > 1 {
			lk := lineKey{f.commit, f.Path, f.Line}
			p.secretsOn[lk] = append(p.secretsOn[lk], i)
		}
		if r := keyRank(f.RuleID); r > 0 {
			fk := fileKey{f.commit, f.Path}
			if j, ok := p.bestKey[fk]; !ok || keyRank(fs[j].RuleID) < r {
				p.bestKey[fk] = i
			}
		}
	}
	return p
}

// keeper returns the index of the finding that fs[i] is folded into (i itself if none).
func (p problems) keeper(fs []Finding, i int) int {
	f := &fs[i]
	if r := lineRank(f.RuleID); r > 0 {
		// The most specific secret finding of the line (the first of a rank); a token rule's
		// finding folds only into one that reports the same value.
		// The kept finding is the most severe, then the most specific: a token rule lowered
		// in test code never hides gitleaks' finding of the same value at its own severity.
		best, bestRank := i, r
		for _, j := range p.secretsOn[lineKey{f.commit, f.Path, f.Line}] {
			rj, sj, sb := lineRank(fs[j].RuleID), fs[j].Severity, fs[best].Severity
			if (sj > sb || sj == sb && rj > bestRank) && (r == 1 || sameSecret(f, &fs[j])) {
				best, bestRank = j, rj
			}
		}
		if best != i {
			return best
		}
	}
	if r := keyRank(f.RuleID); r > 0 {
		if j := p.bestKey[fileKey{f.commit, f.Path}]; keyRank(fs[j].RuleID) > r {
			return j
		}
	}
	return i
}

// oneProblem folds findings of the same problem into the most specific one (see above), which
// lists the folded rule ids in Also. fs is deduplicated already; its order is kept.
func oneProblem(fs []Finding) []Finding {
	p := indexProblems(fs)
	keep := make([]int, len(fs))
	folded := map[int][]string{}
	for i := range fs {
		keep[i] = p.keeper(fs, i)
		if keep[i] != i {
			folded[keep[i]] = appendNew(folded[keep[i]], fs[i].RuleID)
		}
	}
	out := make([]Finding, 0, len(fs))
	for i := range fs {
		if keep[i] != i {
			continue
		}
		f := fs[i]
		for _, id := range folded[i] {
			f.Also = appendNew(f.Also, id)
		}
		out = append(out, f)
	}
	return out
}

// appendNew appends s to xs unless it is there already.
func appendNew(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

// sameSecret reports whether two findings on one line report the same value (one holds the
// other), as their scanners gave it.
func sameSecret(a, b *Finding) bool {
	for _, x := range a.secrets {
		for _, y := range b.secrets {
			if x != "" && y != "" && (strings.Contains(x, y) || strings.Contains(y, x)) {
				return true
			}
		}
	}
	return false
}
