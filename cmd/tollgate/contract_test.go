package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/rules"
)

// contractSection returns the lines of docs/contract.md's section titled title.
func contractSection(t *testing.T, title string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "contract.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "## ") {
			in = l == "## "+title
			continue
		}
		if in {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		t.Fatalf("docs/contract.md has no section %q", title)
	}
	return out
}

// TestContractCommands holds the contract's command table equal to the CLI's commands: every
// visible command (and every hook subcommand) has a row, and every row names one.
func TestContractCommands(t *testing.T) {
	row := regexp.MustCompile("^\\| `tollgate ([a-z-]+)(?: ([a-z-]+))?")
	var documented []string
	for _, l := range contractSection(t, "Commands") {
		if m := row.FindStringSubmatch(l); m != nil {
			name := m[1]
			if m[1] == "hook" {
				name += " " + m[2]
			}
			if !slices.Contains(documented, name) {
				documented = append(documented, name)
			}
		}
	}
	var code []string
	for _, c := range newApp(nil, io.Discard, io.Discard).Commands {
		if c.Hidden || c.Name == "help" {
			continue
		}
		if len(c.Subcommands) == 0 {
			code = append(code, c.Name)
			continue
		}
		for _, s := range c.Subcommands {
			if !s.Hidden && s.Name != "help" {
				code = append(code, c.Name+" "+s.Name)
			}
		}
	}
	slices.Sort(documented)
	slices.Sort(code)
	if !reflect.DeepEqual(documented, code) {
		t.Errorf("docs/contract.md's commands = %v\nthe CLI's commands        = %v", documented, code)
	}
}

// TestContractKeys holds the contract's configuration table equal to the config struct's keys.
func TestContractKeys(t *testing.T) {
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\| ([^|]+) \\|")
	key := regexp.MustCompile("`([a-z_]+)`")
	var documented []string
	for _, l := range contractSection(t, "Configuration") {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, k := range key.FindAllStringSubmatch(m[2], -1) {
			documented = append(documented, m[1]+"."+k[1])
		}
	}
	slices.Sort(documented)
	if want := policy.Keys(); !reflect.DeepEqual(documented, want) {
		t.Errorf("docs/contract.md's keys = %v\nthe config struct's keys = %v", documented, want)
	}
}

// TestRulesDoc holds docs/rules.md's rule table to `tollgate rules` for tollgate's own rules:
// every rule has a row, every row names a rule, with the rule's severity and CWEs.
func TestRulesDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `(tollgate/[a-z0-9-]+)` \\| ([a-z]+)[^|]* \\| ([^|]+) \\|")
	documented := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			documented[m[1]] = m[2] + " " + strings.Join(strings.Fields(strings.ReplaceAll(m[3], ",", " ")), ",")
		}
	}
	code := map[string]string{}
	// tollgate's own rules, as `tollgate rules` lists them before gitleaks' (allRules).
	for _, r := range append(rules.All(), injection.Rule) {
		if strings.HasPrefix(r.ID, "tollgate/") {
			code[r.ID] = r.Severity.String() + " " + strings.Join(r.CWE, ",")
		}
	}
	if len(code) < 10 {
		t.Fatalf("allRules lists %d of tollgate's rules: %v", len(code), code)
	}
	if !reflect.DeepEqual(documented, code) {
		for id, want := range code {
			if documented[id] != want {
				t.Errorf("docs/rules.md: %s is %q, `tollgate rules` says %q", id, documented[id], want)
			}
		}
		for id := range documented {
			if _, ok := code[id]; !ok {
				t.Errorf("docs/rules.md lists %s, which `tollgate rules` does not", id)
			}
		}
	}
}
