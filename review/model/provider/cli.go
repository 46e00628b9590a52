package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/policy/egress"
)

// cliKind is one agent CLI (claude, codex, gemini): its flags, its own variables and how it
// answers. Each lives in its own file.
type cliKind interface {
	// argv returns the command line: the user's args first, tollgate's read-only flags last,
	// so they win wherever a later flag overrides an earlier one.
	argv(user []string, model string) []string
	// ownEnv are the variables that say where its configuration is and which backend it uses.
	ownEnv() []string
	// safeFlags are the user flags that cannot widen its powers.
	safeFlags() []string
	// parse reads its standard output.
	parse(out []byte) (Answer, error)
	// stderrError is the message of an error it reported on stderr ("" if none).
	stderrError(stderr []byte) string
}

var cliKinds = map[string]cliKind{"claude-cli": claudeCLI{}, "codex-cli": codexCLI{}, "gemini-cli": geminiCLI{}}

// agentCLI runs an agent CLI through the process gate, read-only, in a scratch directory.
type agentCLI struct {
	kind, bin, model string
	cli              cliKind
	procs            *policy.Procs
	args             []string
	scratch          string
	keepEnv          []string
}

func (p *agentCLI) Name() string  { return p.kind }
func (p *agentCLI) Model() string { return p.model }

func newAgentCLI(m policy.Model, gate *egress.Gate, procs *policy.Procs, scratch string) (Provider, error) {
	if err := checkCLIArgs(m.Provider, m.Args, m.AllowUnsafeArgs); err != nil {
		return nil, err
	}
	bin := strings.TrimSuffix(m.Provider, "-cli")
	// An agent CLI sends the material to its own service: it is egress like any other.
	if gate == nil || !gate.Enabled() {
		return nil, fmt.Errorf("%s would send the material to its service: %w", bin, egress.ErrDisabled)
	}
	if procs == nil {
		return nil, fmt.Errorf("%s: %w", bin, policy.ErrNotAllowed)
	}
	if err := procs.Allow(bin); err != nil {
		return nil, err
	}
	var keep []string
	if m.APIKeyEnv != "" {
		keep = []string{m.APIKeyEnv}
	}
	return &agentCLI{kind: m.Provider, cli: cliKinds[m.Provider], procs: procs, bin: bin, model: m.Name, args: m.Args, scratch: scratch, keepEnv: keep}, nil
}

// baseCLIEnv is what any agent CLI gets of the user's environment: where to find programs and
// its own files (HOME, XDG_*: its stored login lives there), locale and terminal, the
// temporary directory, and the CA bundle a corporate network may need. Nothing else passes:
// a deny list of credential-looking names misses PGPASSWORD's cousins (DATABASE_URL,
// SOPS_AGE_KEY, SENTRY_DSN, CI_JOB_JWT, ...), an allow list cannot.
var baseCLIEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TERM", "NO_COLOR",
	"TMPDIR", "TZ", "XDG_*", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS"}

// cliEnv is the allow list of one agent CLI: the base, plus its own variables (never a key: an
// API key passes only when the user names it in model.api_key_env; otherwise the CLI
// authenticates with the login it stored under HOME). Proxy variables are not passed: their
// URLs may carry a password.
func (p *agentCLI) cliEnv() []string {
	return append(append([]string{}, baseCLIEnv...), p.cli.ownEnv()...)
}

// checkCLIArgs refuses user flags that are not known to be safe, unless the user opted in.
func checkCLIArgs(kind string, args []string, allowUnsafe bool) error {
	if allowUnsafe {
		return nil
	}
	safe := cliKinds[kind].safeFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			continue // the value of the previous flag
		}
		name, _, _ := strings.Cut(a, "=")
		if !slices.Contains(safe, name) {
			return &policy.ConfigError{Key: "model.args", Msg: fmt.Sprintf("%q may widen what %s can do (write, run commands, read beyond the material); set model.allow_unsafe_args = true in your user config to allow it (tollgate still forces read-only flags)", a, kind)}
		}
	}
	return nil
}

func (p *agentCLI) argv() []string { return p.cli.argv(p.args, p.model) }

func (p *agentCLI) Complete(ctx context.Context, system, user string) (Answer, error) {
	prompt := system + "\n\n" + user
	out, err := p.procs.Run(ctx, policy.Cmd{
		Name: p.bin, Args: p.argv(), Dir: p.scratch, Env: os.Environ(), KeepEnv: p.keepEnv, OnlyEnv: p.cliEnv(),
		Stdin: strings.NewReader(prompt),
	})
	var ee *policy.ExitError
	if err != nil && !errors.As(err, &ee) {
		return Answer{}, err
	}
	ans, perr := p.parse(out)
	var rep reportedError
	if ee != nil && !errors.As(perr, &rep) {
		if msg := p.cli.stderrError([]byte(ee.Stderr)); msg != "" {
			perr = reportedError(msg)
		}
	}
	switch {
	case errors.As(perr, &rep) && ee != nil:
		// The CLI's own account of the failure says more than its exit status.
		return Answer{}, fmt.Errorf("%s (exit status %d)", rep, ee.Code)
	case perr != nil && err == nil:
		return Answer{}, perr
	case err != nil:
		return Answer{}, err
	}
	return ans, nil
}

func (p *agentCLI) parse(out []byte) (Answer, error) {
	if len(out) > maxAnswerBytes {
		return Answer{}, errors.New("the answer is too large")
	}
	return p.cli.parse(out)
}

// reportedError is a failure the agent CLI reported in its own structured output.
type reportedError string

func (e reportedError) Error() string { return string(e) }
