// Package serve answers one coding agent's pre-tool hook call: it reads the agent's JSON, loads
// the policy (the project's .tollgate.toml and the user config), asks the guard, writes the
// audit line and renders the answer in the agent's own format. Both the tollgate binary and the
// lean tollgate-guard binary call it; what only the full binary has (the secret detector, the
// review scanners over written content, the model) comes in as Extras.
//
// Rules and guarantees:
//   - Judge never fails: bad input, a config error or a panic is an explicit answer (ask, or
//     deny where the agent cannot ask).
//   - Without a detector, a call whose content must be scanned is never answered from here:
//     Judge reports Handoff (and writes no audit line), and the caller hands the same input to
//     a full tollgate. So is an Ask that the configured model would consult on.
//   - The audit line never copies written content, and masks every text field (command, path,
//     cwd, session, reason): tollgate's credential rules (key = value, URLs, DSNs, passwords on
//     command lines), secret-shaped words and known token prefixes always, and every secret the
//     report's detector finds when the full binary supplies it (Extras.Secrets; a field it
//     could not check is withheld).
//   - serve imports no gitleaks (TestLeanDeps): the lean binary stays small to start.
package serve

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/guard"
)

// MaxInput bounds what the guard reads on stdin.
const MaxInput = 16 << 20

// Extras are what a full tollgate adds; a nil field is absent.
type Extras struct {
	// Detector builds the secret detector (called only when content must be scanned).
	Detector func() (guard.Detector, error)
	// Content runs the review scanners over content about to be written.
	Content guard.ContentCheck
	// Model consults the configured model about a call the rules answered Ask; it returns the
	// answer and its source (a rule id, "model", "cache" or "breaker").
	Model func(ctx context.Context, call guard.Call, session string, ans guard.Answer, cfg policy.Config, opts guard.Options, project string) (guard.Answer, string)
	// Secrets returns every secret the report's detector finds in text (gitleaks' rules and
	// tollgate's credential and token rules): the audit line masks them.
	Secrets func(text string) ([]string, error)
	// NoFull, when set, is why no full tollgate can take a call this build cannot judge: such a
	// call is then answered Ask (rule guard/no-full-binary, audited) instead of handed off.
	NoFull error
}

// Read reads the hook input from stdin, at most MaxInput bytes.
func Read(stdin io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, MaxInput+1))
	if err == nil && len(data) > MaxInput {
		err = fmt.Errorf("the hook input is over %d bytes", MaxInput)
	}
	return data, err
}

// Judge answers one call whose input is data (readErr: the input could not be read). It never
// fails: bad input, a config error or a panic is an explicit answer (ask, or deny where the
// agent cannot ask). handoff is true when this build cannot judge the call (content to scan and
// no detector, or an Ask the configured model would consult on and no model) and x.NoFull is
// nil: out is then empty, nothing was audited, and the caller must hand the same input to a
// full tollgate.
func Judge(ctx context.Context, a agent.Agent, data []byte, readErr error, configFlag string, x Extras, stderr io.Writer) (out agent.Output, handoff bool) {
	rec := auditRecord{Time: time.Now().UTC().Format(time.RFC3339), Agent: a.Name()}
	defer func() {
		if r := recover(); r != nil {
			d := agent.Decision{Verdict: agent.Ask, Reason: fmt.Sprintf("tollgate could not judge this call (internal error: %v); a person must decide", r)}
			out, handoff = a.Render(agent.Effective(a, d)), false
		}
	}()
	var call agent.Call
	err := readErr
	if err == nil {
		call, err = a.Parse(data)
	}
	if err != nil {
		d := agent.Decision{Verdict: agent.Ask, Reason: "tollgate could not read the hook input (" + err.Error() + "); a person must decide"}
		d = agent.Effective(a, d)
		rec.Decision, rec.Source, rec.Reason = string(d.Verdict), "guard/bad-input", d.Reason
		maskRecord(&rec, auditMasker{secrets: x.Secrets})
		writeAudit(rec, "", stderr)
		return a.Render(d), false
	}
	rec.Session, rec.Tool = call.Session, call.Tool
	project := ProjectRoot(a.Name(), call.Cwd)
	ans, source, handoff := decide(ctx, call, project, configFlag, x)
	if handoff {
		return agent.Output{}, true
	}
	d := agent.Decision{Verdict: toVerdict(ans.Verdict), Reason: ans.Reason}
	if ans.Rule != "" && d.Verdict != agent.None {
		d.Reason += " [" + ans.Rule + "]"
	}
	d = agent.Effective(a, d)
	rec.Decision, rec.Source, rec.Reason = string(d.Verdict), source, ans.Reason
	if source == "" {
		rec.Source = ans.Rule
	}
	if rec.Decision == "" {
		rec.Decision = "no objection"
	}
	am := auditMasker{secrets: x.Secrets}
	rec.Call = auditCall(call, am)
	maskRecord(&rec, am)
	writeAudit(rec, project, stderr)
	return a.Render(d), false
}

// decide asks the guard (and the model, for an Ask it would consult on) under the project's
// policy; handoff: this build cannot judge the call and a full tollgate can take it.
func decide(ctx context.Context, call agent.Call, project, configFlag string, x Extras) (ans guard.Answer, source string, handoff bool) {
	cfg, err := guardConfig(project, configFlag)
	if err != nil {
		ans = guard.Answer{Verdict: guard.Ask, Rule: "guard/config-error", Reason: "tollgate's configuration has an error (" + err.Error() + "), so its policy cannot be applied; a person must decide"}
		return ans, "", false
	}
	opts := guardOptions(project, cfg.Guard, x)
	ans = decideWithin(toGuardCall(call), opts, guard.Budget+backstopSlack)
	modelAsk := ans.Verdict == guard.Ask && cfg.Guard.Model
	switch {
	case ans.Unscanned && x.Detector == nil || modelAsk && x.Model == nil:
		if x.NoFull == nil {
			return ans, "", true
		}
		ans = guard.Answer{Verdict: guard.Ask, Rule: "guard/no-full-binary", Reason: "tollgate-guard cannot judge this call alone (content to scan, or an ask for guard.model), and no full tollgate could (" +
			x.NoFull.Error() + "); a person must decide, or reinstall tollgate beside tollgate-guard"}
	case modelAsk:
		ans, source = x.Model(ctx, toGuardCall(call), call.Session, ans, cfg, opts, project)
		return ans, source, false
	}
	return ans, ans.Rule, false
}

// backstopSlack is how long past guard.Budget decideWithin waits: the shell analysis keeps its
// budget itself; the backstop catches what it cannot step through (a content scan).
const backstopSlack = 500 * time.Millisecond

// decideWithin runs guard.Decide with a deadline: past it the answer is Ask. The abandoned
// decision runs on in its goroutine until it ends or the hook process exits, which follows at
// once.
func decideWithin(call guard.Call, opts guard.Options, limit time.Duration) guard.Answer {
	done := make(chan guard.Answer, 1)
	go func() { done <- guard.Decide(call, opts) }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case ans := <-done:
		return ans
	case <-timer.C:
		return guard.Answer{Verdict: guard.Ask, Rule: "guard/timeout",
			Reason: fmt.Sprintf("tollgate could not judge this call within %v; a person must check it", limit)}
	}
}

func toGuardCall(c agent.Call) guard.Call {
	return guard.Call{Tool: c.Tool, Kind: guard.Kind(c.Kind), Command: c.Command, Path: c.Path, Content: c.Content, Cwd: c.Cwd, Args: c.Args}
}

func toVerdict(v guard.Verdict) agent.Verdict {
	switch v {
	case guard.Deny:
		return agent.Deny
	case guard.Ask:
		return agent.Ask
	case guard.Allow:
		return agent.Allow
	}
	return agent.None
}

// ProjectRoot is the agent's project directory: the agent's own variable, else the git work
// tree around the call's cwd (found by looking for .git, without running git), else the cwd.
func ProjectRoot(agentName, cwd string) string {
	for _, env := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		if d := os.Getenv(env); d != "" && filepath.IsAbs(d) && (strings.HasPrefix(env, strings.ToUpper(agentName)) || agentName == "") {
			return RealDir(d)
		}
	}
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd, _ = os.Getwd()
	}
	cwd = RealDir(cwd)
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return cwd
		}
	}
}

// RealDir is d with symbolic links resolved (cleaned, when that fails).
func RealDir(d string) string {
	if r, err := filepath.EvalSymlinks(d); err == nil {
		return r
	}
	return filepath.Clean(d)
}

// guardConfig reads the repository layer (.tollgate.toml at the project root, never through a
// link) and the user layer.
func guardConfig(project, configFlag string) (policy.Config, error) {
	var layers []*policy.Layer
	if b, err := policy.NewBoundary(project, false); err == nil {
		data, err := policy.ReadRepoFile(b, policy.RepoConfigName)
		if err != nil {
			return policy.Config{}, err
		}
		if data != nil {
			layers = append(layers, &policy.Layer{Name: policy.RepoConfigName, Data: data})
		}
	}
	user, err := policy.ReadUserLayer(configFlag)
	if err != nil {
		return policy.Config{}, err
	}
	return policy.Load(append(layers, user)...)
}

func guardOptions(project string, g policy.Guard, x Extras) guard.Options {
	home, _ := os.UserHomeDir()
	if home != "" {
		home = RealDir(home)
	}
	allowed := make([]string, 0, len(g.AllowedDirs))
	for _, d := range g.AllowedDirs {
		if strings.HasPrefix(d, "~/") && home != "" {
			d = filepath.Join(home, d[2:])
		}
		allowed = append(allowed, RealDir(d))
	}
	temp := []string{RealDir(os.TempDir()), "/tmp", "/var/tmp"}
	if r := RealDir("/tmp"); r != "/tmp" {
		temp = append(temp, r)
	}
	protect := g.Protect
	if hp := hooksPathOf(project); hp != "" {
		protect = append(append([]string{}, protect...), "./"+hp) // relative to the root

	}
	return guard.Options{
		Project: project, Home: home, Temp: temp, AllowedDirs: allowed,
		Protect: protect, Deny: g.Deny, AutoAllow: g.AutoAllow,
		Detector: x.Detector, Content: x.Content,
	}
}

var hooksPathLine = lazyre.New(`(?im)^\s*hookspath\s*=\s*"?([^"\n#;]+?)"?\s*(?:[#;].*)?$`)

// hooksPathOf reads core.hooksPath from the repository's own .git/config (without running
// git), so a custom hooks directory inside the project is protected like .git/hooks. Only a
// relative path inside the project is returned.
func hooksPathOf(project string) string {
	data, err := os.ReadFile(filepath.Join(project, ".git", "config"))
	if err != nil || len(data) > 1<<20 {
		return ""
	}
	inCore := false
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			inCore = strings.EqualFold(strings.Trim(t, "[] \t"), "core")
			continue
		}
		if m := hooksPathLine.FindStringSubmatch(t); inCore && m != nil {
			p := strings.TrimSpace(m[1])
			if filepath.IsAbs(p) {
				if rel, err := filepath.Rel(project, p); err == nil && filepath.IsLocal(rel) {
					return filepath.ToSlash(rel)
				}
				return ""
			}
			if filepath.IsLocal(p) {
				return filepath.ToSlash(filepath.Clean(p))
			}
		}
	}
	return ""
}

// GuardMemoryLimit is the soft heap limit of a guard call when neither GOGC nor GOMEMLIMIT is
// set (the full binary's own soft limit is the same).
const GuardMemoryLimit = 40 << 20

// GuardGC collects garbage only as the heap nears GuardMemoryLimit: a guard call lives a few
// tens of milliseconds and allocates ~12 MB for a 100 KB Write, where collecting at every
// doubling of a small heap cost ~4 ms of CPU (a sixth of the call); a large write still
// collects once the heap nears the limit, as it did before. GOGC in the environment still
// wins, and GOMEMLIMIT sets the limit (GOMEMLIMIT=off: a collection at three times the live
// heap).
func GuardGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) > GuardMemoryLimit {
		debug.SetMemoryLimit(GuardMemoryLimit)
	}
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetGCPercent(200) // no limit (GOMEMLIMIT=off): collect at three times the live heap
		return
	}
	debug.SetGCPercent(-1)
}
