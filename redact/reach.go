package redact

import (
	"regexp/syntax"
	"strings"
)

// A rule's reach, read from its regex: how many newlines one match can hold, and whether every
// match holds one of the rule's keywords. The engine runs a rule on the lines around its
// keywords only when both are known (a bounded reach, a keyword in every match); otherwise the
// rule sees the whole text, as in gitleaks.

// unbounded is the reach of a regex whose matches can hold any number of newlines.
const unbounded = -1

// maxReach caps a bounded reach: beyond it a window is no cheaper than the whole text.
const maxReach = 1000

// analyse returns the number of newlines a match of src can hold (unbounded if there is no
// bound or it exceeds maxReach) and whether every match holds one of kws (lower case).
func analyse(src string, kws []string) (reach int, anchored bool) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return unbounded, false
	}
	reach = newlines(re)
	if reach > maxReach {
		reach = unbounded
	}
	return reach, len(kws) > 0 && holdsKeyword(re, kws)
}

// newlines is the largest number of newlines one match of re can hold, or unbounded.
func newlines(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.Count(string(re.Rune), "\n")
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return 1
			}
		}
		return 0
	case syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return newlines(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		return subNewlines(re)
	case syntax.OpStar, syntax.OpPlus:
		if newlines(re.Sub[0]) != 0 {
			return unbounded
		}
		return 0
	case syntax.OpRepeat:
		return repeatNewlines(re)
	}
	return 0 // empty-width assertions, empty match, no match, AnyCharNotNL
}

// subNewlines is newlines of a concatenation (the sum of its parts') or an alternation (the
// most of its branches').
func subNewlines(re *syntax.Regexp) int {
	acc := 0
	for _, s := range re.Sub {
		n := newlines(s)
		if n == unbounded {
			return unbounded
		}
		if re.Op == syntax.OpConcat {
			acc = min(acc+n, maxReach+1)
		} else {
			acc = max(acc, n)
		}
	}
	return acc
}

// repeatNewlines is newlines of a counted repetition.
func repeatNewlines(re *syntax.Regexp) int {
	n := newlines(re.Sub[0])
	switch {
	case n == 0:
		return 0
	case n == unbounded || re.Max < 0:
		return unbounded
	}
	return min(n*re.Max, maxReach+1)
}

// exactLimit bounds the sets of strings exact enumerates.
const exactLimit = 256

// exact returns every string re can match, lower-cased, or nil when there are too many (or
// infinitely many). The empty string is [""].
func exact(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCharClass:
		return exactClass(re)
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		s := exact(re.Sub[0])
		if s == nil {
			return nil
		}
		return uniq(append(s, ""))
	case syntax.OpConcat:
		return exactConcat(re.Sub)
	case syntax.OpAlternate:
		return exactAlternate(re.Sub)
	case syntax.OpRepeat:
		return exactRepeat(re)
	}
	return nil
}

// exactClass is exact of a character class: nil if a range holds 16 characters or more.
func exactClass(re *syntax.Regexp) []string {
	var out []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		if re.Rune[i+1]-re.Rune[i] >= 16 {
			return nil
		}
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			out = append(out, strings.ToLower(string(r)))
		}
	}
	return uniq(out)
}

// exactAlternate is exact of an alternation: every branch's strings.
func exactAlternate(subs []*syntax.Regexp) []string {
	var out []string
	for _, s := range subs {
		e := exact(s)
		if e == nil || len(out)+len(e) > exactLimit {
			return nil
		}
		out = append(out, e...)
	}
	return uniq(out)
}

// exactRepeat is exact of a counted repetition of at most 4.
func exactRepeat(re *syntax.Regexp) []string {
	if re.Max < 0 || re.Max > 4 {
		return nil
	}
	sub := exact(re.Sub[0])
	if sub == nil {
		return nil
	}
	var out []string
	cur := []string{""}
	for n := 0; n <= re.Max; n++ {
		if n >= re.Min {
			out = append(out, cur...)
		}
		if cur = product(cur, sub); cur == nil {
			return nil
		}
	}
	return uniq(out)
}

func exactConcat(subs []*syntax.Regexp) []string {
	out := []string{""}
	if len(subs) == 0 {
		return out
	}
	for _, s := range subs {
		e := exact(s)
		if e == nil {
			return nil
		}
		if out = product(out, e); out == nil {
			return nil
		}
	}
	return out
}

// starts returns strings one of which starts every match of re ([""] when unknown).
func starts(re *syntax.Regexp) []string {
	if e := exact(re); e != nil {
		return e
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return starts(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return starts(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			out = append(out, starts(s)...)
		}
		return uniq(out)
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			e := exact(s)
			if e == nil {
				e = starts(s)
				if p := product(out, e); p != nil {
					return p
				}
				return out
			}
			p := product(out, e)
			if p == nil {
				return out
			}
			out = p
		}
		return out
	}
	return []string{""}
}

// ends returns strings one of which ends every match of re ([""] when unknown).
func ends(re *syntax.Regexp) []string {
	if e := exact(re); e != nil {
		return e
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return ends(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return ends(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			out = append(out, ends(s)...)
		}
		return uniq(out)
	case syntax.OpConcat:
		out := []string{""}
		for i := len(re.Sub) - 1; i >= 0; i-- {
			e := exact(re.Sub[i])
			if e == nil {
				e = ends(re.Sub[i])
				if p := product(e, out); p != nil {
					return p
				}
				return out
			}
			p := product(e, out)
			if p == nil {
				return out
			}
			out = p
		}
		return out
	}
	return []string{""}
}

// product is every a+b, or nil beyond exactLimit.
func product(as, bs []string) []string {
	if as == nil || bs == nil || len(as)*len(bs) > exactLimit {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return uniq(out)
}

func uniq(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := in[:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// holdsKeyword reports whether every match of re holds one of kws (compared as gitleaks does,
// on the lower-cased text). false means "not known".
func holdsKeyword(re *syntax.Regexp, kws []string) bool {
	if e := exact(re); e != nil {
		return allHold(e, kws)
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return holdsKeyword(re.Sub[0], kws)
	case syntax.OpRepeat:
		return re.Min > 0 && holdsKeyword(re.Sub[0], kws)
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !holdsKeyword(s, kws) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		return concatHolds(re.Sub, kws)
	}
	return false
}

// concatHolds is holdsKeyword of a concatenation: one part holds a keyword, or a keyword is
// spread over neighbours ("passw" "(?:or)?" "d"), or over the end of one and the start of the
// next ("A" "(?:KIA|SIA)").
func concatHolds(subs []*syntax.Regexp, kws []string) bool {
	for _, s := range subs {
		if holdsKeyword(s, kws) {
			return true
		}
	}
	for i := range subs {
		for j := i; j <= len(subs); j++ {
			e := []string{""}
			if i > 0 {
				e = ends(subs[i-1])
			}
			if e = product(e, exactConcat(subs[i:j])); e == nil {
				break
			}
			if j < len(subs) {
				e = product(e, starts(subs[j]))
			}
			if e != nil && allHold(e, kws) {
				return true
			}
		}
	}
	return false
}

func allHold(strs, kws []string) bool {
	for _, s := range strs {
		if !containsAny(s, kws) {
			return false
		}
	}
	return true
}

func containsAny(s string, kws []string) bool {
	for _, k := range kws {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}
