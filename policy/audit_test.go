package policy

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The structural guarantees: exactly one package of the module touches the network
// (policy/egress), exactly one starts processes (policy), and no package loads plugins or calls
// exec-style system calls. The test walks every package's non-test imports and calls, so a
// shortcut added later fails here.

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

// TestAuditCalls: no non-test file outside the process gate calls os.StartProcess, and none
// reaches for exec-style functions through other names.
func TestAuditCalls(t *testing.T) {
	fset := token.NewFileSet()
	for _, p := range listPackages(t) {
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				call := x.Name + "." + sel.Sel.Name
				switch call {
				case "os.StartProcess", "syscall.Exec", "syscall.ForkExec", "syscall.StartProcess":
					if p.ImportPath != processPkg || !strings.HasPrefix(call, "os.") {
						t.Errorf("%s: %s uses %s: %s", p.ImportPath, fset.Position(sel.Pos()), call, processNote)
					}
				}
				return true
			})
		}
	}
}
