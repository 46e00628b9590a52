package external

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Timeout bounds one external scanner run unless the policy says otherwise.
const Timeout = 2 * time.Minute

// Tool is one external scanner program: which files it reads, how it is started, and how its
// output reads. The methods are unexported: the list is fixed (Tools).
type Tool interface {
	// Name is the program's name: the name a config enables and the process gate allows.
	Name() string
	// ready reports why the tool cannot run as configured (nil: it can).
	ready() error
	// wants reports whether the tool reads the file at p, whose content starts with head.
	wants(p string, head []byte) bool
	// command returns the argv for the files rels (relative to src, the working directory);
	// scratch is the run's private directory.
	command(scratch, src string, rels []string) ([]string, error)
	// parse reads the tool's output; rel turns its file names into paths relative to src.
	parse(out []byte, rel func(string) string) ([]result, error)
}

// Tools is the fixed list of external scanners, in the order the policy names them. The
// policy's list of names a config may enable (policy.ExternalScanners) is held equal to it by
// TestPolicyNamesEveryTool.
func Tools() []Tool { return []Tool{Gosec{}, Shellcheck{}, Bandit{}, Semgrep{}} }

// Names lists the tools' names, in the order of Tools.
func Names() []string {
	var out []string
	for _, t := range Tools() {
		out = append(out, t.Name())
	}
	return out
}

// ByName returns the tool named name, as configured by default (a Semgrep without rules).
func ByName(name string) (Tool, bool) {
	for _, t := range Tools() {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// Scanner runs one tool on the reviewed content of the changed files, written to a scratch
// directory outside the repository. Results are kept only where they touch added lines.
type Scanner struct {
	Tool Tool
	// Procs is the process gate the tool runs through (the caller allowed the tool's name on
	// it); nil: the tool is not allowed.
	Procs *policy.Procs
	// ScratchDir is where the files are written (outside the repository); "" uses os.TempDir.
	ScratchDir string
	// Timeout overrides the package's Timeout.
	Timeout time.Duration
}

// Name implements review.Scanner.
func (e *Scanner) Name() string { return e.Tool.Name() }

// result is one finding as a tool reports it.
type result struct {
	rel       string
	line, end int
	col       int // 1-based byte column on line; 0 when the tool gives none
	rule, msg string
	sev       policy.Severity
	conf      float64
	cwe       []string
}

// okExit reports the exit codes that mean the tool ran (with findings or none).
func okExit(code int) bool { return code == 0 || code == 1 }

// Scan implements review.Scanner.
func (e *Scanner) Scan(ctx context.Context, u *diff.Unit, r *review.Result) error {
	if err := e.runnable(u); err != nil {
		return err
	}
	picked := pick(u)
	if len(picked) == 0 {
		return nil
	}
	scratch, err := os.MkdirTemp(e.ScratchDir, "tollgate-"+e.Tool.Name()+"-")
	if err != nil {
		return fmt.Errorf("failed to create scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	src := filepath.Join(scratch, "src")
	byRel, rels, err := e.write(ctx, u.Blobs, picked, src)
	if err != nil || len(rels) == 0 {
		return err
	}
	results, err := e.run(ctx, scratch, src, rels)
	if err != nil {
		return err
	}
	added := map[*diff.FileDiff]map[int]string{} // new-file line -> text, per file, built once
	for _, res := range results {
		f := byRel[res.rel]
		if f == nil {
			continue
		}
		lines, ok := added[f]
		if !ok {
			lines = addedLines(f)
			added[f] = lines
		}
		end := max(res.end, res.line)
		if !touches(lines, res.line, end) {
			continue // only what touches added lines is reported
		}
		fd := review.Finding{
			RuleID: e.Tool.Name() + "/" + res.rule, Severity: res.sev, Confidence: res.conf, CWE: res.cwe,
			Path: f.Path(), Line: res.line, EndLine: end, Message: res.msg + review.InCommit(u), Source: e.Tool.Name(),
		}
		if t, ok := lines[res.line]; ok {
			if res.col > 0 && res.col <= len(t) {
				fd = fd.LineEvidence(t, res.col-1)
			} else {
				fd = fd.LineEvidence(t, 0)
				fd.Column = 0 // the tool gave no column: unknown, not the line's start
			}
		}
		r.Add(fd)
	}
	return nil
}

// installHints say how each tool is installed.
var installHints = map[string]string{
	"gosec":      "go install github.com/securego/gosec/v2/cmd/gosec@latest",
	"shellcheck": "apt-get install shellcheck, or brew install shellcheck",
	"bandit":     "pipx install bandit, or apt-get install bandit",
	"semgrep":    "pipx install semgrep",
}

// Missing is the reason an enabled tool that is not on PATH did not run: what to install, or
// how to disable it.
func Missing(name string) string {
	how := installHints[name]
	if how == "" {
		how = "install " + name
	}
	return fmt.Sprintf("enabled but not installed: install it (%s) or remove %q from scanners.external", how, name)
}

// runnable reports why the tool cannot run on the unit (nil: it can).
func (e *Scanner) runnable(u *diff.Unit) error {
	if e.Procs == nil {
		return fmt.Errorf("not allowed by policy")
	}
	if _, err := e.Procs.LookPath(e.Tool.Name()); err != nil {
		if errors.Is(err, policy.ErrNotAllowed) {
			return fmt.Errorf("not allowed by policy")
		}
		return errors.New(Missing(e.Tool.Name()))
	}
	if err := e.Tool.ready(); err != nil {
		return err
	}
	if u.Blobs == nil {
		return errors.New("the reviewed file contents are not available")
	}
	return nil
}

// pick returns the files with added text: not deleted, not binary.
func pick(u *diff.Unit) []*diff.FileDiff {
	var picked []*diff.FileDiff
	for i := range u.Files {
		f := &u.Files[i]
		if f.Status == diff.Deleted || f.Binary || !hasAdded(f) {
			continue
		}
		picked = append(picked, f)
	}
	return picked
}

// write writes the reviewed content of the picked files the tool wants under src, and returns
// them by slash path and their relative paths, sorted.
func (e *Scanner) write(ctx context.Context, blobs diff.BlobReader, picked []*diff.FileDiff, src string) (map[string]*diff.FileDiff, []string, error) {
	byRel := map[string]*diff.FileDiff{}
	var rels []string
	for _, f := range picked {
		data, err := blobs.ReadBlob(ctx, f.NewOID)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to read %s: %w", f.Path(), err)
		}
		if !e.Tool.wants(f.Path(), data[:min(len(data), 256)]) {
			continue
		}
		rel := filepath.FromSlash(f.Path())
		if !filepath.IsLocal(rel) {
			return nil, nil, fmt.Errorf("refusing to write %q outside the scratch directory", f.Path())
		}
		dst := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			return nil, nil, err
		}
		byRel[filepath.ToSlash(rel)] = f
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	return byRel, rels, nil
}

// run starts the tool on rels through the process gate and reads its results.
func (e *Scanner) run(ctx context.Context, scratch, src string, rels []string) ([]result, error) {
	args, err := e.Tool.command(scratch, src, rels)
	if err != nil {
		return nil, err
	}
	timeout := e.Timeout
	if timeout == 0 {
		timeout = Timeout
	}
	out, err := e.Procs.Run(ctx, policy.Cmd{
		Name: e.Tool.Name(), Args: args, Dir: src, Env: scannerEnv(scratch), Timeout: timeout,
	})
	if err != nil {
		var ee *policy.ExitError
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("timed out after %s", timeout)
		}
		if !errors.As(err, &ee) || !okExit(ee.Code) {
			return nil, fmt.Errorf("failed: %v", err)
		}
	}
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			if r, err := filepath.Rel(src, p); err == nil {
				p = r
			}
		}
		return filepath.ToSlash(filepath.Clean(p))
	}
	results, err := e.Tool.parse(out, rel)
	if err != nil {
		return nil, fmt.Errorf("failed: unreadable output: %v", err)
	}
	return results, nil
}

// addedLines maps the file's added new-file lines to their text.
func addedLines(f *diff.FileDiff) map[int]string {
	lines := map[int]string{}
	for l := range f.Added() {
		lines[l.New] = l.Text
	}
	return lines
}

// hasAdded reports whether the file has an added line.
func hasAdded(f *diff.FileDiff) bool {
	for range f.Added() {
		return true
	}
	return false
}

// touches reports whether the lines line..end hold an added line.
func touches(lines map[int]string, line, end int) bool {
	if end-line < len(lines) {
		for n := line; n <= end; n++ {
			if _, ok := lines[n]; ok {
				return true
			}
		}
		return false
	}
	for n := range lines { // a range wider than the added lines: look the other way round
		if n >= line && n <= end {
			return true
		}
	}
	return false
}

// scannerEnv is the whole environment a scanner sees: no model keys, no user secrets.
func scannerEnv(scratch string) []string {
	home := filepath.Join(scratch, "home")
	_ = os.MkdirAll(home, 0o700)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + scratch, "LANG=C.UTF-8", "LC_ALL=C.UTF-8",
		"NO_COLOR=1", "GOPROXY=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GO111MODULE=on",
		"GOCACHE=" + filepath.Join(scratch, "gocache"), "SEMGREP_SEND_METRICS=off", "SEMGREP_ENABLE_VERSION_CHECK=0",
	}
	return env
}

// levelSeverity reads a tool's severity word (gosec, bandit).
func levelSeverity(s string) policy.Severity {
	switch strings.ToUpper(s) {
	case "CRITICAL":
		return policy.Critical
	case "HIGH":
		return policy.High
	case "MEDIUM":
		return policy.Medium
	case "LOW":
		return policy.Low
	}
	return policy.Info
}

// levelConfidence reads a tool's confidence word (gosec, bandit).
func levelConfidence(s string) float64 {
	switch strings.ToUpper(s) {
	case "HIGH":
		return 0.9
	case "MEDIUM":
		return 0.6
	case "LOW":
		return 0.3
	}
	return 0.5
}
