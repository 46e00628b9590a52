// Package lazyre holds regular expressions compiled on first use.
//
// The scanners and redact hold about a hundred and fifty patterns; compiling them when the
// packages load cost every hook run ~12 ms, most of them for rules the change never needs. A pattern is checked by
// the tests of the package that declares it (CheckAll, and every rule runs there), not at
// start-up: an invalid pattern panics on first use, like regexp.MustCompile.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled on first use. It is safe for concurrent use.
type RE struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

var (
	allMu sync.Mutex
	all   []*RE
)

// New is regexp.MustCompile, deferred.
func New(src string) *RE {
	r := &RE{src: src}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// CheckAll compiles every pattern declared so far (by the packages linked in) and returns the
// first that does not compile: a test's way to see every pattern of its package is valid.
func CheckAll() error {
	allMu.Lock()
	defer allMu.Unlock()
	for _, r := range all {
		if _, err := regexp.Compile(r.src); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the compiled expression, compiling it on the first call.
func (l *RE) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *RE) String() string                             { return l.src }
func (l *RE) MatchString(s string) bool                  { return l.Get().MatchString(s) }
func (l *RE) Match(b []byte) bool                        { return l.Get().Match(b) }
func (l *RE) Find(b []byte) []byte                       { return l.Get().Find(b) }
func (l *RE) FindIndex(b []byte) []int                   { return l.Get().FindIndex(b) }
func (l *RE) FindSubmatchIndex(b []byte) []int           { return l.Get().FindSubmatchIndex(b) }
func (l *RE) FindString(s string) string                 { return l.Get().FindString(s) }
func (l *RE) FindStringIndex(s string) []int             { return l.Get().FindStringIndex(s) }
func (l *RE) FindStringSubmatch(s string) []string       { return l.Get().FindStringSubmatch(s) }
func (l *RE) FindStringSubmatchIndex(s string) []int     { return l.Get().FindStringSubmatchIndex(s) }
func (l *RE) FindAllString(s string, n int) []string     { return l.Get().FindAllString(s, n) }
func (l *RE) FindAllStringIndex(s string, n int) [][]int { return l.Get().FindAllStringIndex(s, n) }
func (l *RE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Get().FindAllStringSubmatch(s, n)
}
func (l *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Get().FindAllStringSubmatchIndex(s, n)
}
func (l *RE) ReplaceAllString(s, repl string) string { return l.Get().ReplaceAllString(s, repl) }
func (l *RE) ReplaceAllLiteralString(s, repl string) string {
	return l.Get().ReplaceAllLiteralString(s, repl)
}
func (l *RE) ReplaceAllStringFunc(s string, repl func(string) string) string {
	return l.Get().ReplaceAllStringFunc(s, repl)
}
