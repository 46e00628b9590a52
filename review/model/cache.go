package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tollgate-dev/tollgate/internal/diskcache"
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

// Verdict cache bounds: entries older than a month are asked again, and the directory is kept
// under 64 MiB (oldest first).
const (
	cacheMaxAge   = 30 * 24 * time.Hour
	cacheMaxBytes = 64 << 20
)

// cache is the verdict cache (no cache when CacheDir is "" or NoCache).
func (m *Step) cache() diskcache.Dir {
	if m.CacheDir == "" || m.NoCache {
		return diskcache.Dir{}
	}
	return diskcache.Dir{Path: m.CacheDir, Ext: ".json", MaxAge: cacheMaxAge, MaxBytes: cacheMaxBytes}
}

func (m *Step) loadCache(key string) (cached, bool) {
	data, ok := m.cache().Read(key)
	if !ok {
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
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return m.cache().Write(key, data)
}
