package policy

import (
	"fmt"
	"regexp"
	"strings"
)

// Globs is a compiled list of gitignore-style path patterns (review.exclude). The last pattern
// that matches a path decides: a plain pattern excludes it, a "!" pattern takes it back.
//
//   - "*" matches within one path segment, "?" one character of it, "[a-z]" / "[!a-z]" a class;
//     "\" quotes the next character.
//   - "**/" at the start, "/**/" inside and "/**" at the end cross directories; "**" elsewhere
//     is "*".
//   - A pattern with no "/" but a trailing one matches a file or directory name at any depth;
//     a leading or inner "/" anchors it at the repository root.
//   - A trailing "/" matches directories only; a directory that matches excludes everything
//     under it.
//
// Unlike git, a "!" pattern can take back a file under an excluded directory ("vendor/" then
// "!vendor/patched.go"): tollgate matches whole paths and never walks the tree.
type Globs struct {
	globs []glob
}

type glob struct {
	src     string // the pattern as written
	negate  bool
	dirOnly bool
	re      *regexp.Regexp
}

// CompileGlobs compiles patterns in order; an empty or malformed pattern is an error naming it.
func CompileGlobs(patterns []string) (*Globs, error) {
	g := &Globs{}
	for _, p := range patterns {
		c, err := compileGlob(p)
		if err != nil {
			return nil, err
		}
		g.globs = append(g.globs, c)
	}
	return g, nil
}

// Patterns returns the patterns as written.
func (g *Globs) Patterns() []string {
	if g == nil {
		return nil
	}
	out := make([]string, len(g.globs))
	for i, c := range g.globs {
		out[i] = c.src
	}
	return out
}

// Match reports whether path (repository-relative, "/"-separated) is excluded, and the pattern
// that decided it ("" when none matched).
func (g *Globs) Match(path string) (string, bool) {
	if g == nil || len(g.globs) == 0 {
		return "", false
	}
	path = strings.TrimPrefix(path, "/")
	decided, excluded := "", false
	for _, c := range g.globs {
		if c.matches(path) {
			decided, excluded = c.src, !c.negate
		}
	}
	if !excluded {
		return "", false
	}
	return decided, true
}

// matches tries the path itself (unless the pattern is for directories only) and each
// directory above it.
func (c glob) matches(path string) bool {
	if !c.dirOnly && c.re.MatchString(path) {
		return true
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && c.re.MatchString(path[:i]) {
			return true
		}
	}
	return false
}

func compileGlob(p string) (glob, error) {
	c := glob{src: p}
	body := p
	if strings.HasPrefix(body, "!") {
		c.negate, body = true, body[1:]
	}
	if strings.HasSuffix(body, "/") && !strings.HasSuffix(body, `\/`) {
		c.dirOnly, body = true, strings.TrimRight(body, "/")
	}
	if strings.TrimSpace(body) == "" {
		return glob{}, fmt.Errorf("%q matches nothing (want a pattern such as \"vendor/\" or \"**/*.min.js\")", p)
	}
	anchored := strings.Contains(body, "/")
	body = strings.TrimPrefix(body, "/")
	expr, err := globRegexp(body)
	if err != nil {
		return glob{}, fmt.Errorf("%q: %v", p, err)
	}
	if !anchored && !strings.HasPrefix(expr, "(?:.*/)?") {
		expr = "(?:.*/)?" + expr
	}
	re, err := regexp.Compile("^" + expr + "$")
	if err != nil {
		return glob{}, fmt.Errorf("%q: %v", p, err)
	}
	c.re = re
	return c, nil
}

// globRegexp translates one pattern body (no "!", no trailing "/") to a regular expression.
func globRegexp(body string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(body); {
		switch ch := body[i]; {
		case strings.HasPrefix(body[i:], "**"):
			n := i + 2
			atStart := i == 0 || body[i-1] == '/'
			switch {
			case atStart && strings.HasPrefix(body[n:], "/"):
				b.WriteString("(?:.*/)?") // "**/": zero or more directories
				n++
			case atStart && n == len(body):
				b.WriteString(".*") // "/**" (or "**"): everything below
			default:
				b.WriteString("[^/]*")
			}
			i = n
		case ch == '*':
			b.WriteString("[^/]*")
			i++
		case ch == '?':
			b.WriteString("[^/]")
			i++
		case ch == '[':
			end, class, err := globClass(body, i)
			if err != nil {
				return "", err
			}
			b.WriteString(class)
			i = end
		case ch == '\\':
			if i+1 >= len(body) {
				return "", fmt.Errorf("a trailing backslash quotes nothing")
			}
			b.WriteString(regexp.QuoteMeta(body[i+1 : i+2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(body[i : i+1]))
			i++
		}
	}
	return b.String(), nil
}

// globClass translates the class starting at body[i] ("[") and returns the index after it.
func globClass(body string, i int) (int, string, error) {
	j := i + 1
	var b strings.Builder
	b.WriteByte('[')
	if j < len(body) && (body[j] == '!' || body[j] == '^') {
		b.WriteByte('^')
		j++
	}
	first := true
	for ; j < len(body); j++ {
		ch := body[j]
		if ch == ']' && !first {
			b.WriteByte(']')
			if b.String() == "[]" || b.String() == "[^]" {
				break
			}
			// A negated class never matches the separator either.
			s := b.String()
			if strings.HasPrefix(s, "[^") {
				return j + 1, "[^/" + s[2:], nil
			}
			return j + 1, s, nil
		}
		first = false
		switch ch {
		case '\\':
			if j+1 < len(body) {
				j++
				b.WriteString(regexp.QuoteMeta(body[j : j+1]))
				continue
			}
		case '/':
			continue // a class never matches the separator
		case '[', '&', '~':
			b.WriteByte('\\')
		}
		b.WriteByte(ch)
	}
	return 0, "", fmt.Errorf("an unclosed [ class")
}
