package review

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// ExternalTimeout bounds one external scanner run unless the policy says otherwise.
const ExternalTimeout = 2 * time.Minute

// ExternalScanner runs one scanner from the fixed list (gosec, shellcheck, bandit, semgrep) on
// the reviewed content of the changed files, written to a scratch directory outside the
// repository. Results are kept only where they touch added lines.
type ExternalScanner struct {
	Tool string // a name from policy.ExternalScanners
	// ScratchDir is where the files are written (outside the repository); "" uses os.TempDir.
	ScratchDir string
	// SemgrepConfig is the repository's own semgrep rules (.semgrep.yml); semgrep is never
	// allowed to download rules, so without them it does not run.
	SemgrepConfig []byte
	// Timeout overrides ExternalTimeout.
	Timeout time.Duration
}

// Name implements Scanner.
func (e *ExternalScanner) Name() string { return e.Tool }

// wants reports whether the scanner reads this file.
func (e *ExternalScanner) wants(p string, head []byte) bool {
	ext := strings.ToLower(path.Ext(p))
	switch e.Tool {
	case "gosec":
		return ext == ".go" && !strings.HasSuffix(p, "_test.go")
	case "bandit":
		return ext == ".py"
	case "shellcheck":
		if ext == ".sh" || ext == ".bash" || ext == ".ksh" || ext == ".bats" {
			return true
		}
		if ext == "" && bytes.HasPrefix(head, []byte("#!")) {
			first, _, _ := bytes.Cut(head, []byte("\n"))
			for _, sh := range []string{"/sh", "/bash", "/dash", "/ksh", "env sh", "env bash"} {
				if bytes.Contains(first, []byte(sh)) {
					return true
				}
			}
		}
		return false
	case "semgrep":
		return true
	}
	return false
}

// Scan implements Scanner.
func (e *ExternalScanner) Scan(ctx context.Context, u *diff.Unit, r *Result) error {
	if _, err := policy.LookPath(e.Tool); err != nil {
		if errors.Is(err, policy.ErrNotAllowed) {
			return fmt.Errorf("not allowed by policy")
		}
		return errors.New("enabled but not installed")
	}
	if e.Tool == "semgrep" && len(e.SemgrepConfig) == 0 {
		return errors.New("enabled but the repository has no .semgrep.yml: tollgate never lets semgrep download rules")
	}
	blobs := u.Blobs
	if blobs == nil {
		return errors.New("the reviewed file contents are not available")
	}
	var picked []*diff.FileDiff
	for i := range u.Files {
		f := &u.Files[i]
		if f.Status == diff.Deleted || f.Binary || len(f.AddedLines()) == 0 {
			continue
		}
		picked = append(picked, f)
	}
	if len(picked) == 0 {
		return nil
	}
	scratch, err := os.MkdirTemp(e.ScratchDir, "tollgate-"+e.Tool+"-")
	if err != nil {
		return fmt.Errorf("failed to create scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	src := filepath.Join(scratch, "src")
	byRel := map[string]*diff.FileDiff{}
	var rels []string
	for _, f := range picked {
		data, err := blobs.ReadBlob(ctx, f.NewOID)
		if err != nil {
			return fmt.Errorf("failed to read %s: %w", f.Path(), err)
		}
		if !e.wants(f.Path(), data[:min(len(data), 256)]) {
			continue
		}
		rel := filepath.FromSlash(f.Path())
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("refusing to write %q outside the scratch directory", f.Path())
		}
		dst := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			return err
		}
		byRel[filepath.ToSlash(rel)] = f
		rels = append(rels, rel)
	}
	if len(rels) == 0 {
		return nil
	}
	sort.Strings(rels)
	args, accept, err := e.command(scratch, src, rels)
	if err != nil {
		return err
	}
	timeout := e.Timeout
	if timeout == 0 {
		timeout = ExternalTimeout
	}
	out, err := policy.Run(ctx, policy.Cmd{
		Name: e.Tool, Args: args, Dir: src, Env: scannerEnv(scratch), Timeout: timeout,
	})
	if err != nil {
		var ee *policy.ExitError
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("timed out after %s", timeout)
		}
		if !errors.As(err, &ee) || !accept(ee.Code) {
			return fmt.Errorf("failed: %v", err)
		}
	}
	results, err := e.parse(out, src)
	if err != nil {
		return fmt.Errorf("failed: unreadable output: %v", err)
	}
	added := map[*diff.FileDiff]map[int]string{} // new-file line -> text, per file, built once
	for _, res := range results {
		f := byRel[res.rel]
		if f == nil {
			continue
		}
		lines, ok := added[f]
		if !ok {
			lines = map[int]string{}
			for _, l := range f.AddedLines() {
				lines[l.New] = l.Text
			}
			added[f] = lines
		}
		end := max(res.end, res.line)
		touches := false
		if end-res.line < len(lines) {
			for n := res.line; n <= end && !touches; n++ {
				_, touches = lines[n]
			}
		} else { // a range wider than the added lines: look the other way round
			for n := range lines {
				touches = touches || (n >= res.line && n <= end)
			}
		}
		if !touches {
			continue // only what touches added lines is reported
		}
		fd := Finding{
			RuleID: e.Tool + "/" + res.rule, Severity: res.sev, Confidence: res.conf, CWE: res.cwe,
			Path: f.Path(), Line: res.line, EndLine: end, Message: res.msg + InCommit(u), Source: e.Tool,
		}
		if t, ok := lines[res.line]; ok {
			fd = fd.LineEvidence(t, 0)
		}
		r.add(fd)
	}
	return nil
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

// command returns the scanner's argv and which exit codes mean "ran" (findings or none).
func (e *ExternalScanner) command(scratch, src string, rels []string) ([]string, func(int) bool, error) {
	okFindings := func(c int) bool { return c == 0 || c == 1 }
	switch e.Tool {
	case "shellcheck":
		return append([]string{"--format=json1", "--norc", "--"}, rels...), okFindings, nil
	case "bandit":
		return append([]string{"--format", "json", "--quiet", "--"}, rels...), okFindings, nil
	case "gosec":
		if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
			if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module tollgate.invalid/scan\n\ngo 1.21\n"), 0o600); err != nil {
				return nil, nil, err
			}
		}
		return []string{"-fmt=json", "-quiet", "-no-fail", "./..."}, okFindings, nil
	case "semgrep":
		cfg := filepath.Join(scratch, "semgrep-rules.yml")
		if err := os.WriteFile(cfg, e.SemgrepConfig, 0o600); err != nil {
			return nil, nil, err
		}
		args := []string{"scan", "--json", "--quiet", "--metrics=off", "--disable-version-check", "--config", cfg, "--"}
		return append(args, rels...), okFindings, nil
	}
	return nil, nil, fmt.Errorf("unknown scanner %q", e.Tool)
}

type extResult struct {
	rel       string
	line, end int
	rule, msg string
	sev       policy.Severity
	conf      float64
	cwe       []string
}

func (e *ExternalScanner) parse(out []byte, src string) ([]extResult, error) {
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			if r, err := filepath.Rel(src, p); err == nil {
				p = r
			}
		}
		return filepath.ToSlash(filepath.Clean(p))
	}
	switch e.Tool {
	case "shellcheck":
		var v struct {
			Comments []struct {
				File    string `json:"file"`
				Line    int    `json:"line"`
				EndLine int    `json:"endLine"`
				Level   string `json:"level"`
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"comments"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return nil, err
		}
		var rs []extResult
		for _, c := range v.Comments {
			sev := map[string]policy.Severity{"error": policy.Medium, "warning": policy.Low}[c.Level]
			rs = append(rs, extResult{rel: rel(c.File), line: c.Line, end: c.EndLine, rule: "SC" + strconv.Itoa(c.Code),
				msg: c.Message, sev: sev, conf: 0.9, cwe: []string{}})
		}
		return rs, nil
	case "bandit":
		var v struct {
			Results []struct {
				Filename   string `json:"filename"`
				Line       int    `json:"line_number"`
				Range      []int  `json:"line_range"`
				TestID     string `json:"test_id"`
				Text       string `json:"issue_text"`
				Severity   string `json:"issue_severity"`
				Confidence string `json:"issue_confidence"`
				CWE        *struct {
					ID int `json:"id"`
				} `json:"issue_cwe"`
			} `json:"results"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return nil, err
		}
		var rs []extResult
		for _, b := range v.Results {
			end := b.Line
			if n := len(b.Range); n > 0 {
				end = b.Range[n-1]
			}
			cwe := []string{}
			if b.CWE != nil && b.CWE.ID > 0 {
				cwe = []string{"CWE-" + strconv.Itoa(b.CWE.ID)}
			}
			rs = append(rs, extResult{rel: rel(b.Filename), line: b.Line, end: end, rule: b.TestID, msg: b.Text,
				sev: levelSeverity(b.Severity), conf: levelConfidence(b.Confidence), cwe: cwe})
		}
		return rs, nil
	case "gosec":
		var v struct {
			Issues []struct {
				Severity   string `json:"severity"`
				Confidence string `json:"confidence"`
				CWE        struct {
					ID string `json:"id"`
				} `json:"cwe"`
				RuleID  string `json:"rule_id"`
				Details string `json:"details"`
				File    string `json:"file"`
				Line    string `json:"line"`
			} `json:"Issues"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return nil, err
		}
		var rs []extResult
		for _, g := range v.Issues {
			a, b, _ := strings.Cut(g.Line, "-")
			line, err := strconv.Atoi(a)
			if err != nil {
				continue
			}
			end := line
			if b != "" {
				if n, err := strconv.Atoi(b); err == nil {
					end = n
				}
			}
			cwe := []string{}
			if g.CWE.ID != "" {
				cwe = []string{"CWE-" + g.CWE.ID}
			}
			rs = append(rs, extResult{rel: rel(g.File), line: line, end: end, rule: g.RuleID, msg: g.Details,
				sev: levelSeverity(g.Severity), conf: levelConfidence(g.Confidence), cwe: cwe})
		}
		return rs, nil
	case "semgrep":
		var v struct {
			Results []struct {
				CheckID string `json:"check_id"`
				Path    string `json:"path"`
				Start   struct {
					Line int `json:"line"`
				} `json:"start"`
				End struct {
					Line int `json:"line"`
				} `json:"end"`
				Extra struct {
					Message  string `json:"message"`
					Severity string `json:"severity"`
					Metadata struct {
						CWE json.RawMessage `json:"cwe"`
					} `json:"metadata"`
				} `json:"extra"`
			} `json:"results"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return nil, err
		}
		var rs []extResult
		for _, s := range v.Results {
			sev := map[string]policy.Severity{"ERROR": policy.High, "WARNING": policy.Medium, "INFO": policy.Low}[strings.ToUpper(s.Extra.Severity)]
			rs = append(rs, extResult{rel: rel(s.Path), line: s.Start.Line, end: s.End.Line, rule: s.CheckID,
				msg: s.Extra.Message, sev: sev, conf: 0.8, cwe: semgrepCWE(s.Extra.Metadata.CWE)})
		}
		return rs, nil
	}
	return nil, fmt.Errorf("unknown scanner %q", e.Tool)
}

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

// semgrepCWE reads metadata.cwe, a string or a list of "CWE-89: ..." strings.
func semgrepCWE(raw json.RawMessage) []string {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if json.Unmarshal(raw, &one) == nil && one != "" {
			list = []string{one}
		}
	}
	out := []string{}
	for _, c := range list {
		id, _, _ := strings.Cut(c, ":")
		if strings.HasPrefix(id, "CWE-") {
			out = append(out, strings.TrimSpace(id))
		}
	}
	return out
}
