package guard

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// A command the parser cannot read is asked about. When it also spells a hook bypass
// (git commit --no-verify -m 'unclosed), it is denied: a shell would refuse the same syntax
// error, so nothing runnable is lost, and an agent retrying with the quote fixed meets the
// bypass rules proper.

var unparsedBypassWords = lazyre.New(`(?i)--no-veri|core\.hookspath|\b(?:husky|lefthook|tollgate)=0\b|\bskip=\S*tollgate|\bgit\b[^\n;&|]*\bcommit\b[^\n;&|]*\s-[a-z]*n[a-z]*(?:\s|$)`)

// unparsedBypass turns the Ask of an unparsable command that names a hook bypass into Deny.
func (j *judge) unparsedBypass(src string) {
	if j.best.Verdict != Ask || j.best.Rule != "guard/unparsed" || len(src) > maxCommandBytes {
		return
	}
	if unparsedBypassWords.MatchString(src) {
		j.best = Answer{Verdict: Deny, Rule: "guard/hook-bypass",
			Reason: "tollgate could not parse this command, and it spells a way around git's hooks (" + j.best.Reason + "); fix the quoting, and run the commit with its hooks"}
	}
}

// ruleUnrunnable marks a no-objection answer for text bash refuses to run: it is never turned
// into Allow by guard.auto_allow.
const ruleUnrunnable = "guard/unrunnable"

// unclosedQuote handles the one parse error bash shares exactly: a quote left open. Bash reads
// to the end looking for its match, refuses the line that opened it (and any line joined to it
// by a continuation), and runs only the complete lines before it. It returns those lines, and
// the rest with its quote closed: what the agent meant to run, judged as if it ran (a retry
// with the quote fixed would run it), so an open quote neither hides a risky command nor asks
// about a harmless one. ok is false for any other error, and for a quote whose text spells a
// hook bypass (asked, then denied, as any unparsable bypass).
func unclosedQuote(src string, err error) (before, closed string, ok bool) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) || !strings.HasPrefix(pe.Text, "reached EOF without closing quote") || !pe.Pos.IsValid() {
		return "", "", false
	}
	start := 0
	for line := uint(1); line < pe.Pos.Line(); line++ {
		nl := strings.IndexByte(src[start:], '\n')
		if nl < 0 {
			return "", "", false
		}
		start += nl + 1
	}
	off := int(pe.Pos.Offset())
	if off < start || off >= len(src) || unparsedBypassWords.MatchString(src[start:]) {
		return "", "", false
	}
	q := src[off]
	if q == '$' && off+1 < len(src) {
		q = src[off+1]
	}
	if q != '\'' && q != '"' && q != '`' {
		return "", "", false
	}
	return src[:start], src[start:] + string(q), true
}
