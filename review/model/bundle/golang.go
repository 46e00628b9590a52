package bundle

import (
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
)

func (e *expander) goTests(p string) []string {
	if strings.HasSuffix(p, "_test.go") {
		return nil
	}
	t := strings.TrimSuffix(p, ".go") + "_test.go"
	if e.exists(t) {
		return []string{t}
	}
	return nil
}

// goImports lists the non-test .go files of every imported package of the file's own module.
func (e *expander) goImports(s expansionSource) []string {
	mod := e.goModuleOf(dirOf(s.path))
	if mod.path == "" {
		return nil
	}
	f, _ := parser.ParseFile(token.NewFileSet(), s.path, s.content, parser.ImportsOnly)
	if f == nil {
		return nil
	}
	var dirs []string
	for _, imp := range f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		var rest string
		switch {
		case ip == mod.path:
		case strings.HasPrefix(ip, mod.path+"/"):
			rest = strings.TrimPrefix(ip, mod.path+"/")
			if !policy.CleanRepoPath(rest) {
				continue
			}
		default:
			continue
		}
		dir := mod.dir
		if rest != "" {
			if dir == "" {
				dir = rest
			} else {
				dir += "/" + rest
			}
		}
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	var out []string
	for _, d := range dirs {
		for _, p := range e.listSorted(d) {
			if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				out = append(out, p)
			}
		}
	}
	return out
}

// goModuleOf finds the nearest go.mod at or above dir and reads its module path.
func (e *expander) goModuleOf(dir string) goModule {
	if m, ok := e.mods[dir]; ok {
		return m
	}
	var m goModule
	gomod := "go.mod"
	if dir != "" {
		gomod = dir + "/go.mod"
	}
	if e.exists(gomod) {
		if text, ok := e.load(gomod); ok {
			m = goModule{dir: dir, path: modulePath(text)}
		}
	} else if dir != "" {
		m = e.goModuleOf(dirOf(dir))
	}
	e.mods[dir] = m
	return m
}

// modulePath reads the module directive of a go.mod file.
func modulePath(gomod string) string {
	for _, line := range strings.Split(gomod, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if u, err := strconv.Unquote(rest); err == nil {
			rest = u
		}
		if rest == "" || strings.ContainsAny(rest, " \t\"'`") {
			return ""
		}
		return rest
	}
	return ""
}
