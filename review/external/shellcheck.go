package external

import (
	"bytes"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
)

// Shellcheck is shellcheck, on shell scripts: by extension, or an extensionless file whose
// #! line names a POSIX shell or bash. Its errors are medium, its warnings low.
type Shellcheck struct{}

// Name implements Tool.
func (Shellcheck) Name() string { return "shellcheck" }

func (Shellcheck) ready() error { return nil }

func (Shellcheck) wants(p string, head []byte) bool {
	ext := strings.ToLower(path.Ext(p))
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
}

func (Shellcheck) command(_, _ string, rels []string) ([]string, error) {
	return append([]string{"--format=json1", "--norc", "--"}, rels...), nil
}

func (Shellcheck) parse(out []byte, rel func(string) string) ([]result, error) {
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
	var rs []result
	for _, c := range v.Comments {
		sev := map[string]policy.Severity{"error": policy.Medium, "warning": policy.Low}[c.Level]
		rs = append(rs, result{rel: rel(c.File), line: c.Line, end: c.EndLine, rule: "SC" + strconv.Itoa(c.Code),
			msg: c.Message, sev: sev, conf: 0.9, cwe: []string{}})
	}
	return rs, nil
}
