//go:build ignore

// evalcode measures tollgate's insecure-code rules on the rule test files of another scanner
// (semgrep-rules, which nobody here wrote). A test file marks each line the other scanner must
// flag with a comment "ruleid: ID" (or "todoruleid:") on the line before it, and each line it
// must leave alone with "ok: ID" (or "todook:"). For every tollgate rule, the files of the
// semgrep rules that match it are written into a scratch repository (never this one), staged
// and reviewed; a bad line counts as found when that tollgate rule reports the marked line or
// one of the next two (multi-line statements), stopping short of the next marked line; a good
// line counts as flagged on the same window. Findings of any severity count; the bad lines
// found at medium or above (blocking at the default fail_on) are printed beside them. With
// EVALCODE_VERBOSE set it prints each file's counts, each good line flagged and each bad line missed.
// Where a tollgate rule is narrower than the semgrep rules it is measured against (scopes:
// world-writable against semgrep's "more than 0644" rules), the bad lines inside its definition
// are counted apart and the goal is judged on them; both counts are printed.
//
// Usage: go run scripts/evalcode.go -git DIR -commit C -tollgate BIN [-work DIR]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// cases maps each tollgate rule to the semgrep rule test files that test the same weakness.
var cases = map[string][]string{
	"tollgate/sql-concatenation": {
		"python/lang/security/audit/formatted-sql-query.py",
		"python/django/security/injection/sql/sql-injection-using-db-cursor-execute.py",
		"python/lang/security/audit/sqli/psycopg-sqli.py",
		"python/sqlalchemy/security/sqlalchemy-execute-raw-query.py",
		"java/lang/security/audit/formatted-sql-string.java",
		"java/lang/security/audit/jdbc-sql-formatted-string.java",
		"go/lang/security/audit/sqli/gosql-sqli.go",
		"go/lang/security/injection/tainted-sql-string.go",
		"php/lang/security/injection/tainted-sql-string.php",
		"ruby/rails/security/audit/sqli/ruby-pg-sqli.rb",
		"javascript/lang/security/audit/sqli/node-mysql-sqli.js",
		"javascript/lang/security/audit/sqli/node-postgres-sqli.js",
	},
	"tollgate/shell-injection": {
		"python/lang/security/audit/subprocess-shell-true.py",
		"python/lang/security/audit/dangerous-subprocess-use-audit.py",
		"python/lang/security/audit/dangerous-os-exec-audit.py",
		"python/flask/security/injection/os-system-injection.py",
		"python/django/security/injection/command/command-injection-os-system.py",
		"javascript/lang/security/audit/spawn-shell-true.js",
		"javascript/lang/security/audit/dangerous-spawn-shell.js",
		"go/lang/security/audit/dangerous-exec-command.go",
		"php/lang/security/exec-use.php",
		"ruby/lang/security/dangerous-exec.rb",
	},
	"tollgate/eval-request-data": {
		"python/flask/security/injection/user-eval.py",
		"python/flask/security/injection/user-exec.py",
		"python/django/security/injection/code/user-eval.py",
		"python/django/security/injection/code/user-exec.py",
		"python/django/security/injection/code/user-eval-format-string.py",
		"python/django/security/injection/code/user-exec-format-string.py",
		"php/lang/security/eval-use.php",
	},
	"tollgate/tls-verify-disabled": {
		"python/requests/security/disabled-cert-validation.py",
		"python/lang/security/audit/network/disabled-cert-validation.py",
		"python/lang/security/unverified-ssl-context.py",
		"go/lang/security/audit/crypto/tls.go",
		"problem-based-packs/insecure-transport/go-stdlib/bypass-tls-verification.go",
		"problem-based-packs/insecure-transport/js-node/bypass-tls-verification.js",
		"php/lang/security/curl-ssl-verifypeer-off.php",
	},
	"tollgate/world-writable": {
		"python/lang/security/audit/insecure-file-permissions.py",
		"go/lang/correctness/permissions/file_permission.go",
		"java/lang/security/audit/overly-permissive-file-permission.java",
	},
	"tollgate/unsafe-deserialization": {
		"python/lang/security/deserialization/pickle.py",
		"python/lang/security/deserialization/avoid-pyyaml-load.py",
		"python/lang/security/audit/marshal.py",
		"python/flask/security/insecure-deserialization.py",
		"ruby/lang/security/bad-deserialization.rb",
		"ruby/lang/security/bad-deserialization-yaml.rb",
		"php/lang/security/deserialization.php",
	},
	"tollgate/curl-pipe-shell": {
		"bash/curl/security/curl-pipe-bash.bash",
		"bash/curl/security/curl-eval.bash",
	},
}

var mark = regexp.MustCompile(`(?:#|//|--|/\*|<!--)\s*(todoruleid|ruleid|todook|ok)\s*:`)

type caseFile struct {
	rule, src, dst string
	bad, good      []int // marked lines, 1-based
	marked         map[int]bool
	outOfScope     map[int]bool // bad lines outside the tollgate rule's definition (scopes)
}

// scopes: for a tollgate rule narrower than the semgrep rules it is measured against, which of
// their bad lines are inside its definition. semgrep's insecure-file-permissions,
// incorrect-default-permission and overly-permissive-file-permission flag any mode beyond
// 0600 or 0644 (group write, others' read or execute: 0o775, 0o654, "rw-rw-r--",
// OTHERS_EXECUTE); tollgate/world-writable is only about the others' write bit. Both counts are
// printed: every bad line, and the bad lines in the rule's scope.
var scopes = map[string]func(line string) bool{
	"tollgate/world-writable": grantsOthersWrite,
}

var (
	modeNum   = regexp.MustCompile(`\b(?:0[oO]?[0-7]{3,6}|0[xX][0-9a-fA-F]+|[1-9][0-9]{2,5})\b`)
	modeSym   = regexp.MustCompile(`["'](?:[r-][w-][xsStT-]){3}["']`)
	modeConst = regexp.MustCompile(`\b(?:S_I[RWX](?:USR|GRP|OTH)|S_IRWX[UGO]|(?:OWNER|GROUP|OTHERS)_(?:READ|WRITE|EXECUTE))\b`)
)

// grantsOthersWrite reports whether a line's mode lets others write, or names no mode it can
// read (then the line counts, to be safe).
func grantsOthersWrite(line string) bool {
	named := false
	for _, m := range modeNum.FindAllString(line, -1) {
		named = true
		base, digits := 10, m
		switch {
		case strings.HasPrefix(m, "0x"), strings.HasPrefix(m, "0X"):
			base, digits = 16, m[2:]
		case strings.HasPrefix(m, "0o"), strings.HasPrefix(m, "0O"):
			base, digits = 8, m[2:]
		case strings.HasPrefix(m, "0"):
			base = 8
		}
		if v, err := strconv.ParseUint(digits, base, 32); err == nil && v&0o002 != 0 {
			return true
		}
	}
	for _, m := range modeSym.FindAllString(line, -1) {
		named = true
		if m[8] == 'w' {
			return true
		}
	}
	for _, m := range modeConst.FindAllString(line, -1) {
		named = true
		if m == "S_IWOTH" || m == "S_IRWXO" || m == "OTHERS_WRITE" {
			return true
		}
	}
	return !named || strings.Contains(line, "o+w") || strings.Contains(line, "a+w")
}

func main() {
	gitDir := flag.String("git", "", "semgrep-rules clone (work tree or bare git dir)")
	commit := flag.String("commit", "", "pinned commit")
	bin := flag.String("tollgate", "", "tollgate binary")
	work := flag.String("work", "", "scratch folder (default: a new one under $TMPDIR)")
	flag.Parse()
	if *gitDir == "" || *commit == "" || *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: evalcode -git DIR -commit C -tollgate BIN [-work DIR]")
		os.Exit(2)
	}
	dir := *work
	if dir == "" {
		d, err := os.MkdirTemp("", "tollgate-evalcode.")
		check(err)
		defer os.RemoveAll(d)
		dir = d
	}
	repo, env := scratchRepo(dir)
	rules := make([]string, 0, len(cases))
	for r := range cases {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	var files []*caseFile
	for _, r := range rules {
		for _, src := range cases[r] {
			data, err := exec.Command("git", "-C", *gitDir, "cat-file", "blob", *commit+":"+src).Output()
			if err != nil {
				fail(fmt.Errorf("%s: not at %s", src, *commit))
			}
			cf := readCase(r, src, len(files)+1, data)
			p := filepath.Join(repo, filepath.FromSlash(cf.dst))
			check(os.MkdirAll(filepath.Dir(p), 0o755))
			check(os.WriteFile(p, data, 0o644))
			files = append(files, cf)
		}
	}
	hit, blocking := review(dir, repo, *bin, env)
	sums := tallyCases(files, hit, os.Getenv("EVALCODE_VERBOSE") != "")
	for _, cf := range files {
		for _, l := range cf.bad {
			if blocking.found(cf, l) {
				sums[cf.rule].badBlocking++
			}
		}
	}
	printTable(*commit, rules, sums)
}

// scratchRepo creates the scratch repository and a pristine HOME for git and tollgate.
func scratchRepo(dir string) (string, []string) {
	home := filepath.Join(dir, "home")
	repo := filepath.Join(dir, "repo")
	check(os.MkdirAll(filepath.Join(home, ".config", "tollgate"), 0o755))
	check(os.WriteFile(filepath.Join(home, ".config", "tollgate", "config.toml"),
		[]byte("[review]\nmax_findings = 1000000\ntimeout = \"900s\"\n"), 0o644))
	check(os.MkdirAll(repo, 0o755))
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1")
	run(repo, env, "git", "init", "-q")
	return repo, env
}

// readCase reads the marks of one rule test file, the n-th staged.
func readCase(rule, src string, n int, data []byte) *caseFile {
	ext := path.Ext(src)
	dst := fmt.Sprintf("cases/%d%s", n, ext)
	switch ext {
	case ".dockerfile":
		dst = fmt.Sprintf("cases/%d/Dockerfile", n)
	case ".bash":
		dst = fmt.Sprintf("cases/%d.sh", n)
	}
	cf := &caseFile{rule: rule, src: src, dst: dst, marked: map[int]bool{}, outOfScope: map[int]bool{}}
	lines := strings.Split(string(data), "\n")
	inScope := scopes[rule]
	for i := 0; i < len(lines); i++ {
		m := mark.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		// the marked line: the next one that is not itself a mark
		j := i + 1
		for j < len(lines) && mark.MatchString(lines[j]) {
			j++
		}
		if j >= len(lines) || cf.marked[j+1] {
			continue
		}
		cf.marked[j+1] = true
		if m[1] == "ruleid" || m[1] == "todoruleid" {
			cf.bad = append(cf.bad, j+1)
			if inScope != nil && !inScope(lines[j]) {
				cf.outOfScope[j+1] = true
			}
		} else {
			cf.good = append(cf.good, j+1)
		}
	}
	return cf
}

// hits says which tollgate rules were reported at each path and line.
type hits map[string]map[int]map[string]bool

// review stages the scratch repository, reviews it and returns the rules reported per line, at
// any severity and at medium or above (blocking at the default fail_on).
func review(dir, repo, bin string, env []string) (hits, hits) {
	run(repo, env, "git", "add", "-A")
	out := filepath.Join(dir, "report.json")
	cmd := exec.Command(bin, "review", "--staged", "--format", "json", "--output", out, "--fail-on", "critical")
	cmd.Dir, cmd.Env, cmd.Stderr = repo, env, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			fail(fmt.Errorf("review: %v", err))
		}
	}
	var rep struct {
		Status   string `json:"status"`
		Findings []struct {
			RuleID   string   `json:"rule_id"`
			Severity string   `json:"severity"`
			Path     string   `json:"path"`
			Line     int      `json:"line"`
			Also     []string `json:"also"`
		} `json:"findings"`
		NotRun []json.RawMessage `json:"not_run"`
		Limits []string          `json:"limits"`
	}
	data, err := os.ReadFile(out)
	check(err)
	check(json.Unmarshal(data, &rep))
	if len(rep.NotRun) > 0 || len(rep.Limits) > 0 {
		fmt.Fprintf(os.Stderr, "evalcode: warning: status %s, not run %d, limits %v\n", rep.Status, len(rep.NotRun), rep.Limits)
	}
	hit, blocking := hits{}, hits{}
	for _, f := range rep.Findings {
		hit.add(f.Path, f.Line, f.RuleID, f.Also)
		if f.Severity != "low" && f.Severity != "info" {
			blocking.add(f.Path, f.Line, f.RuleID, f.Also)
		}
	}
	return hit, blocking
}

// add records rule (and the rules it stands for) as reported at path and line.
func (h hits) add(path string, line int, rule string, also []string) {
	if h[path] == nil {
		h[path] = map[int]map[string]bool{}
	}
	if h[path][line] == nil {
		h[path][line] = map[string]bool{}
	}
	h[path][line][rule] = true
	for _, a := range also {
		h[path][line][a] = true
	}
}

// found reports whether the case's rule was reported on the marked line or one of the next two,
// short of the next marked line.
func (h hits) found(cf *caseFile, line int) bool {
	for l := line; l <= line+2; l++ {
		if l > line && cf.marked[l] {
			break
		}
		if h[cf.dst][l][cf.rule] {
			return true
		}
	}
	return false
}

type tally struct {
	files, bad, badFound, good, goodFlagged int
	badBlocking                             int // bad lines found at medium or above
	scoped                                  bool
	scope, scopeFound                       int // bad lines in the rule's scope (scopes), and those found
}

// tallyCases counts, per rule, the bad lines found and the good lines flagged.
func tallyCases(files []*caseFile, hit hits, verbose bool) map[string]*tally {
	sums := map[string]*tally{}
	for _, cf := range files {
		t := sums[cf.rule]
		if t == nil {
			t = &tally{}
			sums[cf.rule] = t
		}
		t.files++
		b := countLines(cf, cf.bad, hit, false, verbose)
		g := countLines(cf, cf.good, hit, true, verbose)
		t.bad += len(cf.bad)
		t.badFound += b
		t.good += len(cf.good)
		t.goodFlagged += g
		t.scoped = scopes[cf.rule] != nil
		for _, l := range cf.bad {
			if !cf.outOfScope[l] {
				t.scope++
				if hit.found(cf, l) {
					t.scopeFound++
				}
			} else if verbose {
				fmt.Printf("  out of the rule's scope: %s:%d\n", cf.src, l)
			}
		}
		if verbose {
			fmt.Printf("  %-28s %-75s bad %2d/%2d good flagged %2d/%2d\n", cf.rule, cf.src, b, len(cf.bad), g, len(cf.good))
		}
	}
	return sums
}

// countLines counts the lines the rule was reported on; verbose prints each bad line missed or
// good line flagged.
func countLines(cf *caseFile, lines []int, hit hits, good, verbose bool) int {
	n := 0
	for _, l := range lines {
		f := hit.found(cf, l)
		if f {
			n++
		}
		switch {
		case verbose && good && f:
			fmt.Printf("  good line flagged: %s:%d\n", cf.src, l)
		case verbose && !good && !f:
			fmt.Printf("  bad line missed:  %s:%d\n", cf.src, l)
		}
	}
	return n
}

func printTable(commit string, rules []string, sums map[string]*tally) {
	fmt.Printf("semgrep-rules %s: insecure-code rules (goal: bad found >= 60%%, good flagged <= 10%%)\n", commit)
	fmt.Printf("%-32s %5s %18s %18s %18s %s\n", "tollgate rule", "files", "bad found", "bad at medium+", "good flagged", "goal met")
	all := true
	for _, r := range rules {
		t := sums[r]
		bp, gp := pct(t.badFound, t.bad), pct(t.goodFlagged, t.good)
		met := t.bad > 0 && bp >= 60 && gp <= 10
		verdict := yes(met)
		if !met && t.scoped {
			sp := pct(t.scopeFound, t.scope)
			met = t.scope > 0 && sp >= 60 && gp <= 10
			verdict = fmt.Sprintf("%s in the rule's scope: %d/%d (%.1f%%); %d bad lines outside it", yes(met), t.scopeFound, t.scope, sp, t.bad-t.scope)
		}
		if !met {
			all = false
		}
		fmt.Printf("%-32s %5d %8s (%5.1f%%) %8s (%5.1f%%) %8s (%5.1f%%) %s\n", r, t.files,
			fmt.Sprintf("%d/%d", t.badFound, t.bad), bp, fmt.Sprintf("%d/%d", t.badBlocking, t.bad), pct(t.badBlocking, t.bad),
			fmt.Sprintf("%d/%d", t.goodFlagged, t.good), gp, verdict)
	}
	if !all {
		fmt.Println("insecure-code goal: not met by every rule")
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func run(dir string, env []string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stderr = dir, env, os.Stderr
	check(cmd.Run())
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "evalcode:", err)
	os.Exit(1)
}
