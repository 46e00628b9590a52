package review

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// fakeFile is one tree entry of the fake repository.
type fakeFile struct{ mode, content string }

func reg(c string) fakeFile     { return fakeFile{"100644", c} }
func symlink(t string) fakeFile { return fakeFile{"120000", t} }

// fakeRepo is an in-memory BlobReader: rev -> path -> entry. It records every path and
// directory it is asked about.
type fakeRepo struct {
	revs  map[string]map[string]fakeFile
	blobs map[string]string
	mu    sync.Mutex
	asked []string
}

func newFakeRepo(revs map[string]map[string]fakeFile) *fakeRepo {
	r := &fakeRepo{revs: revs, blobs: map[string]string{}}
	for _, files := range revs {
		for _, f := range files {
			r.blobs[oidOf(f.content)] = f.content
		}
	}
	return r
}

func oidOf(content string) string {
	h := sha1.Sum([]byte("blob " + fmt.Sprint(len(content)) + "\x00" + content))
	return hex.EncodeToString(h[:])
}

func (r *fakeRepo) ReadBlob(_ context.Context, oid string) ([]byte, error) {
	c, ok := r.blobs[oid]
	if !ok {
		return nil, fmt.Errorf("no blob %q", oid)
	}
	return []byte(c), nil
}

func (r *fakeRepo) Stat(_ context.Context, rev, p string) (string, string, bool, error) {
	r.mu.Lock()
	r.asked = append(r.asked, p)
	r.mu.Unlock()
	f, ok := r.revs[rev][p]
	if !ok {
		return "", "", false, nil
	}
	return f.mode, oidOf(f.content), true, nil
}

func (r *fakeRepo) List(_ context.Context, rev, dir string) ([]string, error) {
	r.mu.Lock()
	r.asked = append(r.asked, dir)
	r.mu.Unlock()
	var out []string
	for p, f := range r.revs[rev] {
		d := p[:max(strings.LastIndexByte(p, '/'), 0)]
		if d == dir && (rev == "" || f.mode != "160000") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// escaped returns the paths the reader was asked about that leave the repository.
func (r *fakeRepo) escaped() []string {
	var bad []string
	for _, p := range r.asked {
		if strings.Contains(p, "..") || strings.HasPrefix(p, "/") {
			bad = append(bad, p)
		}
	}
	return bad
}

// addedUnit is a unit at rev in which each path is a new file (every line added).
func addedUnit(r *fakeRepo, rev string, paths ...string) *diff.Unit {
	u := &diff.Unit{Commit: rev, Blobs: r}
	for _, p := range paths {
		f, ok := r.revs[rev][p]
		if !ok {
			panic("no file " + p)
		}
		lines := strings.Split(strings.TrimSuffix(f.content, "\n"), "\n")
		h := diff.Hunk{NewStart: 1, NewLines: len(lines)}
		for i, l := range lines {
			h.Lines = append(h.Lines, diff.Line{Kind: diff.Add, New: i + 1, Text: l})
		}
		u.Files = append(u.Files, diff.FileDiff{NewPath: p, Status: diff.Added, NewMode: f.mode, NewOID: oidOf(f.content), Hunks: []diff.Hunk{h}})
	}
	return u
}

func limitsCfg(files, bytes, rounds int) policy.Config {
	cfg := policy.Default()
	cfg.Context = policy.ContextLimits{MaxFiles: files, MaxTotalBytes: bytes, MaxExpansionRounds: rounds}
	return cfg
}

// contextPaths returns the context files of m in order, checking each is whole and unmarked.
func contextPaths(t *testing.T, r *fakeRepo, rev string, m material) []string {
	t.Helper()
	var out []string
	for _, f := range m.files {
		if f.role != "context" {
			continue
		}
		out = append(out, f.path)
		want := strings.Split(strings.TrimSuffix(r.revs[rev][f.path].content, "\n"), "\n")
		if r.revs[rev][f.path].mode == "120000" {
			continue // a followed link shows its target's content
		}
		if len(f.lines) != len(want) {
			t.Errorf("%s: %d lines in the material, want %d", f.path, len(f.lines), len(want))
			continue
		}
		for i, l := range f.lines {
			if l.n != i+1 || l.added || l.text != want[i] {
				t.Errorf("%s: line %d = %+v, want %d %q unmarked", f.path, i, l, i+1, want[i])
			}
		}
	}
	return out
}

func checkNoEscape(t *testing.T, r *fakeRepo) {
	t.Helper()
	if bad := r.escaped(); len(bad) > 0 {
		t.Errorf("the reader was asked about paths outside the repository: %q", bad)
	}
}

func goRepo() *fakeRepo {
	return newFakeRepo(map[string]map[string]fakeFile{"": {
		"go.mod":           reg("// the module\nmodule example.com/app // trailing\n\ngo 1.22\n"),
		"cmd/main.go":      reg("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/app/lib\"\n\tother \"example.com/other/x\"\n\t_ \"example.com/app/../../etc\"\n)\n\nfunc main() { fmt.Println(lib.A(), other.X) }\n"),
		"cmd/main_test.go": reg("package main\n"),
		"cmd/helper.go":    reg("package main\n\nfunc helper() {}\n"),
		"lib/a.go":         reg("package lib\n\nimport \"example.com/app/deep\"\n\nfunc A() int { return deep.D }\n"),
		"lib/b.go":         reg("package lib\n\nconst B = 2\n"),
		"lib/a_test.go":    reg("package lib\n"),
		"lib/sub/c.go":     reg("package sub\n"),
		"deep/d.go":        reg("package deep\n\nconst D = 1\n"),
	}})
}

func TestExpandGo(t *testing.T) {
	ctx := context.Background()
	r := goRepo()
	m, limits := buildMaterial(ctx, addedUnit(r, "", "cmd/main.go"), limitsCfg(20, 200000, 1))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go", "lib/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 1 context = %q, want %q", got, want)
	}
	if want := []string{"context.max_expansion_rounds reached (1)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("limits = %q, want %q", limits, want)
	}

	m, limits = buildMaterial(ctx, addedUnit(r, "", "cmd/main.go"), limitsCfg(20, 200000, 2))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go", "lib/b.go", "deep/d.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 2 context = %q, want %q", got, want)
	}
	if len(limits) != 0 {
		t.Errorf("limits = %q, want none", limits)
	}
	if m.files[0].role != "change" || m.files[0].path != "cmd/main.go" {
		t.Errorf("the change must come first: %+v", m.files[0])
	}
	checkNoEscape(t, r)
}

func TestExpandGoNestedModule(t *testing.T) {
	r := newFakeRepo(map[string]map[string]fakeFile{"": {
		"tools/go.mod":          reg("module \"example.com/tools\"\n"),
		"tools/cmd/x.go":        reg("package main\n\nimport \"example.com/tools/internal/y\"\n"),
		"tools/internal/y/y.go": reg("package y\n"),
	}})
	m, _ := buildMaterial(context.Background(), addedUnit(r, "", "tools/cmd/x.go"), limitsCfg(20, 0, 2))
	if got, want := contextPaths(t, r, "", m), []string{"tools/internal/y/y.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("context = %q, want %q", got, want)
	}
}

func TestExpandReadsTheReviewedVersion(t *testing.T) {
	r := goRepo()
	r.revs["c1"] = map[string]fakeFile{}
	for p, f := range r.revs[""] {
		r.revs["c1"][p] = f
	}
	r.revs["c1"]["lib/b.go"] = reg("package lib\n\nconst B = 3 // at c1\n")
	delete(r.revs["c1"], "cmd/main_test.go")
	r = newFakeRepo(r.revs)
	m, _ := buildMaterial(context.Background(), addedUnit(r, "c1", "cmd/main.go"), limitsCfg(20, 0, 1))
	if got, want := contextPaths(t, r, "c1", m), []string{"lib/a.go", "lib/b.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("context = %q, want %q", got, want)
	}
	if !strings.Contains(m.render(), "const B = 3 // at c1") {
		t.Errorf("lib/b.go was not read at c1:\n%s", m.render())
	}
}

func TestExpandPython(t *testing.T) {
	r := newFakeRepo(map[string]map[string]fakeFile{"": {
		"app/main.py": reg("import os, pkg.util as u\nimport localmod\nfrom pkg import models\nfrom .helpers import h  # relative\n" +
			"from . import (\n    sibling,\n    missing,\n)\nfrom .. import up\nfrom ... import way_up\n"),
		"app/__init__.py":    reg("VERSION = 1\n"),
		"app/helpers.py":     reg("def h(): pass\n"),
		"app/sibling.py":     reg("S = 1\n"),
		"app/localmod.py":    reg("L = 1\n"),
		"app/test_main.py":   reg("import main\n"),
		"app/other.py":       reg("O = 1\n"),
		"tests/test_main.py": reg("def test(): pass\n"),
		"pkg/__init__.py":    reg("P = 1\n"),
		"pkg/util.py":        reg("from .models import M\n"),
		"pkg/models.py":      reg("M = 1\n"),
		"up.py":              reg("U = 1\n"),
	}})
	m, limits := buildMaterial(context.Background(), addedUnit(r, "", "app/main.py"), limitsCfg(20, 200000, 1))
	want := []string{
		"app/test_main.py", "tests/test_main.py",
		"app/__init__.py", "app/helpers.py", "app/localmod.py", "app/sibling.py",
		"pkg/__init__.py", "pkg/models.py", "pkg/util.py", "up.py",
	}
	if got := contextPaths(t, r, "", m); !reflect.DeepEqual(got, want) {
		t.Errorf("context =\n %q\nwant\n %q", got, want)
	}
	if len(limits) != 0 {
		t.Errorf("limits = %q, want none", limits)
	}
	checkNoEscape(t, r)
}

func TestExpandJS(t *testing.T) {
	r := newFakeRepo(map[string]map[string]fakeFile{"": {
		"src/app.ts": reg("import { a } from './a'\nimport b from \"./b.js\"\nconst c = require('../lib/c')\n" +
			"export * from './comp'\nimport React from 'react'\nimport o from '../../outside'\nimport cfg from './config.json'\n" +
			"import type {\n  T,\n} from \"./types\"\nconst lazy = import('./lazy')\nimport './side-effect.mjs'\n"),
		"src/a.ts":                    reg("export const a = 1\n"),
		"src/b.ts":                    reg("export default 2\n"),
		"src/b.test.ts":               reg("test\n"),
		"lib/c.js":                    reg("module.exports = 3\n"),
		"src/comp/index.tsx":          reg("export const C = () => null\n"),
		"src/config.json":             reg("{\"x\": 1}\n"),
		"src/types.d.ts":              reg("declare x\n"),
		"src/types/index.ts":          reg("export type T = string\n"),
		"src/lazy.jsx":                reg("export default 4\n"),
		"src/side-effect.mjs":         reg("globalThis.x = 1\n"),
		"src/app.test.ts":             reg("import './app'\n"),
		"src/__tests__/app.spec.tsx":  reg("it()\n"),
		"src/__tests__/other.spec.ts": reg("it()\n"),
	}})
	m, limits := buildMaterial(context.Background(), addedUnit(r, "", "src/app.ts"), limitsCfg(20, 200000, 1))
	want := []string{
		"src/app.test.ts", "src/__tests__/app.spec.tsx",
		"src/config.json", // a schema file named on an added line comes before the imports
		"lib/c.js", "src/a.ts", "src/b.ts", "src/comp/index.tsx", "src/lazy.jsx",
		"src/side-effect.mjs", "src/types/index.ts",
	}
	if got := contextPaths(t, r, "", m); !reflect.DeepEqual(got, want) {
		t.Errorf("context =\n %q\nwant\n %q", got, want)
	}
	if len(limits) != 0 {
		t.Errorf("limits = %q, want none", limits)
	}
	checkNoEscape(t, r)
}

func TestExpandSchemas(t *testing.T) {
	r := newFakeRepo(map[string]map[string]fakeFile{"": {
		"api/handler.rb":      reg("# old line naming \"db/old.sql\"\nload(\"db/schema.sql\")\nq = 'queries.graphql'\nx = `missing.sql`\ny = \"notes.txt\"\nz = \"../../etc/passwd.json\"\nw = \"/etc/x.yaml\"\n"),
		"db/schema.sql":       reg("CREATE TABLE t (id int);\n"),
		"db/old.sql":          reg("CREATE TABLE old (id int);\n"),
		"api/queries.graphql": reg("query { x }\n"),
		"notes.txt":           reg("notes\n"),
	}})
	u := addedUnit(r, "", "api/handler.rb")
	// The first line is context, not added: its reference is not followed.
	u.Files[0].Status = diff.Modified
	u.Files[0].Hunks[0].Lines[0].Kind = diff.Context
	m, limits := buildMaterial(context.Background(), u, limitsCfg(20, 200000, 2))
	if got, want := contextPaths(t, r, "", m), []string{"api/queries.graphql", "db/schema.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("context = %q, want %q", got, want)
	}
	if len(limits) != 0 {
		t.Errorf("limits = %q, want none", limits)
	}
	checkNoEscape(t, r)
}

func TestExpandLimits(t *testing.T) {
	ctx := context.Background()
	r := goRepo()
	u := func() *diff.Unit { return addedUnit(r, "", "cmd/main.go") }

	// max_files: cut, and reported; exactly enough: not reported.
	m, limits := buildMaterial(ctx, u(), limitsCfg(2, 200000, 2))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("max_files 2: context = %q, want %q", got, want)
	}
	if want := []string{"context.max_files reached (2)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("max_files 2: limits = %q, want %q", limits, want)
	}
	m, limits = buildMaterial(ctx, u(), limitsCfg(4, 200000, 2))
	if len(contextPaths(t, r, "", m)) != 4 || len(limits) != 0 {
		t.Errorf("max_files 4: %d context files, limits %q; want 4 and none", len(contextPaths(t, r, "", m)), limits)
	}

	// max_total_bytes: the size with everything is the exact limit that still fits.
	full, _ := buildMaterial(ctx, u(), limitsCfg(20, 0, 2))
	m, limits = buildMaterial(ctx, u(), limitsCfg(20, full.size, 2))
	if len(limits) != 0 || m.render() != full.render() {
		t.Errorf("max_total_bytes %d (exact): limits %q; material differs: %v", full.size, limits, m.render() != full.render())
	}
	m, limits = buildMaterial(ctx, u(), limitsCfg(20, full.size-1, 2))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go", "lib/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("max_total_bytes: context = %q, want %q", got, want)
	}
	if want := []string{fmt.Sprintf("context.max_total_bytes reached (%d)", full.size-1)}; !reflect.DeepEqual(limits, want) {
		t.Errorf("max_total_bytes: limits = %q, want %q", limits, want)
	}
	if m.size > full.size-1 {
		t.Errorf("material size %d over the limit %d", m.size, full.size-1)
	}

	// max_expansion_rounds: reported only when a further round would have added something.
	_, limits = buildMaterial(ctx, u(), limitsCfg(20, 0, 1))
	if want := []string{"context.max_expansion_rounds reached (1)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("rounds 1: limits = %q, want %q", limits, want)
	}
	_, limits = buildMaterial(ctx, u(), limitsCfg(20, 0, 2))
	if len(limits) != 0 {
		t.Errorf("rounds 2: limits = %q, want none (deep/d.go imports nothing)", limits)
	}

	// Zero files or zero rounds: no expansion, and that is configuration, not a cut.
	for _, cfg := range []policy.Config{limitsCfg(0, 0, 2), limitsCfg(20, 0, 0)} {
		m, limits := buildMaterial(ctx, u(), cfg)
		if got := contextPaths(t, r, "", m); len(got) != 0 || len(limits) != 0 {
			t.Errorf("%+v: context %q, limits %q; want none", cfg.Context, got, limits)
		}
	}

	// A nil reader: nothing to expand.
	nu := u()
	nu.Blobs = nil
	if m, limits := buildMaterial(ctx, nu, limitsCfg(20, 0, 2)); len(contextPaths(t, r, "", m)) != 0 || len(limits) != 0 {
		t.Errorf("nil reader: limits %q", limits)
	}
}

func symlinkRepo() *fakeRepo {
	return newFakeRepo(map[string]map[string]fakeFile{"": {
		"go.mod":         reg("module example.com/app\n"),
		"main.go":        reg("package main\n\nimport \"example.com/app/lib\"\n"),
		"lib/a.go":       reg("package lib\n"),
		"lib/link.go":    symlink("../shared/real.go"),
		"lib/chain.go":   symlink("link.go"),
		"lib/evil.go":    symlink("../../etc/passwd.go"),
		"lib/abs.go":     symlink("/etc/passwd"),
		"lib/loop.go":    symlink("loop.go"),
		"lib/mod.go":     {"160000", "0123456789012345678901234567890123456789"},
		"lib/bin.go":     reg("package lib\x00\x01"),
		"lib/empty.go":   reg(""),
		"shared/real.go": reg("package lib\n\nconst Real = 1\n"),
	}})
}

func TestExpandSymlinks(t *testing.T) {
	ctx := context.Background()
	r := symlinkRepo()
	m, _ := buildMaterial(ctx, addedUnit(r, "", "main.go"), limitsCfg(20, 0, 1))
	if got, want := contextPaths(t, r, "", m), []string{"lib/a.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("default: context = %q, want %q (symlinks, submodules, binary and empty files skipped)", got, want)
	}
	for _, p := range r.asked {
		if p == "shared/real.go" {
			t.Errorf("a symlink was followed by default")
		}
	}
	checkNoEscape(t, r)

	r = symlinkRepo()
	cfg := limitsCfg(20, 0, 1)
	cfg.FollowSymlinks = true
	m, _ = buildMaterial(ctx, addedUnit(r, "", "main.go"), cfg)
	if got, want := contextPaths(t, r, "", m), []string{"lib/a.go", "lib/chain.go", "lib/link.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("follow: context = %q, want %q", got, want)
	}
	for _, f := range m.files {
		if (f.path == "lib/link.go" || f.path == "lib/chain.go") && (len(f.lines) != 3 || f.lines[2].text != "const Real = 1") {
			t.Errorf("%s does not show its target: %+v", f.path, f.lines)
		}
	}
	checkNoEscape(t, r)
}

func TestExpandNeverEscapes(t *testing.T) {
	r := newFakeRepo(map[string]map[string]fakeFile{"": {
		"go.mod":   reg("module example.com/app\n"),
		"main.go":  reg("package main\n\nimport (\n\t_ \"example.com/app/../../etc\"\n\t_ \"example.com/app/./lib\"\n)\n\nvar s = \"../../../etc/passwd.json\"\n"),
		"x.py":     reg("from .. import secret\nfrom ..pkg import y\nimport ...z\n"),
		"x.js":     reg("import a from '../../etc/passwd'\nrequire('..')\nimport b from '/etc/passwd'\nimport c from './../../x'\n"),
		"lib/l.go": reg("package lib\n"),
	}})
	cfg := limitsCfg(20, 0, 3)
	cfg.FollowSymlinks = true
	m, limits := buildMaterial(context.Background(), addedUnit(r, "", "main.go", "x.py", "x.js"), cfg)
	if got := contextPaths(t, r, "", m); len(got) != 0 || len(limits) != 0 {
		t.Errorf("context %q, limits %q; want none", got, limits)
	}
	checkNoEscape(t, r)
}

func TestExpandDeterministic(t *testing.T) {
	build := func() *fakeRepo {
		r := goRepo()
		for p, f := range map[string]fakeFile{
			"web/app.ts":      reg("import x from './x'\nimport y from './y'\nconst s = 'schema.json'\n"),
			"web/x.ts":        reg("export const x = 1\n"),
			"web/y.tsx":       reg("import x from './x'\n"),
			"web/app.spec.ts": reg("x\n"),
			"schema.json":     reg("{}\n"),
			"py/m.py":         reg("import pkg.a\nfrom pkg import b\n"),
			"pkg/a.py":        reg("A = 1\n"),
			"pkg/b.py":        reg("B = 1\n"),
		} {
			r.revs[""][p] = f
		}
		return newFakeRepo(r.revs)
	}
	var renders []string
	for i := 0; i < 5; i++ {
		r := build()
		m, limits := buildMaterial(context.Background(), addedUnit(r, "", "cmd/main.go", "py/m.py", "web/app.ts"), limitsCfg(8, 0, 2))
		renders = append(renders, m.render()+strings.Join(limits, "\n"))
	}
	for i := 1; i < len(renders); i++ {
		if renders[i] != renders[0] {
			t.Fatalf("run %d differs:\n%s\n--- first ---\n%s", i, renders[i], renders[0])
		}
	}
	if !strings.Contains(renders[0], "context.max_files reached (8)") {
		t.Errorf("want the max_files limit in:\n%s", renders[0])
	}
}

func TestExpandRenderedContextParsesBack(t *testing.T) {
	r := goRepo()
	m, _ := buildMaterial(context.Background(), addedUnit(r, "", "cmd/main.go"), limitsCfg(20, 0, 2))
	back := parseMaterial(m.render())
	lines := back["deep/d.go"]
	if len(lines) != 3 || lines[0].n != 1 || lines[2].text != "const D = 1" || lines[2].added {
		t.Errorf("deep/d.go parsed back as %+v", lines)
	}
	if !strings.Contains(m.render(), `=== FILE "lib/a.go" role=context ===`) {
		t.Errorf("no context header:\n%s", m.render())
	}
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"module example.com/a\n":                  "example.com/a",
		"// c\nmodule   \"example.com/b\" // x\n": "example.com/b",
		"modules x\n":                             "",
		"go 1.22\n":                               "",
		"module\n":                                "",
	} {
		if got := modulePath(in); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// A change over max_total_bytes is cut, deletion-only hunks included: they count against the
// limit and, rendered last, go first.
func TestTruncateCountsDeletions(t *testing.T) {
	big := strings.Repeat("x", 100)
	var del []diff.Line
	for i := 1; i <= 50; i++ {
		del = append(del, diff.Line{Kind: diff.Del, Old: i, Text: big})
	}
	var lines []matLine
	for i := 1; i <= 5; i++ {
		lines = append(lines, matLine{n: i, added: true, text: big})
	}
	for _, limit := range []int{300, 1000, 3000} {
		m := material{files: []matFile{{path: "a.go", role: "change", lines: lines, deleted: del}, {path: "b.go", role: "change", lines: lines}}}
		m.truncate(limit)
		total := 0
		for _, f := range m.files {
			if len(f.lines)+len(f.deleted) > 0 { // what renders
				total += f.bytes()
			}
		}
		if total > limit || m.size != total {
			t.Errorf("limit %d: material is %d bytes (size %d)", limit, total, m.size)
		}
		if limit >= 3000 && (len(m.files[0].lines) != 5 || len(m.files[1].lines) != 5 || len(m.files[0].deleted) == 0) {
			t.Errorf("limit %d: new lines must be kept before deletions: %d, %d, %d", limit, len(m.files[0].lines), len(m.files[1].lines), len(m.files[0].deleted))
		}
	}
}
