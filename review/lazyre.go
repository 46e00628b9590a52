package review

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. The scanners hold about a hundred
// patterns; compiling them when the package loads cost every hook run ~8 ms, most of them for
// rules that the change never needs.
type lazyRE struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

// lazyRegexp is regexp.MustCompile, deferred. The pattern is checked by the package's tests
// (every rule runs there), not at start-up.
func lazyRegexp(src string) *lazyRE { return &lazyRE{src: src} }

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRE) String() string                             { return l.src }
func (l *lazyRE) MatchString(s string) bool                  { return l.get().MatchString(s) }
func (l *lazyRE) Match(b []byte) bool                        { return l.get().Match(b) }
func (l *lazyRE) Find(b []byte) []byte                       { return l.get().Find(b) }
func (l *lazyRE) FindIndex(b []byte) []int                   { return l.get().FindIndex(b) }
func (l *lazyRE) FindSubmatchIndex(b []byte) []int           { return l.get().FindSubmatchIndex(b) }
func (l *lazyRE) FindString(s string) string                 { return l.get().FindString(s) }
func (l *lazyRE) FindStringIndex(s string) []int             { return l.get().FindStringIndex(s) }
func (l *lazyRE) FindStringSubmatch(s string) []string       { return l.get().FindStringSubmatch(s) }
func (l *lazyRE) FindStringSubmatchIndex(s string) []int     { return l.get().FindStringSubmatchIndex(s) }
func (l *lazyRE) FindAllString(s string, n int) []string     { return l.get().FindAllString(s, n) }
func (l *lazyRE) FindAllStringIndex(s string, n int) [][]int { return l.get().FindAllStringIndex(s, n) }
func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRE) ReplaceAllString(s, repl string) string { return l.get().ReplaceAllString(s, repl) }
