package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/internal/fspath"
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
		if fspath.Within(cache, bin) {
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

// hookList parses --hooks: known names, each once; pre-commit brings pre-merge-commit (git
// merge commits without running pre-commit) and commit-msg (the message) along.
func hookList(arg string) ([]string, error) {
	known := append(append([]string{}, hook.Hooks...), hook.ServerHooks...)
	var hooks []string
	for _, h := range strings.Split(arg, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if !slices.Contains(known, h) {
			return nil, usageError("unknown hook %q in --hooks (want %s)", h, strings.Join(known, ", "))
		}
		if !slices.Contains(hooks, h) {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return nil, usageError("--hooks names no hook")
	}
	for _, along := range []string{"commit-msg", "pre-merge-commit"} {
		if slices.Contains(hooks, "pre-commit") && !slices.Contains(hooks, along) {
			i := slices.Index(hooks, "pre-commit")
			hooks = slices.Insert(hooks, i+1, along)
		}
	}
	return hooks, nil
}

// bareHooks picks the hooks for a bare repository: pre-receive by default, and never a hook
// that runs only where commits are made or pushed from.
func bareHooks(repo *hook.Repo, hooks []string, explicit bool) ([]string, error) {
	if !repo.Bare {
		return hooks, nil
	}
	if !explicit {
		return hook.ServerHooks, nil
	}
	for _, h := range hooks {
		if !slices.Contains(hook.ServerHooks, h) {
			return nil, usageError("%s is a bare repository: nothing is committed or pushed from it, so a %s hook never runs (install --hooks pre-receive)", repo.Root, h)
		}
	}
	return hooks, nil
}

func installCommand() *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "write the hook shims into the hooks directory git uses",
		UsageText: "tollgate install [--hooks pre-commit,pre-push] [--force] (pre-commit brings pre-merge-commit and commit-msg along)\n   tollgate install --agent claude[,codex,gemini,cursor,copilot] [--user]",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "hooks", Value: "pre-commit,pre-push", Usage: "comma-separated hooks to install: pre-commit (with pre-merge-commit and commit-msg), pre-merge-commit, commit-msg, pre-push; pre-receive on a server (the default in a bare repository)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "force", Usage: "install even where core.hooksPath points to another directory"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "recurse-submodules", Usage: "install into every initialised submodule too (and theirs)"},
		}, agentFlags()...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("agent") {
				return installAgents(c)
			}
			hooks, err := hookList(c.String("hooks"))
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
			if hooks, err = bareHooks(repo, hooks, c.IsSet("hooks")); err != nil {
				return err
			}
			defer repo.Close()
			opts := hook.InstallOptions{Hooks: hooks, Force: c.Bool("force"), Binary: bin}
			msgs, err := repo.Install(c.Context, opts)
			for _, m := range msgs {
				fmt.Fprintln(c.App.Writer, "tollgate: "+m)
			}
			if err != nil && !printManaged(c.App.Writer, "", err) {
				return err
			}
			return installSubmodules(c.Context, c.App.Writer, repo, opts, c.Bool("recurse-submodules"))
		},
	}
}

// printManaged prints, when err says that another hook manager runs the hooks (husky,
// lefthook, the pre-commit framework, a tracked hooks directory), what happened and the lines
// to add to that manager, and reports true: that is an answer, not a failure, so install exits
// 0 and `tollgate install && ...` in a setup script goes on. Any other error is left to the
// caller (exit 2). where prefixes the lines ("submodule PATH: ", or "").
func printManaged(w io.Writer, where string, err error) bool {
	var me *hook.ManagedError
	if !errors.As(err, &me) {
		return false
	}
	fmt.Fprintf(w, "tollgate: %s%s\n", where, me.Error())
	if len(me.M.RunsFor) > 0 {
		fmt.Fprintf(w, "tollgate: %s%s already runs tollgate for: %s\n", where, me.M.Name, strings.Join(me.M.RunsFor, ", "))
	}
	fmt.Fprintf(w, "tollgate: to run tollgate through %s:\n", me.M.Name)
	for _, l := range me.M.Integration {
		fmt.Fprintln(w, "  "+l)
	}
	return true
}
