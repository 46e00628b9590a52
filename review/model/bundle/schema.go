package bundle

import (
	"path"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

var stringLitRE = lazyre.New("\"((?:[^\"\\\\\\n]|\\\\.)*)\"|'((?:[^'\\\\\\n]|\\\\.)*)'|`([^`\\n]*)`")

// schemas lists the existing schema files named by string literals on s's added lines,
// relative to the repository root or to s's directory.
func (e *expander) schemas(s expansionSource) []string {
	var names []string
	for _, line := range s.added {
		for _, m := range stringLitRE.FindAllStringSubmatch(line, -1) {
			v := m[1] + m[2] + m[3]
			if v == "" || strings.ContainsAny(v, "\\ \t") || !schemaExts[strings.ToLower(path.Ext(v))] {
				continue
			}
			names = append(names, v)
		}
	}
	sort.Strings(names)
	var out []string
	for _, v := range names {
		for _, base := range []string{"", dirOf(s.path)} {
			if p, ok := join(base, v); ok && p != "" && e.exists(p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return dedup(out)
}
