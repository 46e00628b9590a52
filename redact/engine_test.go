package redact

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"os"
	"path/filepath"
	"regexp/syntax"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/cmd/generate/config/utils"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The engine must find exactly what gitleaks' own detector finds on the same text. These tests
// compare Scan (rules one by one, near their keywords) with scanWhole (gitleaks' way) on
// gitleaks' own rule examples: the literal true positives in its rule sources, and samples made
// from every rule's regex, placed in gitleaks' sample templates (ini, json, xml, yaml, code...).

func secretSet(ss []Secret) []string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%s@%d:%d-%d:%d %q", s.RuleID, s.Line, s.StartColumn, s.EndLine, s.EndColumn, s.Value))
	}
	sort.Strings(out)
	return out
}

func compareScans(t *testing.T, d *Detector, name, path, text string) (int, bool) {
	t.Helper()
	fast := secretSet(d.mustScan(path, text, 1))
	whole := secretSet(d.scanWhole(path, text, 1))
	if strings.Join(fast, "\n") != strings.Join(whole, "\n") {
		t.Errorf("%s: engine and gitleaks differ on %q\nengine:   %v\ngitleaks: %v", name, text, fast, whole)
		return len(whole), false
	}
	return len(whole), true
}

// sample generates a deterministic string that matches re (a walk of its syntax tree).
func sample(re *syntax.Regexp, rnd *rand.Rand, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rnd.Intn(2) == 0 {
				r = []rune(strings.ToUpper(string(r)))[0]
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		var opts []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && len(opts) < 512; r++ {
				if r >= 0x20 && r < 0x7f {
					opts = append(opts, r)
				}
			}
		}
		if len(opts) == 0 {
			b.WriteByte('a')
			return
		}
		b.WriteRune(opts[rnd.Intn(len(opts))])
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[rnd.Intn(36)])
	case syntax.OpCapture:
		sample(re.Sub[0], rnd, b)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			sample(s, rnd, b)
		}
	case syntax.OpAlternate:
		sample(re.Sub[rnd.Intn(len(re.Sub))], rnd, b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, 3
		case syntax.OpPlus:
			lo, hi = 1, 4
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		if hi < 0 {
			hi = lo + 3
		}
		n := lo + rnd.Intn(hi-lo+1)
		for i := 0; i < n; i++ {
			sample(re.Sub[0], rnd, b)
		}
	}
}

func newDetectorT(t *testing.T) *Detector {
	t.Helper()
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEngineMatchesGitleaksOnGeneratedExamples: every default rule, samples from its regex in
// gitleaks' own sample templates, each also buried in other lines.
func TestEngineMatchesGitleaksOnGeneratedExamples(t *testing.T) {
	d := newDetectorT(t)
	rnd := rand.New(rand.NewSource(1))
	total, found := 0, 0
	def, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range d.e.ids {
		r := def.Rules[id]
		if r.Regex == nil {
			continue
		}
		re, err := syntax.Parse(r.Regex.String(), syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for k := 0; k < 1; k++ {
			var b strings.Builder
			sample(re.Simplify(), rnd, &b)
			secret := b.String()
			for _, tmpl := range utils.GenerateSampleSecrets(strings.Split(id, "-")[0], secret) {
				for _, text := range []string{"package x\n\nfunc f() {}\n" + tmpl + "\n// end\nvar y = 2"} {
					n, _ := compareScans(t, d, id, "sample.txt", text)
					total++
					if n > 0 {
						found++
					}
				}
			}
		}
	}
	t.Logf("%d generated texts compared, %d with findings", total, found)
	if found < total/4 {
		t.Fatalf("only %d of %d generated samples were found by gitleaks itself: the generator is off", found, total)
	}
}

// TestEngineMatchesGitleaksOnRuleSources: the string literals in gitleaks' own rule sources
// (their true and false positives), each in a small file.
func TestEngineMatchesGitleaksOnRuleSources(t *testing.T) {
	dir := rulesSourceDir(t)
	d := newDetectorT(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	n, withFindings := 0, 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			lit, ok := node.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || len(s) < 8 {
				return true
			}
			n++
			if c, _ := compareScans(t, d, filepath.Base(name), "example.txt", "x = 1\n"+s+"\ny = 2"); c > 0 {
				withFindings++
			}
			return true
		})
	}
	t.Logf("%d literals from %d rule sources compared, %d with findings", n, len(files), withFindings)
	if n < 500 || withFindings < 100 {
		t.Fatalf("too few examples (%d, %d with findings): wrong source directory?", n, withFindings)
	}
}

// rulesSourceDir finds gitleaks' rule sources in the module cache.
func rulesSourceDir(t *testing.T) string {
	bi, ok := debug.ReadBuildInfo()
	version := "v8.30.1"
	if ok {
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/zricethezav/gitleaks/v8" {
				version = dep.Version
			}
		}
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		cache = filepath.Join(gopath, "pkg", "mod")
	}
	dir := filepath.Join(cache, "github.com", "zricethezav", "gitleaks", "v8@"+version, "cmd", "generate", "config", "rules")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("gitleaks rule sources not in the module cache (%v)", err)
	}
	return dir
}

// TestEngineMatchesGitleaksOnCorpora: the leaky-repo corpus, when it is beside the checkout.
func TestEngineMatchesGitleaksOnCorpora(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "eval", "leaky-repo")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no leaky-repo corpus beside the checkout")
	}
	d := newDetectorT(t)
	files, total := 0, 0
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || strings.ContainsRune(string(data), 0) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		c, _ := compareScans(t, d, rel, filepath.ToSlash(rel), string(data))
		files++
		total += c
		return nil
	})
	t.Logf("%d files, %d findings, identical", files, total)
}

// TestDefaultRulesCompile: every rule of the lazily split default set compiles, and the split
// saw every rule of gitleaks' own full translation with the same keywords.
func TestDefaultRulesCompile(t *testing.T) {
	set, err := loadDefaultSet()
	if err != nil {
		t.Fatal(err)
	}
	def, err := loadDefault()
	if err != nil {
		t.Fatal(err)
	}
	if set.size() != len(def.Rules) {
		t.Fatalf("split %d rules, gitleaks has %d", set.size(), len(def.Rules))
	}
	for i := 0; i < set.size(); i++ {
		r, err := set.rule(i)
		if err != nil {
			t.Fatalf("rule %s: %v", set.id(i), err)
		}
		want := def.Rules[set.id(i)]
		if fmt.Sprint(r.Keywords) != fmt.Sprint(want.Keywords) || fmt.Sprint(set.keywords(i)) != fmt.Sprint(want.Keywords) {
			t.Errorf("rule %s keywords: split %v, compiled %v, gitleaks %v", set.id(i), set.keywords(i), r.Keywords, want.Keywords)
		}
		if (r.Regex == nil) != (want.Regex == nil) || (r.Regex != nil && r.Regex.String() != want.Regex.String()) || set.regexSrc(i) != regexString(want) {
			t.Errorf("rule %s regex differs", set.id(i))
		}
		if len(r.Allowlists) != len(want.Allowlists) {
			t.Errorf("rule %s: %d allowlists, gitleaks %d", set.id(i), len(r.Allowlists), len(want.Allowlists))
		}
	}
	g, err := set.globals()
	if err != nil || len(g) != len(def.Allowlists) {
		t.Fatalf("global allowlists: %d (%v), gitleaks %d", len(g), err, len(def.Allowlists))
	}
}

func regexString(r config.Rule) string {
	if r.Regex == nil {
		return ""
	}
	return r.Regex.String()
}
