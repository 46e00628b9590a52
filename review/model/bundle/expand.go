package bundle

import (
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Step 4 of the pipeline: deterministic expansion outward from the change. Round 1 starts from
// the changed files, round n+1 from the files round n added. Each file contributes, in this
// order: its tests (changed files only), the schema files named by string literals on its added
// lines (changed files only), then the files it imports (Go packages of its own module, Python
// modules, relative JS/TS imports). Every file is read through the unit's BlobReader at the
// unit's version, never from the file system; a path is looked up only when it is a clean
// repository path (no "..", not absolute), so nothing outside the repository is ever named.

// maxSymlinkHops bounds a chain of symlinks followed with repository.follow_symlinks.
const maxSymlinkHops = 8

var (
	// jsExts: the extensions a JS/TS import specifier may leave out, in resolution order.
	jsExts     = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"}
	schemaExts = map[string]bool{
		".sql": true, ".proto": true, ".graphql": true, ".gql": true, ".json": true,
		".yaml": true, ".yml": true, ".xsd": true, ".avsc": true,
	}
)

// expansionSource is a file whose references expansion follows.
type expansionSource struct {
	path    string
	content string   // the whole file at the reviewed version ("" when unknown)
	added   []string // added lines (changed files only)
	changed bool
}

type loaded struct {
	text string
	ok   bool
}

// expander reads the repository at one version, caching lookups.
type expander struct {
	ctx    context.Context
	blobs  diff.BlobReader
	rev    string
	follow bool
	lists  map[string]map[string]bool // dir -> the files directly in it
	loads  map[string]loaded
	mods   map[string]goModule // dir -> the module of Go files in it
}

type goModule struct {
	dir, path string // the module root ("" for the repository root) and its module path
}

// expand adds context files to m under cfg.Context and returns the limits that cut it short.
func expand(ctx context.Context, u *diff.Unit, cfg policy.Config, m *Material) []string {
	lim := cfg.Context
	if u == nil || u.Blobs == nil || lim.MaxFiles <= 0 || lim.MaxExpansionRounds <= 0 {
		return nil
	}
	e := &expander{
		ctx: ctx, blobs: u.Blobs, rev: u.Commit, follow: cfg.FollowSymlinks,
		lists: map[string]map[string]bool{}, loads: map[string]loaded{}, mods: map[string]goModule{},
	}
	have := map[string]bool{}
	for _, f := range m.Files {
		have[f.Path] = true
	}
	frontier := e.seeds(u)
	added := 0
	for round := 1; len(frontier) > 0; round++ {
		if ctx.Err() != nil {
			return nil
		}
		var cands []string
		inRound := map[string]bool{}
		for _, s := range frontier {
			for _, c := range e.candidates(s) {
				if !have[c] && !inRound[c] {
					inRound[c] = true
					cands = append(cands, c)
				}
			}
		}
		if round > lim.MaxExpansionRounds {
			for _, c := range cands {
				if _, ok := e.load(c); ok {
					return []string{fmt.Sprintf("context.max_expansion_rounds reached (%d)", lim.MaxExpansionRounds)}
				}
			}
			return nil
		}
		var next []expansionSource
		for _, c := range cands {
			if ctx.Err() != nil {
				return nil
			}
			text, ok := e.load(c)
			if !ok {
				have[c] = true
				continue
			}
			mf := contextFile(c, text)
			if added >= lim.MaxFiles {
				return []string{fmt.Sprintf("context.max_files reached (%d)", lim.MaxFiles)}
			}
			if lim.MaxTotalBytes > 0 && m.size+mf.bytes() > lim.MaxTotalBytes {
				return []string{fmt.Sprintf("context.max_total_bytes reached (%d)", lim.MaxTotalBytes)}
			}
			m.Files = append(m.Files, mf)
			m.size += mf.bytes()
			have[c] = true
			added++
			next = append(next, expansionSource{path: c, content: text})
		}
		sort.Slice(next, func(i, j int) bool { return next[i].path < next[j].path })
		frontier = next
	}
	return nil
}

// contextFile is a whole file, numbered from 1, no line marked added.
func contextFile(p, text string) File {
	mf := File{Path: p, Role: "context"}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		mf.Lines = append(mf.Lines, Line{N: i + 1, Text: l})
	}
	return mf
}

// seeds are the changed files expansion starts from, sorted by path.
func (e *expander) seeds(u *diff.Unit) []expansionSource {
	var out []expansionSource
	for i := range u.Files {
		f := &u.Files[i]
		if f.Status == diff.Deleted || f.Status == diff.ModeOnly || f.Binary || f.NewPath == "" ||
			f.NewMode == "120000" || f.NewMode == "160000" || !policy.CleanRepoPath(f.NewPath) {
			continue
		}
		s := expansionSource{path: f.NewPath, changed: true}
		for _, l := range f.AddedLines() {
			s.added = append(s.added, l.Text)
		}
		if f.NewOID != "" && strings.Trim(f.NewOID, "0") != "" {
			if data, err := e.blobs.ReadBlob(e.ctx, f.NewOID); err == nil && !bytes.ContainsRune(data, 0) {
				s.content = string(data)
			}
		}
		if s.content == "" {
			// Only the diff is known: its new-side lines still name imports.
			var b strings.Builder
			for _, h := range f.Hunks {
				for _, l := range h.Lines {
					if l.Kind != diff.Del {
						b.WriteString(l.Text)
						b.WriteByte('\n')
					}
				}
			}
			s.content = b.String()
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// candidates lists the files s leads to, in a fixed order: tests, schemas, imports.
func (e *expander) candidates(s expansionSource) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ps ...string) {
		for _, p := range ps {
			if p != s.path && !seen[p] && policy.CleanRepoPath(p) {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	kind := lang.KindOf(s.path)
	if s.changed {
		switch kind {
		case lang.Go:
			add(e.goTests(s.path)...)
		case lang.Python:
			add(e.pyTests(s.path)...)
		case lang.JS:
			add(e.jsTests(s.path)...)
		}
		add(e.schemas(s)...)
	}
	switch kind {
	case lang.Go:
		add(e.goImports(s)...)
	case lang.Python:
		add(e.pyImports(s)...)
	case lang.JS:
		add(e.jsImports(s)...)
	}
	return out
}

// --- reading through the repository boundary ---

// dirOf is the directory of a repository path ("" for the root).
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// join joins a directory and a relative reference and cleans the result; ok is false when it
// would leave the repository (or is not a path at all).
func join(dir, rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return "", false
	}
	p := path.Clean(path.Join(dir, rel))
	if p == "." {
		return "", true // the root itself
	}
	return p, policy.CleanRepoPath(p)
}

// list returns the set of files directly in dir at the reviewed version.
func (e *expander) list(dir string) map[string]bool {
	if l, ok := e.lists[dir]; ok {
		return l
	}
	set := map[string]bool{}
	if dir == "" || policy.CleanRepoPath(dir) {
		if paths, err := e.blobs.List(e.ctx, e.rev, dir); err == nil {
			for _, p := range paths {
				if policy.CleanRepoPath(p) && dirOf(p) == dir {
					set[p] = true
				}
			}
		}
	}
	e.lists[dir] = set
	return set
}

// listSorted returns the files directly in dir, sorted.
func (e *expander) listSorted(dir string) []string {
	var out []string
	for p := range e.list(dir) {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// exists reports whether p is a file (of any mode) at the reviewed version.
func (e *expander) exists(p string) bool {
	return policy.CleanRepoPath(p) && e.list(dirOf(p))[p]
}

// load reads a text file at the reviewed version: a regular file, or with follow a symlink to
// one inside the repository. Submodules, directories, binary and empty files are not loaded.
func (e *expander) load(p string) (string, bool) {
	if l, ok := e.loads[p]; ok {
		return l.text, l.ok
	}
	text, ok := e.read(p)
	e.loads[p] = loaded{text, ok}
	return text, ok
}

func (e *expander) read(p string) (string, bool) {
	cur := p
	for hop := 0; hop <= maxSymlinkHops; hop++ {
		if !policy.CleanRepoPath(cur) {
			return "", false
		}
		mode, oid, ok, err := e.blobs.Stat(e.ctx, e.rev, cur)
		if err != nil || !ok {
			return "", false
		}
		switch mode {
		case "100644", "100755":
			data, err := e.blobs.ReadBlob(e.ctx, oid)
			if err != nil || len(data) == 0 || bytes.ContainsRune(data, 0) {
				return "", false
			}
			return string(data), true
		case "120000":
			if !e.follow {
				return "", false
			}
			target, err := e.blobs.ReadBlob(e.ctx, oid)
			if err != nil {
				return "", false
			}
			next, ok := join(dirOf(cur), string(target))
			if !ok || next == "" {
				return "", false
			}
			cur = next
		default: // 160000 (submodule), 040000 (directory), anything else
			return "", false
		}
	}
	return "", false
}

// --- schema files ---

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

// --- Go ---

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

// --- Python ---

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
			for _, part := range strings.Split(m[1], ",") {
				name := strings.Fields(part)
				if len(name) == 0 || !pyNameRE.MatchString(name[0]) {
					continue
				}
				out = append(out, e.pyAbsolute(dir, name[0])...)
			}
			continue
		}
		m := pyFromRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		dots, mod := len(m[1]), m[2]
		if mod != "" && !pyNameRE.MatchString(mod) {
			continue
		}
		var names []string
		for _, part := range strings.Split(strings.Trim(strings.TrimSpace(m[3]), "()\\"), ",") {
			if f := strings.Fields(strings.Trim(part, "() \\")); len(f) > 0 && pyNameRE.MatchString(f[0]) && !strings.Contains(f[0], ".") {
				names = append(names, f[0])
			}
		}
		if dots == 0 {
			if mod == "" {
				continue
			}
			out = append(out, e.pyAbsolute(dir, mod)...)
			for _, n := range names {
				out = append(out, e.pyAbsolute(dir, mod+"."+n)...)
			}
			continue
		}
		// Relative: one dot is the file's package, each further dot one level up.
		base := dir
		ok := true
		for i := 1; i < dots; i++ {
			if base == "" {
				ok = false // above the repository root: never looked up
				break
			}
			base = dirOf(base)
		}
		if !ok {
			continue
		}
		if mod != "" {
			out = append(out, e.pyModule(base, mod)...)
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
	}
	sort.Strings(out)
	return dedup(out)
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

// --- JavaScript / TypeScript ---

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

func dedup(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
