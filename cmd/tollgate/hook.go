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
// entry tells a push from a commit by PRE_COMMIT_TO_REF, so one manifest serves both stages.
func runHook(c *cli.Context, push bool) error {
	ctx := c.Context
	framework := os.Getenv("PRE_COMMIT") == "1"
	if framework {
		push = os.Getenv("PRE_COMMIT_TO_REF") != ""
	}
	s, err := openSession(ctx, "")
	if err != nil {
		return err
	}
	var ch *review.Change
	if push {
		remote := c.Args().First()
		if remote == "" {
			remote = os.Getenv("PRE_COMMIT_REMOTE_NAME")
		}
		refs, err := hook.ParsePushLines(c.App.Reader)
		if err != nil {
			return err
		}
		if len(refs) == 0 && framework {
			refs = hook.PushFromEnv()
		}
		if ch, err = s.repo.Push(ctx, remote, refs); err != nil {
			return err
		}
	} else if ch, err = s.repo.Staged(ctx); err != nil {
		return err
	}
	return s.review(ctx, ch, output{format: "text"}, c.App.Writer)
}
