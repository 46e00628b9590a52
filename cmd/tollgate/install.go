package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
)

func installCommand() *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "write the hook shims into the hooks directory git uses",
		UsageText: "tollgate install [--hooks pre-commit,pre-push] [--force] (pre-commit brings pre-merge-commit along)\n   tollgate install --agent claude[,codex,gemini,cursor,copilot] [--user]",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "hooks", Value: "pre-commit,pre-push", Usage: "comma-separated hooks to install: pre-commit (with pre-merge-commit), pre-merge-commit, pre-push"},
			&cli.BoolFlag{Name: "force", Usage: "install even where core.hooksPath points to another directory"},
		}, agentFlags()...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("agent") {
				return installAgents(c)
			}
			var hooks []string
			for _, h := range strings.Split(c.String("hooks"), ",") {
				h = strings.TrimSpace(h)
				if h == "" {
					continue
				}
				if !slices.Contains(hook.Hooks, h) {
					return usageError("unknown hook %q in --hooks (want %s)", h, strings.Join(hook.Hooks, ", "))
				}
				if !slices.Contains(hooks, h) {
					hooks = append(hooks, h)
				}
			}
			if len(hooks) == 0 {
				return usageError("--hooks names no hook")
			}
			// git merge commits without running pre-commit: its pre-merge-commit goes along.
			if slices.Contains(hooks, "pre-commit") && !slices.Contains(hooks, "pre-merge-commit") {
				i := slices.Index(hooks, "pre-commit")
				hooks = slices.Insert(hooks, i+1, "pre-merge-commit")
			}
			bin, err := os.Executable()
			if err != nil {
				return fmt.Errorf("failed to find the tollgate binary: %w", err)
			}
			if real, err := filepath.EvalSymlinks(bin); err == nil {
				bin = real
			}
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("failed to get working directory: %w", err)
			}
			repo, err := hook.Open(c.Context, cwd)
			if err != nil {
				return err
			}
			msgs, err := repo.Install(c.Context, hook.InstallOptions{Hooks: hooks, Force: c.Bool("force"), Binary: bin})
			for _, m := range msgs {
				fmt.Fprintln(c.App.Writer, "tollgate: "+m)
			}
			return err
		},
	}
}
