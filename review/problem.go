package review

import "strings"

// One problem is one finding: when two rules report the same secret or the same file, the more
// specific finding is kept and names the others' rule ids in Also.
//   - on one line, a gitleaks rule (secrets/...) is more specific than
//     tollgate/hardcoded-credential, which knows only that a key names a secret;
//   - in one file, a key's line (secrets/private-key) is more specific than the file as a whole
//     (tollgate/private-key-file), which in turn names the kind of key store better than
//     secrets/pkcs12-file, a match on the file name only.
const hardcodedCredential = "tollgate/hardcoded-credential"

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
	// problems indexes findings: the first secrets/ finding of each line, the most specific
	// key finding (its first) of each file.
	problems struct {
		secretOn map[lineKey]int
		bestKey  map[fileKey]int
	}
)

func indexProblems(fs []Finding) problems {
	p := problems{secretOn: map[lineKey]int{}, bestKey: map[fileKey]int{}}
	for i := range fs {
		f := &fs[i]
		lk := lineKey{f.commit, f.Path, f.Line}
		if _, ok := p.secretOn[lk]; !ok && strings.HasPrefix(f.RuleID, "secrets/") {
			p.secretOn[lk] = i
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
	if f.RuleID == hardcodedCredential {
		if j, ok := p.secretOn[lineKey{f.commit, f.Path, f.Line}]; ok {
			return j
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
