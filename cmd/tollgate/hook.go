package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/review"
)

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "what the installed shims run (also the pre-commit framework's entry)",
		Action: func(c *cli.Context) error {
			if c.Args().Len() == 0 {
				return usageError("hook needs a hook name: pre-commit or pre-push")
			}
			return usageError("unknown hook %q (want pre-commit or pre-push)", c.Args().First())
		},
		Subcommands: []*cli.Command{
			{
				Name:      "pre-commit",
				Usage:     "review the staged set",
				UsageText: "tollgate hook pre-commit",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					return runHook(c, false)
				},
			},
			{
				Name:      "pre-push",
				Usage:     "review every commit being pushed (git's ref lines on stdin)",
				UsageText: "tollgate hook pre-push REMOTE URL",
				Action: func(c *cli.Context) error {
					if c.Args().Len() > 2 {
						return usageError("pre-push takes REMOTE and URL, got %d arguments", c.Args().Len())
					}
					return runHook(c, true)
				},
			},
		},
	}
}

// runHook reviews what the hook guards. Under the pre-commit framework (PRE_COMMIT=1) either
// entry tells a push from a commit by PRE_COMMIT_TO_REF (or, for a push that starts at a root
// commit, where the framework sets no refs, PRE_COMMIT_LOCAL_BRANCH), so one manifest serves
// both stages. git's own pre-push shim passes REMOTE and URL and stays a push whatever the
// environment says.
func runHook(c *cli.Context, push bool) error {
	ctx := c.Context
	framework := os.Getenv("PRE_COMMIT") == "1"
	if framework && !(push && c.Args().Len() == 2) {
		push = os.Getenv("PRE_COMMIT_TO_REF") != "" || os.Getenv("PRE_COMMIT_LOCAL_BRANCH") != ""
	}
	s, err := openSession(ctx, "")
	if err != nil {
		return err
	}
	var ch *review.Change
	if push {
		remote, url := c.Args().Get(0), c.Args().Get(1)
		if remote == "" {
			remote, url = os.Getenv("PRE_COMMIT_REMOTE_NAME"), os.Getenv("PRE_COMMIT_REMOTE_URL")
		}
		refs, err := hook.ParsePushLines(c.App.Reader)
		if err != nil {
			return err
		}
		if len(refs) == 0 && framework {
			refs = hook.PushFromEnv()
		}
		if ch, err = s.repo.Push(ctx, remote, url, refs); err != nil {
			return err
		}
	} else if ch, err = s.repo.Staged(ctx); err != nil {
		return err
	}
	if err := s.wait(); err != nil {
		return err
	}
	s.notes = append(s.notes, s.repo.Notes...)
	// githooks(5): a hook reports on stderr (git 2.39 passes a pre-push hook's stdout through).
	return s.review(ctx, ch, output{format: "text", progress: c.App.ErrWriter}, c.App.ErrWriter)
}
