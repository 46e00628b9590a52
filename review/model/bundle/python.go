package bundle

import (
	"path"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

var (
	pyImportRE = lazyre.New(`^\s*import\s+(.+)$`)
	pyFromRE   = lazyre.New(`^\s*from\s+(\.*)\s*([A-Za-z_][\w.]*)?\s+import\s+(.+)$`)
	pyNameRE   = lazyre.New(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)
)

func (e *expander) pyTests(p string) []string {
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if base == "__init__" || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test") || base == "conftest" {
		return nil
	}
	dir := dirOf(p)
	in := func(d, name string) string {
		if d == "" {
			return name
		}
		return d + "/" + name
	}
	var out []string
	for _, t := range []string{
		in(dir, "test_"+base+".py"), in(dir, base+"_test.py"),
		in(in(dir, "tests"), "test_"+base+".py"), in("tests", "test_"+base+".py"),
	} {
		if e.exists(t) {
			out = append(out, t)
		}
	}
	return out
}

// pyLogicalLines joins a parenthesised "from x import (...)" spread over several lines.
func pyLogicalLines(text string) []string {
	var out []string
	var cur strings.Builder
	open := false
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if open {
			cur.WriteString(" ")
			cur.WriteString(line)
			if strings.Contains(line, ")") {
				open = false
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		if pyFromRE.MatchString(line) && strings.Contains(line, "(") && !strings.Contains(line, ")") {
			open = true
			cur.WriteString(line)
			continue
		}
		out = append(out, strings.Split(line, ";")...)
	}
	if open {
		out = append(out, cur.String())
	}
	return out
}

// pyImports resolves absolute imports against the repository root or the file's directory,
// and relative ones against the file's package.
func (e *expander) pyImports(s expansionSource) []string {
	dir := dirOf(s.path)
	var out []string
	for _, line := range pyLogicalLines(s.content) {
		if m := pyImportRE.FindStringSubmatch(line); m != nil {
			out = append(out, e.pyImport(dir, m[1])...)
		} else if m := pyFromRE.FindStringSubmatch(line); m != nil {
			out = append(out, e.pyFrom(dir, len(m[1]), m[2], m[3])...)
		}
	}
	sort.Strings(out)
	return dedup(out)
}

// pyImport resolves "import a.b, c as d".
func (e *expander) pyImport(dir, list string) []string {
	var out []string
	for _, part := range strings.Split(list, ",") {
		name := strings.Fields(part)
		if len(name) == 0 || !pyNameRE.MatchString(name[0]) {
			continue
		}
		out = append(out, e.pyAbsolute(dir, name[0])...)
	}
	return out
}

// pyFrom resolves "from <dots><mod> import <list>": the module, and each name as a submodule.
func (e *expander) pyFrom(dir string, dots int, mod, list string) []string {
	if mod != "" && !pyNameRE.MatchString(mod) {
		return nil
	}
	names := pyNames(list)
	if dots == 0 {
		if mod == "" {
			return nil
		}
		out := e.pyAbsolute(dir, mod)
		for _, n := range names {
			out = append(out, e.pyAbsolute(dir, mod+"."+n)...)
		}
		return out
	}
	base, ok := pyPackage(dir, dots)
	if !ok {
		return nil
	}
	var out []string
	if mod != "" {
		out = e.pyModule(base, mod)
	} else if init, ok := join(base, "__init__.py"); ok && e.exists(init) {
		out = append(out, init)
	}
	for _, n := range names {
		full := n
		if mod != "" {
			full = mod + "." + n
		}
		out = append(out, e.pyModule(base, full)...)
	}
	return out
}

// pyNames are the plain names of an import list ("a, b as c" or a parenthesised one).
func pyNames(list string) []string {
	var names []string
	for _, part := range strings.Split(strings.Trim(strings.TrimSpace(list), "()\\"), ",") {
		if f := strings.Fields(strings.Trim(part, "() \\")); len(f) > 0 && pyNameRE.MatchString(f[0]) && !strings.Contains(f[0], ".") {
			names = append(names, f[0])
		}
	}
	return names
}

// pyPackage is the directory a relative import of dots dots starts from: one dot is the file's
// package, each further dot one level up; ok is false above the repository root (never looked
// up).
func pyPackage(dir string, dots int) (string, bool) {
	base := dir
	for i := 1; i < dots; i++ {
		if base == "" {
			return "", false
		}
		base = dirOf(base)
	}
	return base, true
}

// pyAbsolute resolves a dotted module name against the repository root, then the file's dir.
func (e *expander) pyAbsolute(dir, name string) []string {
	if r := e.pyModule("", name); len(r) > 0 {
		return r
	}
	if dir != "" {
		return e.pyModule(dir, name)
	}
	return nil
}

// pyModule resolves a dotted module name under base to base/a/b.py or base/a/b/__init__.py.
func (e *expander) pyModule(base, name string) []string {
	rel := strings.ReplaceAll(name, ".", "/")
	for _, c := range []string{rel + ".py", rel + "/__init__.py"} {
		if p, ok := join(base, c); ok && p != "" && e.exists(p) {
			return []string{p}
		}
	}
	return nil
}
