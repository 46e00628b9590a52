package redact

import (
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"strconv"
)

// RuleInfo names one gitleaks rule of a detector's rule set.
type RuleInfo struct {
	ID          string
	Description string
}

var chunkDescription = lazyre.New(`(?m)^description\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')`)

// Rules lists the detector's gitleaks rules, in rule-set order: the defaults (read from their
// text, nothing compiled) or the repository's .gitleaks.toml as compiled.
func (d *Detector) Rules() []RuleInfo {
	var out []RuleInfo
	set := d.e.set
	for i := 0; i < set.size(); i++ {
		info := RuleInfo{ID: set.id(i)}
		switch s := set.(type) {
		case *defaultSet:
			if m := chunkDescription.FindStringSubmatch(s.chunks[i]); m != nil {
				info.Description = unquoteTOML(m[1])
			}
		case *compiledSet:
			info.Description = s.cfg.Rules[info.ID].Description
		}
		out = append(out, info)
	}
	return out
}

// unquoteTOML reads a one-line TOML string (basic or literal).
func unquoteTOML(q string) string {
	if len(q) >= 2 && q[0] == '\'' {
		return q[1 : len(q)-1]
	}
	if s, err := strconv.Unquote(q); err == nil {
		return s
	}
	return q[1 : len(q)-1]
}
