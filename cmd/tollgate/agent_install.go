package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/guard/serve"
)

// agentFlags are install's and uninstall's flags for coding agents' hook configs.
func agentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "agent", Usage: "comma-separated coding agents whose pre-tool hook runs `tollgate guard`: " + strings.Join(agent.Names(), ", ")},
		&cli.BoolFlag{DisableDefaultText: true, Name: "user", Usage: "with --agent: the agent's config in your home directory instead of the project's"},
	}
}

// agentsFlag resolves --agent NAME[,NAME].
func agentsFlag(c *cli.Context) ([]agent.Agent, error) {
	var out []agent.Agent
	seen := map[string]bool{}
	for _, n := range strings.Split(c.String("agent"), ",") {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		a, ok := agent.Get(n)
		if !ok {
			return nil, usageError("unknown agent %q in --agent (want %s)", n, strings.Join(agent.Names(), ", "))
		}
		seen[n] = true
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, usageError("--agent names no agent")
	}
	return out, nil
}

func agentScope(user bool) (agent.Scope, error) {
	home, err := os.UserHomeDir()
	if err != nil && user {
		return agent.Scope{}, fmt.Errorf("failed to find the home directory: %w", err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return agent.Scope{}, fmt.Errorf("failed to get working directory: %w", err)
	}
	return agent.Scope{User: user, Root: serve.ProjectRoot("", cwd), Home: home, State: agentState()}, nil
}

// agentState is where install records the agent config files it created (for uninstall).
func agentState() string {
	if dir := policy.StateDir(); dir != "" {
		return filepath.Join(dir, "tollgate")
	}
	return ""
}

// installAgents writes tollgate's guard into each named agent's hook config.
func installAgents(c *cli.Context) error {
	agents, err := agentsFlag(c)
	if err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("failed to find the tollgate binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	scope, err := agentScope(c.Bool("user"))
	if err != nil {
		return err
	}
	for _, a := range agents {
		msg, err := agent.Install(a, scope, bin)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.App.Writer, "tollgate: "+msg)
	}
	if !scope.User && onPath("tollgate-guard") == "" && onPath("tollgate") == "" {
		// the entry finds the guard on PATH: without it, every call of the agent is blocked
		fmt.Fprintln(c.App.ErrWriter, "tollgate: warning: neither tollgate-guard nor tollgate is on PATH, so the agent's every call is blocked until one is")
		fmt.Fprintln(c.App.ErrWriter, "tollgate: hint: put "+filepath.Dir(bin)+" on PATH (the agent's, not only your shell's), or install with --user")
	}
	return nil
}

// uninstallAgents removes tollgate's entries (and nothing else) from each named agent's config.
func uninstallAgents(c *cli.Context) error {
	agents, err := agentsFlag(c)
	if err != nil {
		return err
	}
	scope, err := agentScope(c.Bool("user"))
	if err != nil {
		return err
	}
	for _, a := range agents {
		msg, err := agent.Uninstall(a, scope)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.App.Writer, "tollgate: "+msg)
	}
	return nil
}

// printAgentStatus lists where the guard is installed, project and user scope.
func printAgentStatus(w io.Writer, root string, cfg policy.Config) {
	g := cfg.Guard
	home, _ := os.UserHomeDir()
	installed := false
	for _, name := range agent.Names() {
		a, _ := agent.Get(name)
		for _, user := range []bool{false, true} {
			st := agent.Status(a, agent.Scope{User: user, Root: root, Home: home})
			switch {
			case st.Err != nil:
				fmt.Fprintf(w, "  %-11s %s: %v\n", name+":", st.Path, st.Err)
			case st.FromPath():
				installed = true
				fmt.Fprintf(w, "  %-11s guard installed in %s, runs %s%s\n", name+":", st.Path, st.Binary, pathNote())
			case st.Installed():
				installed = true
				fmt.Fprintf(w, "  %-11s guard installed in %s, runs %s%s\n", name+":", st.Path, st.Binary, leanNote(st.Binary))
				if !user {
					fmt.Fprintf(w, "  %-11s that entry is an older tollgate's and names a machine path in a file you commit: `tollgate install --agent %s` rewrites it\n", "", name)
				}
			}
		}
	}
	if !installed {
		fmt.Fprintf(w, "  guard:      not installed for any agent (tollgate install --agent %s)\n", strings.Join(agent.Names(), ","))
	}
	if g.Model && !cfg.Model.Configured() {
		fmt.Fprintf(w, "  guard:      guard.model = true, but no [model] provider is configured: calls the rules ask about go to a person\n")
	} else if g.Model {
		fmt.Fprintf(w, "  guard:      guard.model = true: calls the rules would ask about go to the configured model first (timeout %s, %d model denials per session)\n", modelTimeout(g.Timeout), g.MaxDenials)
	}
	if g.AutoAllow {
		fmt.Fprintf(w, "  guard:      guard.auto_allow = true: calls the rules judge safe are approved without the agent's prompt\n")
	}
}

// pathNote says which binary a project-scope entry finds on PATH now.
func pathNote() string {
	for _, name := range []string{"tollgate-guard", "tollgate"} {
		if p := onPath(name); p != "" {
			return " (now " + p + ")"
		}
	}
	return " (neither is on PATH: every call is blocked)"
}

// onPath finds an executable file on PATH: a lookup only (no process is started here: only
// policy may start one); relative PATH entries are skipped.
func onPath(name string) string {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// leanNote says whether the hook command will run the lean tollgate-guard beside bin.
func leanNote(bin string) string {
	if fi, err := os.Stat(filepath.Join(filepath.Dir(bin), "tollgate-guard")); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return " (through tollgate-guard beside it)"
	}
	return " (tollgate-guard is not beside it: every call starts the full binary)"
}
