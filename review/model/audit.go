package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/tollgate-dev/tollgate/review/model/provider"
)

type auditLine struct {
	Time         string           `json:"time"`
	Provider     string           `json:"provider"`
	Model        string           `json:"model"`
	MaterialHash string           `json:"material_sha256"`
	Tokens       *provider.Answer `json:"-"`
	InputTokens  int              `json:"input_tokens,omitempty"`
	OutputTokens int              `json:"output_tokens,omitempty"`
	CacheRead    int              `json:"cache_read_tokens,omitempty"`
	CacheWrite   int              `json:"cache_creation_tokens,omitempty"`
	Outcome      string           `json:"outcome"`
	Kept         int              `json:"findings_kept"`
	Rejected     int              `json:"findings_rejected"`
}

// audit appends one JSONL line per model exchange (never the material itself); an error says
// why it could not (the caller notes it).
func (m *Step) audit(l auditLine, key string) error {
	if m.AuditPath == "" {
		return nil
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	l.Time = now().UTC().Format(time.RFC3339)
	l.Provider, l.Model, l.MaterialHash = m.Provider.Name(), m.Provider.Model(), key
	if l.Tokens != nil {
		l.InputTokens, l.OutputTokens = l.Tokens.InputTokens, l.Tokens.OutputTokens
		l.CacheRead, l.CacheWrite = l.Tokens.CacheReadTokens, l.Tokens.CacheCreationTokens
	}
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.AuditPath), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(m.AuditPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
