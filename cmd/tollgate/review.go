package main

import (
	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/review/diff"
)

func reviewCommand() *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "review the staged set, a commit or a range on demand",
		UsageText: "tollgate review [--staged | --commit REV | --range A..B] [--format text|json|sarif] [--output FILE] [--fail-on SEVERITY] [--config FILE]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "staged", Usage: "review the staged set (the default)"},
			&cli.StringFlag{Name: "commit", Usage: "review one commit against its first parent"},
			&cli.StringFlag{Name: "range", Usage: "review every commit in `A..B`, each at its own content"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "report format: text, json or sarif"},
			&cli.StringFlag{Name: "output", Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "fail-on", Usage: "fail at this `SEVERITY` or above (info, low, medium, high, critical)"},
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
			&cli.BoolFlag{Name: "no-color", Usage: "never colour the text report"},
			&cli.BoolFlag{Name: "no-cache", Usage: "ask the model even if the verdict cache has an answer for this material"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			n := 0
			for _, f := range []string{"staged", "commit", "range"} {
				if c.IsSet(f) {
					n++
				}
			}
			if n > 1 {
				return usageError("--staged, --commit and --range exclude each other")
			}
			out := output{format: c.String("format"), path: c.String("output"), failOn: c.String("fail-on"), noColor: c.Bool("no-color"),
				noCache: c.Bool("no-cache"), progress: c.App.ErrWriter}
			if err := out.validate(); err != nil {
				return err
			}
			ctx := c.Context
			s, err := openSession(ctx, c.String("config"))
			if err != nil {
				return err
			}
			var ch *diff.Change
			switch {
			case c.IsSet("commit"):
				ch, err = s.repo.Commit(ctx, c.String("commit"))
			case c.IsSet("range"):
				ch, err = s.repo.Range(ctx, c.String("range"))
			default:
				ch, err = s.repo.Staged(ctx)
			}
			if err != nil {
				return err
			}
			return s.review(ctx, ch, out, c.App.Writer)
		},
	}
}
