package bundle

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func limitsCfg(files, bytes, rounds int) policy.Config {
	cfg := policy.Default()
	cfg.Context = policy.ContextLimits{MaxFiles: files, MaxTotalBytes: bytes, MaxExpansionRounds: rounds}
	return cfg
}

// contextPaths returns the context files of m in order, checking each is whole and unmarked.
func contextPaths(t *testing.T, r *difftest.Repo, rev string, m Material) []string {
	t.Helper()
	var out []string
	for _, f := range m.Files {
		if f.Role != "context" {
			continue
		}
		out = append(out, f.Path)
		want := strings.Split(strings.TrimSuffix(r.Revs[rev][f.Path].Content, "\n"), "\n")
		if r.Revs[rev][f.Path].Mode == "120000" {
			continue // a followed link shows its target's content
		}
		if len(f.Lines) != len(want) {
			t.Errorf("%s: %d lines in the material, want %d", f.Path, len(f.Lines), len(want))
			continue
		}
		for i, l := range f.Lines {
			if l.N != i+1 || l.Added || l.Text != want[i] {
				t.Errorf("%s: line %d = %+v, want %d %q unmarked", f.Path, i, l, i+1, want[i])
			}
		}
	}
	return out
}

func checkNoEscape(t *testing.T, r *difftest.Repo) {
	t.Helper()
	if bad := r.Escaped(); len(bad) > 0 {
		t.Errorf("the reader was asked about paths outside the repository: %q", bad)
	}
}

func goRepo() *difftest.Repo {
	return difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"go.mod":           difftest.Reg("// the module\nmodule example.com/app // trailing\n\ngo 1.22\n"),
		"cmd/main.go":      difftest.Reg("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/app/lib\"\n\tother \"example.com/other/x\"\n\t_ \"example.com/app/../../etc\"\n)\n\nfunc main() { fmt.Println(lib.A(), other.X) }\n"),
		"cmd/main_test.go": difftest.Reg("package main\n"),
		"cmd/helper.go":    difftest.Reg("package main\n\nfunc helper() {}\n"),
		"lib/a.go":         difftest.Reg("package lib\n\nimport \"example.com/app/deep\"\n\nfunc A() int { return deep.D }\n"),
		"lib/b.go":         difftest.Reg("package lib\n\nconst B = 2\n"),
		"lib/a_test.go":    difftest.Reg("package lib\n"),
		"lib/sub/c.go":     difftest.Reg("package sub\n"),
		"deep/d.go":        difftest.Reg("package deep\n\nconst D = 1\n"),
	}})
}

func TestExpandGo(t *testing.T) {
	ctx := context.Background()
	r := goRepo()
	m, limits := Build(ctx, difftest.RepoUnit(r, "", "cmd/main.go"), limitsCfg(20, 200000, 1))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go", "lib/b.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 1 context = %q, want %q", got, want)
	}
	if want := []string{"context.max_expansion_rounds reached (1)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("limits = %q, want %q", limits, want)
	}

	m, limits = Build(ctx, difftest.RepoUnit(r, "", "cmd/main.go"), limitsCfg(20, 200000, 2))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go", "lib/b.go", "deep/d.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 2 context = %q, want %q", got, want)
	}
	if len(limits) != 0 {
		t.Errorf("limits = %q, want none", limits)
	}
	if m.Files[0].Role != "change" || m.Files[0].Path != "cmd/main.go" {
		t.Errorf("the change must come first: %+v", m.Files[0])
	}
	checkNoEscape(t, r)
}

func TestExpandGoNestedModule(t *testing.T) {
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"tools/go.mod":          difftest.Reg("module \"example.com/tools\"\n"),
		"tools/cmd/x.go":        difftest.Reg("package main\n\nimport \"example.com/tools/internal/y\"\n"),
		"tools/internal/y/y.go": difftest.Reg("package y\n"),
	}})
	m, _ := Build(context.Background(), difftest.RepoUnit(r, "", "tools/cmd/x.go"), limitsCfg(20, 0, 2))
	if got, want := contextPaths(t, r, "", m), []string{"tools/internal/y/y.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("context = %q, want %q", got, want)
	}
}

func TestExpandReadsTheReviewedVersion(t *testing.T) {
	r := goRepo()
	r.Revs["c1"] = map[string]difftest.File{}
	for p, f := range r.Revs[""] {
		r.Revs["c1"][p] = f
	}
	r.Revs["c1"]["lib/b.go"] = difftest.Reg("package lib\n\nconst B = 3 // at c1\n")
	delete(r.Revs["c1"], "cmd/main_test.go")
	r = difftest.NewRepo(r.Revs)
	m, _ := Build(context.Background(), difftest.RepoUnit(r, "c1", "cmd/main.go"), limitsCfg(20, 0, 1))
	if got, want := contextPaths(t, r, "c1", m), []string{"lib/a.go", "lib/b.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("context = %q, want %q", got, want)
	}
	if !strings.Contains(m.Render(), "const B = 3 // at c1") {
		t.Errorf("lib/b.go was not read at c1:\n%s", m.Render())
	}
}

func TestExpandPython(t *testing.T) {
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"app/main.py": difftest.Reg("import os, pkg.util as u\nimport localmod\nfrom pkg import models\nfrom .helpers import h  # relative\n" +
			"from . import (\n    sibling,\n    missing,\n)\nfrom .. import up\nfrom ... import way_up\n"),
		"app/__init__.py":    difftest.Reg("VERSION = 1\n"),
		"app/helpers.py":     difftest.Reg("def h(): pass\n"),
		"app/sibling.py":     difftest.Reg("S = 1\n"),
		"app/localmod.py":    difftest.Reg("L = 1\n"),
		"app/test_main.py":   difftest.Reg("import main\n"),
		"app/other.py":       difftest.Reg("O = 1\n"),
		"tests/test_main.py": difftest.Reg("def test(): pass\n"),
		"pkg/__init__.py":    difftest.Reg("P = 1\n"),
		"pkg/util.py":        difftest.Reg("from .models import M\n"),
		"pkg/models.py":      difftest.Reg("M = 1\n"),
		"up.py":              difftest.Reg("U = 1\n"),
	}})
	m, limits := Build(context.Background(), difftest.RepoUnit(r, "", "app/main.py"), limitsCfg(20, 200000, 1))
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
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"src/app.ts": difftest.Reg("import { a } from './a'\nimport b from \"./b.js\"\nconst c = require('../lib/c')\n" +
			"export * from './comp'\nimport React from 'react'\nimport o from '../../outside'\nimport cfg from './config.json'\n" +
			"import type {\n  T,\n} from \"./types\"\nconst lazy = import('./lazy')\nimport './side-effect.mjs'\n"),
		"src/a.ts":                    difftest.Reg("export const a = 1\n"),
		"src/b.ts":                    difftest.Reg("export default 2\n"),
		"src/b.test.ts":               difftest.Reg("test\n"),
		"lib/c.js":                    difftest.Reg("module.exports = 3\n"),
		"src/comp/index.tsx":          difftest.Reg("export const C = () => null\n"),
		"src/config.json":             difftest.Reg("{\"x\": 1}\n"),
		"src/types.d.ts":              difftest.Reg("declare x\n"),
		"src/types/index.ts":          difftest.Reg("export type T = string\n"),
		"src/lazy.jsx":                difftest.Reg("export default 4\n"),
		"src/side-effect.mjs":         difftest.Reg("globalThis.x = 1\n"),
		"src/app.test.ts":             difftest.Reg("import './app'\n"),
		"src/__tests__/app.spec.tsx":  difftest.Reg("it()\n"),
		"src/__tests__/other.spec.ts": difftest.Reg("it()\n"),
	}})
	m, limits := Build(context.Background(), difftest.RepoUnit(r, "", "src/app.ts"), limitsCfg(20, 200000, 1))
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
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"api/handler.rb":      difftest.Reg("# old line naming \"db/old.sql\"\nload(\"db/schema.sql\")\nq = 'queries.graphql'\nx = `missing.sql`\ny = \"notes.txt\"\nz = \"../../etc/passwd.json\"\nw = \"/etc/x.yaml\"\n"),
		"db/schema.sql":       difftest.Reg("CREATE TABLE t (id int);\n"),
		"db/old.sql":          difftest.Reg("CREATE TABLE old (id int);\n"),
		"api/queries.graphql": difftest.Reg("query { x }\n"),
		"notes.txt":           difftest.Reg("notes\n"),
	}})
	u := difftest.RepoUnit(r, "", "api/handler.rb")
	// The first line is context, not added: its reference is not followed.
	u.Files[0].Status = diff.Modified
	old := u.Files[0].Hunks[0]
	h := diff.NewHunk(old.OldStart, old.OldLines, old.NewStart, old.NewLines)
	for i, l := range old.Lines() {
		if i == 0 {
			l.Kind = diff.Context
		}
		h.Append(l)
	}
	u.Files[0].Hunks[0] = h
	m, limits := Build(context.Background(), u, limitsCfg(20, 200000, 2))
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
	u := func() *diff.Unit { return difftest.RepoUnit(r, "", "cmd/main.go") }

	// max_files: cut, and reported; exactly enough: not reported.
	m, limits := Build(ctx, u(), limitsCfg(2, 200000, 2))
	if got, want := contextPaths(t, r, "", m), []string{"cmd/main_test.go", "lib/a.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("max_files 2: context = %q, want %q", got, want)
	}
	if want := []string{"context.max_files reached (2)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("max_files 2: limits = %q, want %q", limits, want)
	}
	m, limits = Build(ctx, u(), limitsCfg(4, 200000, 2))
	if len(contextPaths(t, r, "", m)) != 4 || len(limits) != 0 {
		t.Errorf("max_files 4: %d context files, limits %q; want 4 and none", len(contextPaths(t, r, "", m)), limits)
	}

	// max_total_bytes: the size with everything is the exact limit that still fits.
	full, _ := Build(ctx, u(), limitsCfg(20, 0, 2))
	m, limits = Build(ctx, u(), limitsCfg(20, full.size, 2))
	if len(limits) != 0 || m.Render() != full.Render() {
		t.Errorf("max_total_bytes %d (exact): limits %q; material differs: %v", full.size, limits, m.Render() != full.Render())
	}
	m, limits = Build(ctx, u(), limitsCfg(20, full.size-1, 2))
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
	_, limits = Build(ctx, u(), limitsCfg(20, 0, 1))
	if want := []string{"context.max_expansion_rounds reached (1)"}; !reflect.DeepEqual(limits, want) {
		t.Errorf("rounds 1: limits = %q, want %q", limits, want)
	}
	_, limits = Build(ctx, u(), limitsCfg(20, 0, 2))
	if len(limits) != 0 {
		t.Errorf("rounds 2: limits = %q, want none (deep/d.go imports nothing)", limits)
	}

	// Zero files or zero rounds: no expansion, and that is configuration, not a cut.
	for _, cfg := range []policy.Config{limitsCfg(0, 0, 2), limitsCfg(20, 0, 0)} {
		m, limits := Build(ctx, u(), cfg)
		if got := contextPaths(t, r, "", m); len(got) != 0 || len(limits) != 0 {
			t.Errorf("%+v: context %q, limits %q; want none", cfg.Context, got, limits)
		}
	}

	// A nil reader: nothing to expand.
	nu := u()
	nu.Blobs = nil
	if m, limits := Build(ctx, nu, limitsCfg(20, 0, 2)); len(contextPaths(t, r, "", m)) != 0 || len(limits) != 0 {
		t.Errorf("nil reader: limits %q", limits)
	}
}

func symlinkRepo() *difftest.Repo {
	return difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"go.mod":         difftest.Reg("module example.com/app\n"),
		"main.go":        difftest.Reg("package main\n\nimport \"example.com/app/lib\"\n"),
		"lib/a.go":       difftest.Reg("package lib\n"),
		"lib/link.go":    difftest.Symlink("../shared/real.go"),
		"lib/chain.go":   difftest.Symlink("link.go"),
		"lib/evil.go":    difftest.Symlink("../../etc/passwd.go"),
		"lib/abs.go":     difftest.Symlink("/etc/passwd"),
		"lib/loop.go":    difftest.Symlink("loop.go"),
		"lib/mod.go":     {Mode: "160000", Content: "0123456789012345678901234567890123456789"},
		"lib/bin.go":     difftest.Reg("package lib\x00\x01"),
		"lib/empty.go":   difftest.Reg(""),
		"shared/real.go": difftest.Reg("package lib\n\nconst Real = 1\n"),
	}})
}

func TestExpandSymlinks(t *testing.T) {
	ctx := context.Background()
	r := symlinkRepo()
	m, _ := Build(ctx, difftest.RepoUnit(r, "", "main.go"), limitsCfg(20, 0, 1))
	if got, want := contextPaths(t, r, "", m), []string{"lib/a.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("default: context = %q, want %q (symlinks, submodules, binary and empty files skipped)", got, want)
	}
	for _, p := range r.Asked() {
		if p == "shared/real.go" {
			t.Errorf("a symlink was followed by default")
		}
	}
	checkNoEscape(t, r)

	r = symlinkRepo()
	cfg := limitsCfg(20, 0, 1)
	cfg.FollowSymlinks = true
	m, _ = Build(ctx, difftest.RepoUnit(r, "", "main.go"), cfg)
	if got, want := contextPaths(t, r, "", m), []string{"lib/a.go", "lib/chain.go", "lib/link.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("follow: context = %q, want %q", got, want)
	}
	for _, f := range m.Files {
		if (f.Path == "lib/link.go" || f.Path == "lib/chain.go") && (len(f.Lines) != 3 || f.Lines[2].Text != "const Real = 1") {
			t.Errorf("%s does not show its target: %+v", f.Path, f.Lines)
		}
	}
	checkNoEscape(t, r)
}

func TestExpandNeverEscapes(t *testing.T) {
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"go.mod":   difftest.Reg("module example.com/app\n"),
		"main.go":  difftest.Reg("package main\n\nimport (\n\t_ \"example.com/app/../../etc\"\n\t_ \"example.com/app/./lib\"\n)\n\nvar s = \"../../../etc/passwd.json\"\n"),
		"x.py":     difftest.Reg("from .. import secret\nfrom ..pkg import y\nimport ...z\n"),
		"x.js":     difftest.Reg("import a from '../../etc/passwd'\nrequire('..')\nimport b from '/etc/passwd'\nimport c from './../../x'\n"),
		"lib/l.go": difftest.Reg("package lib\n"),
	}})
	cfg := limitsCfg(20, 0, 3)
	cfg.FollowSymlinks = true
	m, limits := Build(context.Background(), difftest.RepoUnit(r, "", "main.go", "x.py", "x.js"), cfg)
	if got := contextPaths(t, r, "", m); len(got) != 0 || len(limits) != 0 {
		t.Errorf("context %q, limits %q; want none", got, limits)
	}
	checkNoEscape(t, r)
}

func TestExpandDeterministic(t *testing.T) {
	build := func() *difftest.Repo {
		r := goRepo()
		for p, f := range map[string]difftest.File{
			"web/app.ts":      difftest.Reg("import x from './x'\nimport y from './y'\nconst s = 'schema.json'\n"),
			"web/x.ts":        difftest.Reg("export const x = 1\n"),
			"web/y.tsx":       difftest.Reg("import x from './x'\n"),
			"web/app.spec.ts": difftest.Reg("x\n"),
			"schema.json":     difftest.Reg("{}\n"),
			"py/m.py":         difftest.Reg("import pkg.a\nfrom pkg import b\n"),
			"pkg/a.py":        difftest.Reg("A = 1\n"),
			"pkg/b.py":        difftest.Reg("B = 1\n"),
		} {
			r.Revs[""][p] = f
		}
		return difftest.NewRepo(r.Revs)
	}
	var renders []string
	for i := 0; i < 5; i++ {
		r := build()
		m, limits := Build(context.Background(), difftest.RepoUnit(r, "", "cmd/main.go", "py/m.py", "web/app.ts"), limitsCfg(8, 0, 2))
		renders = append(renders, m.Render()+strings.Join(limits, "\n"))
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
	m, _ := Build(context.Background(), difftest.RepoUnit(r, "", "cmd/main.go"), limitsCfg(20, 0, 2))
	back := Parse(m.Render())
	lines := back["deep/d.go"]
	if len(lines) != 3 || lines[0].N != 1 || lines[2].Text != "const D = 1" || lines[2].Added {
		t.Errorf("deep/d.go parsed back as %+v", lines)
	}
	if !strings.Contains(m.Render(), `=== FILE "lib/a.go" role=context ===`) {
		t.Errorf("no context header:\n%s", m.Render())
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
	var lines []Line
	for i := 1; i <= 5; i++ {
		lines = append(lines, Line{N: i, Added: true, Text: big})
	}
	for _, limit := range []int{300, 1000, 3000} {
		m := Material{Files: []File{{Path: "a.go", Role: "change", Lines: lines, Deleted: del}, {Path: "b.go", Role: "change", Lines: lines}}}
		m.truncate(limit)
		total := 0
		for _, f := range m.Files {
			if len(f.Lines)+len(f.Deleted) > 0 { // what renders
				total += f.bytes()
			}
		}
		if total > limit || m.size != total {
			t.Errorf("limit %d: material is %d bytes (size %d)", limit, total, m.size)
		}
		if limit >= 3000 && (len(m.Files[0].Lines) != 5 || len(m.Files[1].Lines) != 5 || len(m.Files[0].Deleted) == 0) {
			t.Errorf("limit %d: new lines must be kept before deletions: %d, %d, %d", limit, len(m.Files[0].Lines), len(m.Files[1].Lines), len(m.Files[0].Deleted))
		}
	}
}
