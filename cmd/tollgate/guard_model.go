package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/guard"
	"github.com/tollgate-dev/tollgate/review/model/provider"
)

// consultModel asks the configured model about a call the rules answered Ask (guard.model).
// Any failure leaves the call with a person. It returns the answer and its source: the rule id,
// "model", "cache" or "breaker".
func consultModel(ctx context.Context, call guard.Call, session string, ans guard.Answer, cfg policy.Config,
	opts guard.Options, det func() (*redact.Detector, error), project string) (guard.Answer, string) {
	escalate := func(why string) (guard.Answer, string) {
		ans.Reason += " (" + why + "; a person decides)"
		return ans, ans.Rule
	}
	if !cfg.Model.Configured() {
		return escalate("guard.model is set, but no [model] provider is configured")
	}
	breaker := sessionFile(project, session)
	if n := readCount(breaker); n >= cfg.Guard.MaxDenials {
		ans.Reason += fmt.Sprintf(" (the model already denied %d calls in this session, guard.max_denials; a person decides from here)", n)
		return ans, "breaker"
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
	cacheDir := guardCacheDir(project)
	if v, ok := readCachedVerdict(cacheDir, key); ok {
		return guard.ApplyModel(ans, v, opts.AutoAllow), "cache"
	}
	v, why := askGuardModel(ctx, cfg, project, system, red)
	if why != "" {
		return escalate(why)
	}
	writeCachedVerdict(cacheDir, key, v)
	if v.Decision == "deny" {
		writeCount(breaker, readCount(breaker)+1)
	}
	return guard.ApplyModel(ans, v, opts.AutoAllow), "model"
}

// guardCacheDir is where the guard's verdicts are cached ("" when the user cache dir is unknown
// or inside the project: no cache).
func guardCacheDir(project string) string {
	if dir, err := os.UserCacheDir(); err == nil && !insideRoot(project, dir) {
		return filepath.Join(dir, "tollgate", "guard")
	}
	return ""
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

func readCachedVerdict(dir, key string) (guard.ModelVerdict, bool) {
	if dir == "" {
		return guard.ModelVerdict{}, false
	}
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return guard.ModelVerdict{}, false
	}
	v, err := guard.ParseModelAnswer(string(data))
	return v, err == nil
}

func writeCachedVerdict(dir, key string, v guard.ModelVerdict) {
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	data, _ := json.Marshal(v)
	os.WriteFile(filepath.Join(dir, key+".json"), data, 0o600)
}

// sessionFile counts one agent session's model denials (the breaker), under the state dir.
func sessionFile(project, session string) string {
	dir := policy.StateDir()
	if dir == "" || session == "" || insideRoot(project, dir) {
		return ""
	}
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(dir, "tollgate", "guard-sessions", hex.EncodeToString(sum[:8]))
}

func readCount(path string) int {
	if path == "" {
		return 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

func writeCount(path string, n int) {
	if path == "" || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	os.WriteFile(path, []byte(strconv.Itoa(n)+"\n"), 0o600)
}
