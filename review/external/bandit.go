package external

import (
	"encoding/json"
	"path"
	"strconv"
	"strings"
)

// Bandit is bandit, on Python files.
type Bandit struct{}

// Name implements Tool.
func (Bandit) Name() string { return "bandit" }

func (Bandit) ready() error { return nil }

func (Bandit) wants(p string, _ []byte) bool { return strings.ToLower(path.Ext(p)) == ".py" }

func (Bandit) command(_, _ string, rels []string) ([]string, error) {
	return append([]string{"--format", "json", "--quiet", "--"}, rels...), nil
}

func (Bandit) parse(out []byte, rel func(string) string) ([]result, error) {
	var v struct {
		Results []struct {
			Filename   string `json:"filename"`
			Line       int    `json:"line_number"`
			Range      []int  `json:"line_range"`
			ColOffset  *int   `json:"col_offset"`
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
	var rs []result
	for _, b := range v.Results {
		end := b.Line
		if n := len(b.Range); n > 0 {
			end = b.Range[n-1]
		}
		cwe := []string{}
		if b.CWE != nil && b.CWE.ID > 0 {
			cwe = []string{"CWE-" + strconv.Itoa(b.CWE.ID)}
		}
		col := 0
		if b.ColOffset != nil && *b.ColOffset >= 0 {
			col = *b.ColOffset + 1 // Python's ast col_offset: 0-based, in UTF-8 bytes
		}
		rs = append(rs, result{rel: rel(b.Filename), line: b.Line, end: end, col: col, rule: b.TestID, msg: b.Text,
			sev: levelSeverity(b.Severity), conf: levelConfidence(b.Confidence), cwe: cwe})
	}
	return rs, nil
}
