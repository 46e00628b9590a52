package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/model/provider"
)

// cached is what the verdict cache stores for one unit.
type cached struct {
	Findings []review.Finding  `json:"findings"`
	Rejected []review.Rejected `json:"rejected"`
	NotRun   []review.NotRun   `json:"not_run"`
}

// cacheKey is the verdict cache key: everything that decides the answer (the policy sent,
// the provider and how it is reached or run, the model, verification, the material).
func (m *Step) cacheKey(system string, verify bool, user string) string {
	return hashKey(system, m.Provider.Name(), m.Provider.Model(), provider.Identity(m.Provider), verify, user)
}

func hashKey(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%v\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (m *Step) cachePath(key string) string {
	if m.CacheDir == "" || m.NoCache {
		return ""
	}
	return filepath.Join(m.CacheDir, key[:2], key+".json")
}

func (m *Step) loadCache(key string) (cached, bool) {
	p := m.cachePath(key)
	if p == "" {
		return cached{}, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return cached{}, false
	}
	var c cached
	if json.Unmarshal(data, &c) != nil {
		return cached{}, false
	}
	return c, true
}

// saveCache stores c under key; an error says why it could not (the caller notes it).
func (m *Step) saveCache(key string, c cached) error {
	p := m.cachePath(key)
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
