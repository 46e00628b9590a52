package external

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
)

// Semgrep is semgrep, on every file, with the repository's own rules only: it is never
// allowed to download rules (nor to send metrics), so without Config it does not run.
type Semgrep struct {
	// Config is the repository's semgrep rules (.semgrep.yml).
	Config []byte
}

// Name implements Tool.
func (Semgrep) Name() string { return "semgrep" }

func (s Semgrep) ready() error {
	if len(s.Config) == 0 {
		return errors.New("enabled but the repository has no .semgrep.yml: tollgate never lets semgrep download rules")
	}
	return nil
}

func (Semgrep) wants(string, []byte) bool { return true }

func (s Semgrep) command(scratch, _ string, rels []string) ([]string, error) {
	cfg := filepath.Join(scratch, "semgrep-rules.yml")
	if err := os.WriteFile(cfg, s.Config, 0o600); err != nil {
		return nil, err
	}
	args := []string{"scan", "--json", "--quiet", "--metrics=off", "--disable-version-check", "--config", cfg, "--"}
	return append(args, rels...), nil
}

func (Semgrep) parse(out []byte, rel func(string) string) ([]result, error) {
	var v struct {
		Results []struct {
			CheckID string `json:"check_id"`
			Path    string `json:"path"`
			Start   struct {
				Line int `json:"line"`
				Col  int `json:"col"`
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
	var rs []result
	for _, s := range v.Results {
		sev := map[string]policy.Severity{"ERROR": policy.High, "WARNING": policy.Medium, "INFO": policy.Low}[strings.ToUpper(s.Extra.Severity)]
		rs = append(rs, result{rel: rel(s.Path), line: s.Start.Line, end: s.End.Line, col: max(s.Start.Col, 0), rule: s.CheckID,
			msg: s.Extra.Message, sev: sev, conf: 0.8, cwe: semgrepCWE(s.Extra.Metadata.CWE)})
	}
	return rs, nil
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
