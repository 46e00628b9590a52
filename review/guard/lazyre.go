package guard

import (
	"regexp"
	"sync"
)

// lazyRE compiles its expression on first use: most calls need few of the guard's expressions,
// and a hook process pays for every compile at start.
type lazyRE struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

// allLazy lists every lazy expression, so a test can compile them all.
var allLazy []*lazyRE

func lazy(src string) *lazyRE {
	l := &lazyRE{src: src}
	allLazy = append(allLazy, l)
	return l
}

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRE) MatchString(s string) bool              { return l.get().MatchString(s) }
func (l *lazyRE) FindString(s string) string             { return l.get().FindString(s) }
func (l *lazyRE) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }
func (l *lazyRE) ReplaceAllString(s, repl string) string { return l.get().ReplaceAllString(s, repl) }
func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
