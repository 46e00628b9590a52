package bundle

import (
	"path"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

var jsImportRE = lazyre.New(`(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(?:"([^"\n]+)"|'([^'\n]+)'|` + "`([^`$\\n]+)`" + `)`)

func (e *expander) jsTests(p string) []string {
	name := path.Base(p)
	base := strings.TrimSuffix(name, path.Ext(name))
	if strings.Contains(base, ".test") || strings.Contains(base, ".spec") || strings.Contains(p, "__tests__/") {
		return nil
	}
	dir := dirOf(p)
	tests := dir + "/__tests__"
	if dir == "" {
		tests = "__tests__"
	}
	var out []string
	for _, d := range []string{dir, tests} {
		for _, f := range e.listSorted(d) {
			fn := path.Base(f)
			for _, x := range jsExts {
				if fn == base+".test"+x || fn == base+".spec"+x || (d == tests && fn == base+x) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// jsImports resolves relative import, export-from and require specifiers.
func (e *expander) jsImports(s expansionSource) []string {
	dir := dirOf(s.path)
	var out []string
	for _, m := range jsImportRE.FindAllStringSubmatch(s.content, -1) {
		spec := m[1] + m[2] + m[3]
		if i := strings.IndexAny(spec, "?#"); i >= 0 {
			spec = spec[:i]
		}
		if spec != "." && spec != ".." && !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			continue // a package, not a file of this repository
		}
		target, ok := join(dir, spec)
		if !ok {
			continue // outside the repository: never looked up
		}
		if p := e.jsResolve(target); p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return dedup(out)
}

// jsResolve finds the file a relative specifier names: as written (a script or a schema
// file), with an extension added, a .js specifier's TypeScript source, or an index file.
func (e *expander) jsResolve(target string) string {
	var tries []string
	if target != "" {
		ext := path.Ext(target)
		isJS := false
		for _, x := range jsExts {
			isJS = isJS || ext == x
		}
		if isJS || schemaExts[ext] {
			tries = append(tries, target)
		}
		for _, x := range jsExts {
			tries = append(tries, target+x)
		}
		switch ext {
		case ".js", ".jsx", ".mjs", ".cjs":
			stem := strings.TrimSuffix(target, ext)
			tries = append(tries, stem+".ts", stem+".tsx")
		}
	}
	for _, x := range jsExts {
		if target == "" {
			tries = append(tries, "index"+x)
		} else {
			tries = append(tries, target+"/index"+x)
		}
	}
	for _, t := range tries {
		if e.exists(t) {
			return t
		}
	}
	return ""
}
