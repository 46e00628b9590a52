package review

import "github.com/tollgate-dev/tollgate/review/internal/lazyre"

// lazyRE is a regular expression compiled on first use (see package lazyre).
type lazyRE = lazyre.RE

// lazyRegexp is regexp.MustCompile, deferred. The pattern is checked by the package's tests
// (every rule runs there), not at start-up.
func lazyRegexp(src string) *lazyRE { return lazyre.New(src) }
