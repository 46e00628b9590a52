package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
)

// Unsafe loaders under another name (tollgate/unsafe-deserialization, Python): a module of the
// pickle family imported under an alias (import pickle as pkl; pkl.loads(...)) or its loader
// imported by name (from pickle import loads; loads(...)) is the same loader. The line rules
// of code.go catch the usual spellings; a ruamel.yaml YAML() instance (not typ="unsafe") named
// yaml loads safely, so yaml.load on it is no finding.

// deserAliasRule is the finding of a pickle-family loader called under another name.
var deserAliasRule = review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
	Description: "a pickle-family loader imported under another name can run code while loading data",
	Catches:     example("load.py", "import pickle as pkl\nobj = pkl.loads(body)"),
	Leaves:      example("load.py", "import json as js\nobj = js.loads(body)")}

// loaderImport imports a pickle-family module under an alias (1: module, 2: alias), or names
// from one (3: module, 4: the names).
var loaderImport = lazyre.New(`^\s*import\s+(c?[Pp]ickle|_pickle|dill|shelve|marshal|jsonpickle)\s+as\s+(\w+)\s*$|^\s*from\s+(c?[Pp]ickle|_pickle|dill|marshal|jsonpickle)\s+import\s+([\w\s,]+)$`)

// loaderCall is a call through a name (1), with the member called (2) if any.
var loaderCall = lazyre.New(`(?:^|[^\w.])(\w+)(?:\.(\w+))?\s*\(`)

// loaderFuncs are the members of the pickle family that load.
var loaderFuncs = map[string]bool{"load": true, "loads": true, "Unpickler": true, "open": true, "decode": true}

// deser reads line i of a Python file: it records loader aliases and reports calls through them.
func (f *flow) deser(i int) {
	l := f.lines[i]
	if strings.Contains(l.code, "import") {
		f.loaderAlias(l.code)
		return
	}
	if len(f.mods) == 0 || !strings.Contains(l.code, "(") {
		return
	}
	for _, m := range loaderCall.FindAllStringSubmatchIndex(l.code, -1) {
		name, member := l.code[m[2]:m[3]], ""
		if m[4] >= 0 {
			member = l.code[m[4]:m[5]]
		}
		mod, ok := f.mods[name]
		if !ok {
			continue
		}
		fn := strings.Contains(mod, ".")
		if fn && member == "" || !fn && loaderFuncs[member] {
			f.emit(&deserAliasRule, 0.8, l, m[2], " ("+name+" is "+mod+")")
			return
		}
	}
}

// loaderAlias records the names an import line binds to a pickle-family loader.
func (f *flow) loaderAlias(code string) {
	m := loaderImport.FindStringSubmatch(code)
	if m == nil {
		return
	}
	if f.mods == nil {
		f.mods = map[string]string{}
	}
	if m[1] != "" {
		if m[2] != m[1] {
			f.mods[m[2]] = m[1]
		}
		return
	}
	for _, part := range strings.Split(m[4], ",") {
		fields := strings.Fields(part)
		if len(fields) == 0 || !loaderFuncs[fields[0]] || fields[0] == "open" {
			continue
		}
		name := fields[len(fields)-1]
		f.mods[name] = m[3] + "." + fields[0]
	}
}

// ruamelYAML is an assignment of a ruamel.yaml YAML() instance (1: the name, 2: its arguments).
var ruamelYAML = lazyre.New(`^\s*([\w.]+)\s*=\s*(?:ruamel\.yaml\.|ruamel\.)?YAML\s*\(([^)]*)\)`)

// ruamelLoad reports whether yaml.load on line code calls a ruamel.yaml instance named yaml
// assigned earlier in the scope without typ="unsafe": ruamel's loaders build no arbitrary
// objects.
func ruamelLoad(f *flow, code string, m []int) bool {
	if f == nil || !strings.Contains(code, "yaml.load") {
		return false
	}
	for j := len(f.lines) - 1; j >= 0; j-- {
		c := f.lines[j].code
		if !strings.Contains(c, "YAML") {
			continue
		}
		if r := ruamelYAML.FindStringSubmatch(c); r != nil && r[1] == "yaml" {
			return !strings.Contains(r[2], "unsafe")
		}
	}
	return false
}
