package external

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Gosec is gosec, on Go files but tests, run as one module (a go.mod is written when the
// change has none at its root).
type Gosec struct{}

// Name implements Tool.
func (Gosec) Name() string { return "gosec" }

func (Gosec) ready() error { return nil }

func (Gosec) wants(p string, _ []byte) bool {
	return strings.ToLower(path.Ext(p)) == ".go" && !strings.HasSuffix(p, "_test.go")
}

func (Gosec) command(_, src string, _ []string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module tollgate.invalid/scan\n\ngo 1.21\n"), 0o600); err != nil {
			return nil, err
		}
	}
	return []string{"-fmt=json", "-quiet", "-no-fail", "./..."}, nil
}

func (Gosec) parse(out []byte, rel func(string) string) ([]result, error) {
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
			Column  string `json:"column"`
		} `json:"Issues"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	var rs []result
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
		col, _ := strconv.Atoi(g.Column) // go/token's: 1-based, in bytes
		rs = append(rs, result{rel: rel(g.File), line: line, end: end, col: max(col, 0), rule: g.RuleID, msg: g.Details,
			sev: levelSeverity(g.Severity), conf: levelConfidence(g.Confidence), cwe: cwe})
	}
	return rs, nil
}
