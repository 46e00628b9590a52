package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/baseline"
	"github.com/tollgate-dev/tollgate/review/external"
	"github.com/tollgate-dev/tollgate/review/report"
	"github.com/tollgate-dev/tollgate/review/rules"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "where hooks are installed, which config applies, which scanners and model are set up",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			ctx := c.Context
			// The hooks are shown even when the config is broken: they are what runs on the
			// next commit, config or not.
			repo, err := openRepo(ctx)
			if err != nil {
				return err
			}
			s := &session{repo: repo}
			w := c.App.Writer
			printHooksStatus(ctx, w, s)
			if s, err = statusSession(ctx, w, c.String("config")); err != nil {
				return err
			}
			printConfigStatus(ctx, w, s)
			if err := printBaselineStatus(ctx, w, s); err != nil {
				return err
			}
			fmt.Fprintf(w, "agents:\n")
			printAgentStatus(w, s.repo.Root, s.cfg)
			return nil
		},
	}
}

// openRepo opens the repository that contains the working directory.
func openRepo(ctx context.Context) (*hook.Repo, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("failed to get working directory: %w", err)
	}
	return hook.Open(ctx, cwd)
}

// statusSession opens the session with its config; a broken config is said on w (after the
// hooks, which run whatever the config says) and returned.
func statusSession(ctx context.Context, w io.Writer, configFlag string) (*session, error) {
	s, err := openSession(ctx, configFlag, atIndex)
	if err == nil {
		err = s.wait()
	}
	if err != nil {
		fmt.Fprintf(w, "config:      broken, reviews exit 2 until it is fixed (the error follows)\n")
		return nil, err
	}
	return s, nil
}

// pathFallback says what a shim whose binary is gone runs instead: tollgate on PATH, or nothing.
func pathFallback() string {
	if p := onPath("tollgate"); p != "" {
		return "the hook falls back to " + p + " on PATH"
	}
	return "no tollgate on PATH either: the hook blocks every commit and push"
}

func gitleaksSource(s *session) string {
	if data, _ := policy.ReadRepoFile(s.boundary, ".gitleaks.toml"); data != nil {
		return " with the repository's .gitleaks.toml"
	}
	return ", defaults"
}

func scannerState(ctx context.Context, procs *policy.Procs, name string) string {
	if err := procs.Allow(name); err != nil {
		return err.Error()
	}
	path, err := procs.LookPath(name)
	if err != nil {
		return external.Missing(name) + " (until then reviews are incomplete)"
	}
	out, err := procs.Run(ctx, policy.Cmd{Name: name, Args: []string{"--version"}})
	ver := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	if err != nil || ver == "" {
		ver = "version unknown"
	}
	return fmt.Sprintf("found at %s (%s)", path, ver)
}

func onOff(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

// printHooksStatus prints where the hooks are and the state of each.
func printHooksStatus(ctx context.Context, w io.Writer, s *session) {
	fmt.Fprintf(w, "repository:  %s\n", s.repo.Root)
	fmt.Fprintf(w, "hooks dir:   %s\n", s.repo.HooksDir)
	hp, _ := s.repo.HooksPathConfig(ctx)
	if hp != "" {
		fmt.Fprintf(w, "             (core.hooksPath = %s)\n", hp)
	}
	for _, h := range s.repo.HookStates() {
		fmt.Fprintf(w, "  %-17s %s\n", h.Name+":", hookState(h))
	}
	printManagerStatus(w, s, hp)
	printSubmoduleStatus(ctx, w, s.repo)
}

// printManagerStatus prints the hook manager that runs the hooks, if any, and whether its
// configuration runs tollgate; when it does not for every hook, what to add.
// hp is core.hooksPath as configured.
func printManagerStatus(w io.Writer, s *session, hp string) {
	m := s.repo.DetectManager(hp, hook.Hooks)
	if m == nil {
		return
	}
	fmt.Fprintf(w, "manager:     %s (%s)\n", m.Name, m.Why)
	if len(m.RunsFor) > 0 {
		fmt.Fprintf(w, "             runs tollgate for: %s\n", strings.Join(m.RunsFor, ", "))
	}
	var missing []string
	for _, h := range hook.Hooks {
		if !slices.Contains(m.RunsFor, h) {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return
	}
	fmt.Fprintf(w, "             does not run tollgate for: %s; to add it:\n", strings.Join(missing, ", "))
	if m = s.repo.DetectManager(hp, missing); m != nil {
		for _, l := range m.Integration {
			fmt.Fprintf(w, "               %s\n", l)
		}
	}
}

func hookState(h hook.HookState) string {
	state := "not installed"
	switch {
	case h.Installed && h.BinaryGone:
		state = "BROKEN: runs " + h.Binary + ", which is gone (" + pathFallback() + "); run `tollgate install` with the tollgate you use now"
	case h.Installed && h.Outdated:
		state = "installed, runs " + h.Binary + " (written by another tollgate version: run `tollgate install` to update it)"
	case h.Installed:
		state = "installed, runs " + h.Binary
	case h.Foreign:
		state = "another hook is there (not tollgate's)"
	}
	if h.Chained {
		state += "; the earlier hook is kept and runs first"
		if hook.ReviewFirst(h.Name) {
			state = strings.TrimSuffix(state, "runs first") + "runs after tollgate's review passes"
		}
	}
	return state
}

// printBaselineStatus prints the baseline, if any, and its stale entries: those whose file is
// no longer at HEAD (in the index on a branch with no commit yet).
func printBaselineStatus(ctx context.Context, w io.Writer, s *session) error {
	set, err := s.main.baseline()
	if err != nil || set == nil {
		return err
	}
	rev := "HEAD"
	if head, _ := s.repo.Head(ctx); head == "" {
		rev = ""
	}
	stale := set.Stale(func(path string) bool {
		_, _, ok, err := s.repo.Stat(ctx, rev, path)
		return err != nil || ok // when in doubt, not stale
	})
	fmt.Fprintf(w, "baseline:    %s, %d entries, %d stale\n", baseline.FileName, len(set.Entries()), len(stale))
	if set.Version() == 1 {
		fmt.Fprintf(w, "             version 1: entries match only at their path; `tollgate baseline` rewrites it keyed by content\n")
	}
	for _, e := range stale {
		fmt.Fprintf(w, "  stale:     %s %s (the file is gone: run `tollgate baseline` to rewrite it)\n", report.Printable(e.Path), report.Printable(e.RuleID))
	}
	return nil
}

// printConfigStatus prints the config files that apply, the scanners and the model.
func printConfigStatus(ctx context.Context, w io.Writer, s *session) {
	files := "none (defaults)"
	if len(s.cfg.Files) > 0 {
		files = strings.Join(s.cfg.Files, ", ")
	}
	fmt.Fprintf(w, "config:      %s\n", files)
	fmt.Fprintf(w, "             fail_on = %s, max_findings = %d\n", s.cfg.FailOn, s.cfg.MaxFindings)
	_, _, gl := buildVersion()
	fmt.Fprintf(w, "scanners:    secrets (gitleaks %s rules%s), builtin (%d rules), injection: built in\n", gl, gitleaksSource(s), len(rules.All()))
	for _, name := range s.cfg.External {
		fmt.Fprintf(w, "  %-11s %s\n", name+":", scannerState(ctx, s.procs, name))
	}
	if len(s.cfg.External) == 0 {
		fmt.Fprintf(w, "             external: none enabled\n")
	}
	for _, n := range s.notes {
		fmt.Fprintf(w, "note:        %s\n", n)
	}
	if !s.cfg.Model.Configured() {
		fmt.Fprintf(w, "model:       none configured; nothing leaves this machine\n")
		return
	}
	fmt.Fprintf(w, "model:       %s %s (egress %s)\n", s.cfg.Model.Provider, s.cfg.Model.Name, onOff(s.cfg.Egress))
	if s.cfg.Model.AllowUnsafeArgs {
		fmt.Fprintf(w, "warning:     model.allow_unsafe_args = true: model.args %q reach the agent CLI unchecked (tollgate's read-only flags still come last)\n", s.cfg.Model.Args)
	}
}
