package policy

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The structural guarantees: exactly one package of the module touches the network
// (policy/egress), exactly one starts processes (policy), no package loads plugins or calls
// exec-style system calls (renamed imports resolved), and the module uses from dependencies
// that reach net or os/exec only what dependencyUses names and justifies; and every package
// imports only what its place in the layering allows (TestLayering). The test walks every
// package's non-test imports and calls, so a shortcut added later fails here.

const (
	module      = "github.com/tollgate-dev/tollgate"
	networkPkg  = module + "/policy/egress"
	processPkg  = module + "/policy"
	networkNote = "only policy/egress may touch the network"
	processNote = "only policy may start processes"
)

// forbidden maps an import to the one package allowed to use it ("" = none).
var forbidden = map[string]string{
	"net":                            networkPkg,
	"net/http":                       networkPkg,
	"net/http/httptrace":             networkPkg,
	"net/http/httputil":              "",
	"net/http/cookiejar":             "",
	"net/rpc":                        "",
	"net/rpc/jsonrpc":                "",
	"net/smtp":                       "",
	"crypto/tls":                     networkPkg,
	"os/exec":                        processPkg,
	"plugin":                         "",
	"syscall":                        "",
	"golang.org/x/sys/unix":          "",
	"golang.org/x/sys/execabs":       "",
	"github.com/cli/safeexec":        "",
	"golang.org/x/net/proxy":         "",
	"github.com/hashicorp/go-getter": "",
}

type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(&out)
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 6 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

func TestAuditImports(t *testing.T) {
	sawNet, sawExec := false, false
	for _, p := range listPackages(t) {
		for _, imp := range p.Imports {
			only, bad := forbidden[imp]
			if !bad {
				continue
			}
			if only != p.ImportPath {
				note := "no package may import it"
				switch only {
				case networkPkg:
					note = networkNote
				case processPkg:
					note = processNote
				}
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, note)
			}
			sawNet = sawNet || (imp == "net/http" && p.ImportPath == networkPkg)
			sawExec = sawExec || (imp == "os/exec" && p.ImportPath == processPkg)
		}
	}
	if !sawNet || !sawExec {
		t.Errorf("the audit did not see the gates themselves (net/http in egress: %v, os/exec in policy: %v): is it looking at the right module?", sawNet, sawExec)
	}
}

// localNames maps the name each import of f is used under (a renamed import's own name) to its
// path, so `import o "os"` cannot hide o.StartProcess.
func localNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if isMajorVersion(name) {
			name = path.Base(path.Dir(p))
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != "_" && name != "." {
			out[name] = p
		}
	}
	return out
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

// eachSelector calls fn for every pkg.Name selector of the module's non-test files, pkg
// resolved to its import path ("" when X is no import: a value's method or field).
func eachSelector(t *testing.T, fn func(p goPackage, pos token.Position, importPath, name string)) {
	t.Helper()
	fset := token.NewFileSet()
	for _, p := range listPackages(t) {
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			names := localNames(f)
			for _, imp := range f.Imports {
				if imp.Name != nil && imp.Name.Name == "." {
					v, _ := strconv.Unquote(imp.Path.Value)
					t.Errorf("%s: %s is dot-imported: the audit could not see its calls", fset.Position(imp.Pos()), v)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				imp := ""
				if x, ok := sel.X.(*ast.Ident); ok {
					imp = names[x.Name]
				}
				fn(p, fset.Position(sel.Pos()), imp, sel.Sel.Name)
				return true
			})
		}
	}
}

// TestAuditCalls: no non-test file outside the process gate calls os.StartProcess, and none
// reaches for exec-style functions through other names (a renamed import included).
func TestAuditCalls(t *testing.T) {
	eachSelector(t, func(p goPackage, pos token.Position, imp, name string) {
		switch imp + "." + name {
		case "os.StartProcess", "syscall.Exec", "syscall.ForkExec", "syscall.StartProcess":
			if p.ImportPath != processPkg || imp != "os" {
				t.Errorf("%s: %s uses %s.%s: %s", p.ImportPath, pos, imp, name, processNote)
			}
		}
	})
}

// dependencyUses are the only identifiers the module may use from dependency packages that
// (directly or not) import net, net/http or os/exec, each with why it cannot reach the network
// or start a process.
var dependencyUses = map[string]map[string]string{
	"github.com/spf13/viper": {
		"New": "a private viper that parses gitleaks' TOML from memory (ReadConfig on a bytes.Reader); remote config lives in viper/remote, never imported",
	},
	"github.com/zricethezav/gitleaks/v8/config": {
		"Config": "type", "Rule": "type", "Allowlist": "type", "ViperConfig": "type", "Extend": "type (path and url refused by redact)",
		"DefaultConfig":    "the embedded default rules, a string",
		"AllowlistMatchOr": "a constant (an allowlist's match condition)",
	},
	"github.com/zricethezav/gitleaks/v8/detect": {
		"Detector": "type", "Fragment": "type: text handed over in memory",
		"NewDetector": "builds a detector from a compiled config; only Detect on in-memory fragments is called (DetectGit, DetectSource, DetectFiles are forbidden below)",
	},
	"github.com/zricethezav/gitleaks/v8/detect/codec": {
		"EncodedSegment": "type", "NewDecoder": "decodes base64/hex/percent in memory",
	},
	"github.com/zricethezav/gitleaks/v8/report": {
		"Finding": "type",
	},
}

// forbiddenMethods are methods of those dependencies that read files, reach the network or run
// git: no call of that name is allowed anywhere in the module (whatever its receiver).
var forbiddenMethods = map[string]string{
	"AddRemoteProvider": "viper remote config", "AddSecureRemoteProvider": "viper remote config",
	"ReadRemoteConfig": "viper remote config", "WatchRemoteConfig": "viper remote config",
	"WatchRemoteConfigOnChannel": "viper remote config", "WatchConfig": "viper file watching",
	"ReadInConfig": "viper file lookup", "MergeInConfig": "viper file lookup",
	"DetectGit": "gitleaks runs git", "DetectSource": "gitleaks sources (git, files, archives)",
	"DetectFiles": "gitleaks reads files", "DetectReader": "gitleaks streaming source",
}

// reachingDependencies lists the dependency packages of the module that import net, net/http or
// os/exec, directly or through their own dependencies.
func reachingDependencies(t *testing.T) map[string]bool {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", module+"/...")
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	reach := map[string]bool{}
	dec := json.NewDecoder(&out)
	for {
		var p struct {
			ImportPath string
			Standard   bool
			Deps       []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Standard || strings.HasPrefix(p.ImportPath, module) {
			continue
		}
		for _, d := range p.Deps {
			if d == "net" || d == "net/http" || d == "os/exec" {
				reach[p.ImportPath] = true
				break
			}
		}
	}
	if !reach["github.com/zricethezav/gitleaks/v8/detect"] {
		t.Fatalf("the audit does not see gitleaks' detect package reach os/exec: is it looking at the right module? %v", reach)
	}
	return reach
}

// TestAuditDependencyCalls: the module's calls into dependencies that could reach the network
// or start a process are only the ones named and justified in dependencyUses.
func TestAuditDependencyCalls(t *testing.T) {
	reach := reachingDependencies(t)
	for p := range dependencyUses {
		if !reach[p] {
			t.Logf("%s no longer reaches net or os/exec; its entry may go", p)
		}
	}
	eachSelector(t, func(p goPackage, pos token.Position, imp, name string) {
		if why, bad := forbiddenMethods[name]; bad {
			t.Errorf("%s: %s calls %s (%s): not allowed", p.ImportPath, pos, name, why)
		}
		if imp == "" || !reach[imp] {
			return
		}
		if _, ok := dependencyUses[imp][name]; !ok {
			t.Errorf("%s: %s uses %s.%s, and %s reaches the network or starts processes: add it to dependencyUses with why it cannot, or do without", p.ImportPath, pos, path.Base(imp), name, imp)
		}
	})
}

// The layering test, in the spirit of Go's go/build/deps_test.go: every package of the module
// has a place in layering below, and its non-test files import only the module's packages its
// place allows. An import that points the wrong way (up, or sideways between scanners) fails
// here.
//
// layering is read bottom up. "a, b < c, d" means c and d may import a and b, and everything
// a and b may import; a line without "<" names packages that import none of the module's. A
// package may import nothing of the module that its lines do not allow.
const layering = `
	policy/egress, review/diff, internal/lazyre, internal/shellword, internal/fspath, internal/diskcache;

	# the one path containment check (fspath.Within), under the boundary and the guard.
	internal/fspath < policy;

	# the one POSIX quoter, for the shims and hook commands that are written or printed.
	internal/shellword, internal/fspath < hook/agent;

	internal/lazyre < redact/lite;
	redact/lite < redact;

	review/diff < review/diff/difftest;
	internal/lazyre < review/lang;
	redact < review/injection/hidden;
	# the guard links no gitleaks (the lean tollgate-guard binary): the Secret type and masking
	# come from redact/lite, the detector is handed in.
	redact/lite, internal/fspath, internal/shellword < review/guard;
	policy, hook/agent, review/guard < review/guard/serve;

	# git: the change types and the gates only, never a scanner (hook links no gitleaks).
	policy, review/diff, internal/shellword, internal/fspath < hook;

	# review: Scanner, Step, Finding, Report as data, Run. No network gate: the model step's
	# providers live in review/model/provider.
	policy, redact, review/diff < review;

	# scanners and report writers: on review, never on each other.
	review, review/lang, internal/lazyre < review/secrets, review/rules, review/external;
	review, review/lang, internal/lazyre, internal/shellword < review/report;
	review, review/lang, internal/lazyre, review/injection/hidden < review/injection;

	# the baseline: findings accepted earlier, on review only.
	review < review/baseline;

	# the model step, on top of its sub-packages: the bundle reads the change (no review, no
	# network), the providers reach out only through the gates.
	policy, review/diff, review/lang, internal/lazyre < review/model/bundle;
	review, policy/egress < review/model/provider;
	# the verdict cache (bounded, atomic) is the one the guard's model uses too.
	review/model/bundle, review/model/provider, internal/diskcache < review/model;

	# the command, last.
	hook, hook/agent, review/guard/serve, review/secrets, review/rules, review/external, review/report,
	review/injection, review/model, review/baseline < cmd/tollgate;
	review/guard/serve < cmd/tollgate-guard;
`

// testOnly are packages of test helpers: no non-test file may import them.
var testOnly = map[string]bool{"review/diff/difftest": true}

// parseLayering returns, for each package of the layering, the packages it may import
// (transitively closed), and the order the packages were named in.
func parseLayering(t *testing.T, text string) (map[string]map[string]bool, []string) {
	t.Helper()
	allowed := map[string]map[string]bool{}
	var order []string
	declare := func(p string) {
		if _, ok := allowed[p]; ok {
			t.Fatalf("layering: %s is named twice as an importer", p)
		}
		allowed[p] = map[string]bool{}
		order = append(order, p)
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	for _, rule := range strings.Split(strings.Join(lines, " "), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		lower, upper, ok := strings.Cut(rule, "<")
		if !ok {
			for _, p := range list(lower) {
				declare(p)
			}
			continue
		}
		for _, p := range list(upper) {
			declare(p)
			for _, q := range list(lower) {
				below, ok := allowed[q]
				if !ok {
					t.Fatalf("layering: %s is used below %s before it has a place", q, p)
				}
				allowed[p][q] = true
				for r := range below {
					allowed[p][r] = true
				}
			}
		}
	}
	return allowed, order
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// TestLayering: every package has a place in the layering and imports only what it allows.
func TestLayering(t *testing.T) {
	allowed, _ := parseLayering(t, layering)
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		may, ok := allowed[name]
		if !ok {
			t.Errorf("%s has no place in the layering (policy/audit_test.go): add it where its imports put it", name)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			switch {
			case testOnly[dep]:
				t.Errorf("%s imports %s, a package of test helpers, outside its tests", name, dep)
			case !may[dep]:
				t.Errorf("%s imports %s: the layering does not allow it (an import pointing the wrong way)", name, dep)
			}
		}
	}
}

// TestLayeringRejects: the parser and the check catch what they are for.
func TestLayeringRejects(t *testing.T) {
	allowed, order := parseLayering(t, "a, b; a < c; c # a comment\n< d; b, d < e")
	if got := strings.Join(order, " "); got != "a b c d e" {
		t.Errorf("order = %s", got)
	}
	keys := func(m map[string]bool) string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	for p, want := range map[string]string{"a": "", "c": "a", "d": "a c", "e": "a b c d"} {
		if got := keys(allowed[p]); got != want {
			t.Errorf("%s may import %q, want %q", p, got, want)
		}
	}
	if allowed["c"]["d"] || allowed["a"]["c"] {
		t.Error("an import pointing down the layering is allowed")
	}
}

// goDeps lists the packages pkg links (go list -deps).
func goDeps(t *testing.T, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	return strings.Fields(out.String())
}

// checkDeps fails for every dependency of name that holds one of banned, every package of the
// module not in own, and max or more packages in all.
func checkDeps(t *testing.T, name string, banned []string, own map[string]bool, max int) {
	t.Helper()
	deps := goDeps(t, module+"/"+name)
	for _, d := range deps {
		for _, b := range banned {
			if strings.Contains(d, b) {
				t.Errorf("%s links %s", name, d)
			}
		}
		if p, ok := strings.CutPrefix(d, module+"/"); ok && !own[p] {
			t.Errorf("%s links %s: of the module, only %v", name, d, own)
		}
	}
	if len(deps) >= max {
		t.Errorf("%s links %d packages, want under %d", name, len(deps), max)
	}
}

// TestHookDeps: the git layer links neither gitleaks nor any scanner: of the module only the
// gates (policy) and the change types (review/diff), under 130 packages in all (crypto/sha256,
// which checks a Git LFS object against its pointer, brings ~25 of the standard library's).
func TestHookDeps(t *testing.T) {
	checkDeps(t, "hook", []string{"gitleaks", "spf13/viper"},
		map[string]bool{"hook": true, "policy": true, "review/diff": true, "internal/shellword": true, "internal/fspath": true}, 130)
}

// TestLeanDeps: the lean guard binary links no gitleaks, no viper, no CLI framework and none of
// the scanners: of the module only the guard, its front, the policy and redact/lite, and under
// 150 packages in all (each package's init costs an agent's hook call start-up time).
func TestLeanDeps(t *testing.T) {
	checkDeps(t, "cmd/tollgate-guard", []string{"gitleaks", "spf13/viper", "urfave/cli"},
		map[string]bool{"cmd/tollgate-guard": true, "review/guard/serve": true, "review/guard": true, "hook/agent": true,
			"policy": true, "redact/lite": true, "internal/lazyre": true, "internal/shellword": true, "internal/fspath": true}, 150)
}
