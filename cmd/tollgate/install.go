package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/review"
)

// transientBinary says why bin is a binary that does not last (`go run` builds into a go-build
// work directory under the temporary directory, and from Go 1.24 caches it in the build
// cache, both cleaned up by go), or "" for a binary that stays.
func transientBinary(bin string) string {
	cache := os.Getenv("GOCACHE")
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "go-build")
		}
	}
	if cache != "" && cache != "off" && filepath.IsAbs(cache) {
		if real, err := filepath.EvalSymlinks(cache); err == nil {
			cache = real
		}
		if rel, err := filepath.Rel(cache, bin); err == nil && filepath.IsLocal(rel) {
			return "it lies in the Go build cache (" + cache + "), probably built by `go run`"
		}
	}
	for _, part := range strings.Split(filepath.Dir(bin), string(filepath.Separator)) {
		if strings.HasPrefix(part, "go-build") {
			return "it lies in a Go build directory (" + part + "), probably built by `go run`"
		}
	}
	return ""
}

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
			if why := transientBinary(bin); why != "" {
				return &exitError{code: review.ExitCannotRun,
					err:  fmt.Errorf("refusing to install hooks that run %s: %s, so the hooks would stop working once it is cleaned up", bin, why),
					hint: "build tollgate once (go build -o ~/bin/tollgate ./cmd/tollgate, or go install github.com/tollgate-dev/tollgate/cmd/tollgate@latest) and run that binary's install"}
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
