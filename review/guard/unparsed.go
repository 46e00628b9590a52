package guard

import "github.com/tollgate-dev/tollgate/internal/lazyre"

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
