package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/external"
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
			s, err := openSession(ctx, c.String("config"))
			if err != nil {
				return err
			}
			if err := s.wait(); err != nil {
				return err
			}
			w := c.App.Writer
			fmt.Fprintf(w, "repository:  %s\n", s.repo.Root)
			fmt.Fprintf(w, "hooks dir:   %s\n", s.repo.HooksDir)
			if hp, _ := s.repo.HooksPathConfig(ctx); hp != "" {
				fmt.Fprintf(w, "             (core.hooksPath = %s)\n", hp)
			}
			for _, h := range s.repo.HookStates() {
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
				}
				fmt.Fprintf(w, "  %-17s %s\n", h.Name+":", state)
			}
			files := "none (defaults)"
			if len(s.cfg.Files) > 0 {
				files = strings.Join(s.cfg.Files, ", ")
			}
			fmt.Fprintf(w, "config:      %s\n", files)
			fmt.Fprintf(w, "             fail_on = %s, max_findings = %d\n", s.cfg.FailOn, s.cfg.MaxFindings)
			_, _, gl := buildVersion()
			fmt.Fprintf(w, "scanners:    secrets (gitleaks %s rules%s), builtin (%d rules), injection: built in\n", gl, gitleaksSource(s), len(rules.All()))
			for _, name := range s.cfg.External {
				fmt.Fprintf(w, "  %-11s %s\n", name+":", scannerState(ctx, name))
			}
			if len(s.cfg.External) == 0 {
				fmt.Fprintf(w, "             external: none enabled\n")
			}
			for _, n := range s.notes {
				fmt.Fprintf(w, "note:        %s\n", n)
			}
			if s.cfg.Model.Configured() {
				fmt.Fprintf(w, "model:       %s %s (egress %s)\n", s.cfg.Model.Provider, s.cfg.Model.Name, onOff(s.cfg.Egress))
				if s.cfg.Model.AllowUnsafeArgs {
					fmt.Fprintf(w, "warning:     model.allow_unsafe_args = true: model.args %q reach the agent CLI unchecked (tollgate's read-only flags still come last)\n", s.cfg.Model.Args)
				}
			} else {
				fmt.Fprintf(w, "model:       none configured; nothing leaves this machine\n")
			}
			fmt.Fprintf(w, "agents:\n")
			printAgentStatus(w, s.repo.Root, s.cfg)
			return nil
		},
	}
}

// pathFallback says what a shim whose binary is gone runs instead: tollgate on PATH, or nothing.
func pathFallback() string {
	// a lookup only (no process is started here: only policy may start one)
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, "tollgate")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return "the hook falls back to " + p + " on PATH"
		}
	}
	return "no tollgate on PATH either: the hook blocks every commit and push"
}

func gitleaksSource(s *session) string {
	if data, _ := readRepoFile(s.boundary, ".gitleaks.toml"); data != nil {
		return " with the repository's .gitleaks.toml"
	}
	return ", defaults"
}

func scannerState(ctx context.Context, name string) string {
	if err := policy.AllowProgram(name); err != nil {
		return err.Error()
	}
	path, err := policy.LookPath(name)
	if err != nil {
		return external.Missing(name) + " (until then reviews are incomplete)"
	}
	out, err := policy.Run(ctx, policy.Cmd{Name: name, Args: []string{"--version"}})
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
