package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/internal/diskcache"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/guard"
	"github.com/tollgate-dev/tollgate/review/model/provider"
)

// consultModel asks the configured model about a call the rules answered Ask (guard.model).
// Any failure leaves the call with a person. It returns the answer and its source: the rule id,
// "model", "cache" or "breaker"; warn is a failure that changed no decision (a verdict or a
// denial count that could not be stored).
func consultModel(ctx context.Context, call guard.Call, session string, ans guard.Answer, cfg policy.Config,
	opts guard.Options, det func() (*redact.Detector, error), project string) (_ guard.Answer, source string, warn error) {
	escalate := func(why string) (guard.Answer, string, error) {
		ans.Reason += " (" + why + "; a person decides)"
		return ans, ans.Rule, nil
	}
	if !cfg.Model.Configured() {
		return escalate("guard.model is set, but no [model] provider is configured")
	}
	sessions, breaker := sessionCounts(project), sessionKey(session)
	if n := readCount(sessions, breaker); n >= cfg.Guard.MaxDenials {
		ans.Reason += fmt.Sprintf(" (the model already denied %d calls in this session, guard.max_denials; a person decides from here)", n)
		return ans, "breaker", nil
	}
	system := guard.ModelSystem(opts)
	user := guard.ModelUser(call, ans)
	d, err := det()
	if err != nil {
		return escalate("the redactor could not run, so nothing was sent to the model")
	}
	red, found, err := d.Redact(user)
	if err != nil || (len(found) > 0 && cfg.BlockOnSecret) {
		return escalate("the call holds a secret, so it was not sent to the model")
	}
	key := guard.ModelCacheKey(system, cfg.Model.Provider, cfg.Model.Name, red)
	cache := guardCache(project)
	if v, ok := readCachedVerdict(cache, key); ok {
		return guard.ApplyModel(ans, v, opts.AutoAllow), "cache", nil
	}
	v, why := askGuardModel(ctx, cfg, project, system, red)
	if why != "" {
		return escalate(why)
	}
	warn = writeCachedVerdict(cache, key, v)
	if v.Decision == "deny" && breaker != "" {
		warn = errors.Join(warn, writeCount(sessions, breaker, readCount(sessions, breaker)+1))
	}
	return guard.ApplyModel(ans, v, opts.AutoAllow), "model", warn
}

// The guard's caches are bounded: verdicts a month, 16 MiB; a session's denial count a week
// (a session that long is over), 1 MiB of them.
const (
	guardCacheMaxAge   = 30 * 24 * time.Hour
	guardCacheMaxBytes = 16 << 20
	sessionMaxAge      = 7 * 24 * time.Hour
	sessionMaxBytes    = 1 << 20
)

// guardCache is where the guard's verdicts are cached (no cache when the user cache dir is
// unknown or inside the project).
func guardCache(project string) diskcache.Dir {
	if dir, err := os.UserCacheDir(); err == nil && !insideRoot(project, dir) {
		return diskcache.Dir{Path: filepath.Join(dir, "tollgate", "guard"), Ext: ".json", MaxAge: guardCacheMaxAge, MaxBytes: guardCacheMaxBytes}
	}
	return diskcache.Dir{}
}

// askGuardModel sends the redacted call to the model and reads its verdict; why says what
// went wrong ("" when it answered).
func askGuardModel(ctx context.Context, cfg policy.Config, project, system, red string) (guard.ModelVerdict, string) {
	scratch, err := os.MkdirTemp("", "tollgate-guard-")
	if err != nil || insideRoot(project, scratch) {
		if err == nil {
			os.RemoveAll(scratch)
		}
		return guard.ModelVerdict{}, "no scratch directory outside the project for the model"
	}
	defer os.RemoveAll(scratch)
	p, err := provider.New(cfg.Model, egress.New(cfg.Egress, cfg.Connect), policy.NewProcs(), scratch)
	if err != nil {
		return guard.ModelVerdict{}, "the model is not usable: " + err.Error()
	}
	tctx, cancel := context.WithTimeout(ctx, modelTimeout(cfg.Guard.Timeout))
	defer cancel()
	reply, err := p.Complete(tctx, system, red)
	if err != nil {
		return guard.ModelVerdict{}, "the model did not answer: " + oneLineErr(err)
	}
	v, err := guard.ParseModelAnswer(reply.Text)
	if err != nil {
		return guard.ModelVerdict{}, oneLineErr(err)
	}
	return v, ""
}

// modelTimeout keeps the model's time well below the hook timeout tollgate writes: an agent
// whose hook times out lets the call through.
func modelTimeout(t time.Duration) time.Duration {
	limit := time.Duration(agent.HookTimeoutSeconds)*time.Second - 8*time.Second
	return min(t, limit)
}

func oneLineErr(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func readCachedVerdict(cache diskcache.Dir, key string) (guard.ModelVerdict, bool) {
	data, ok := cache.Read(key)
	if !ok {
		return guard.ModelVerdict{}, false
	}
	v, err := guard.ParseModelAnswer(string(data))
	return v, err == nil
}

func writeCachedVerdict(cache diskcache.Dir, key string, v guard.ModelVerdict) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("failed to cache the model's verdict: %w", err)
	}
	if err := cache.Write(key, data); err != nil {
		return fmt.Errorf("failed to cache the model's verdict (the next such call asks again): %w", err)
	}
	return nil
}

// sessionCounts holds each agent session's model denials (the breaker), under the state dir
// (none when it is unknown or inside the project).
func sessionCounts(project string) diskcache.Dir {
	dir := policy.StateDir()
	if dir == "" || insideRoot(project, dir) {
		return diskcache.Dir{}
	}
	return diskcache.Dir{Path: filepath.Join(dir, "tollgate", "guard-sessions"), MaxAge: sessionMaxAge, MaxBytes: sessionMaxBytes}
}

// sessionKey is a session's key in sessionCounts ("" for no session: no breaker).
func sessionKey(session string) string {
	if session == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(session))
	return hex.EncodeToString(sum[:8])
}

func readCount(counts diskcache.Dir, key string) int {
	if key == "" {
		return 0
	}
	data, ok := counts.Read(key)
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

func writeCount(counts diskcache.Dir, key string, n int) error {
	if key == "" {
		return nil
	}
	if err := counts.Write(key, []byte(strconv.Itoa(n)+"\n")); err != nil {
		return fmt.Errorf("failed to count the model's denial for this session: %w", err)
	}
	return nil
}
