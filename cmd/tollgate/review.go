package main

import (
	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/review/diff"
)

func reviewCommand() *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "review the staged set, a commit, a range or every file on demand",
		UsageText: "tollgate review [--staged | --commit REV | --range A..B | --all [--staged] | --all-history] [--format text|json|sarif] [--output FILE] [--fail-on SEVERITY] [--show-suppressed] [--config FILE]",
		Flags: []cli.Flag{
			&cli.BoolFlag{DisableDefaultText: true, Name: "staged", Usage: "review the staged set (the default)"},
			&cli.StringFlag{Name: "commit", Usage: "review one commit against its first parent"},
			&cli.StringFlag{Name: "range", Usage: "review every commit in `A..B`, each at its own content (ROOT..B: from the first commit)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "all", Usage: "review every file at HEAD (with --staged: every file in the index)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "all-history", Usage: "review every commit reachable from HEAD, the first one included (--range ROOT..HEAD)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "report format: text, json or sarif"},
			&cli.StringFlag{Name: "output", Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "fail-on", Usage: "fail at this `SEVERITY` or above (info, low, medium, high, critical)"},
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "no-color", Usage: "never colour the text report"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "no-cache", Usage: "ask the model even if the verdict cache has an answer for this material"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "show-suppressed", Usage: "list every suppressed, baselined and excluded finding or file (rule, path, line, by what)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if err := selection(c); err != nil {
				return err
			}
			out := output{format: c.String("format"), path: c.String("output"), failOn: c.String("fail-on"), noColor: c.Bool("no-color"),
				noCache: c.Bool("no-cache"), progress: c.App.ErrWriter, showSuppressed: c.Bool("show-suppressed")}
			if err := out.validate(); err != nil {
				return err
			}
			ctx := c.Context
			s, err := openSession(ctx, c.String("config"), reviewConfigAt(c))
			if err != nil {
				return err
			}
			s.tipBaseline = c.Bool("all-history") || c.IsSet("commit") || c.IsSet("range")
			var ch *diff.Change
			switch {
			case c.Bool("all"):
				ch, err = s.repo.All(ctx, c.Bool("staged"))
			case c.Bool("all-history"):
				historyMemory()
				ch, err = s.repo.Range(ctx, hook.RootRev+"..HEAD")
			case c.IsSet("commit"):
				ch, err = s.repo.Commit(ctx, c.String("commit"))
			case c.IsSet("range"):
				historyMemory()
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

// selection checks that the flags choose one change: --staged, --commit, --range, --all (which
// --staged turns to the index) or --all-history.
func selection(c *cli.Context) error {
	var set []string
	for _, f := range []string{"staged", "commit", "range", "all", "all-history"} {
		if c.IsSet(f) && !(f == "staged" && c.Bool("all")) {
			set = append(set, "--"+f)
		}
	}
	if len(set) > 1 {
		return usageError("%s and %s exclude each other (choose one of --staged, --commit, --range, --all, --all-history; --all --staged reviews every file in the index)", set[0], set[1])
	}
	return nil
}

// reviewConfigAt says where the review the flags choose reads the repository's config files:
// the index for a staged review, HEAD for --all, each commit for a commit or a range.
func reviewConfigAt(c *cli.Context) configAt {
	switch {
	case c.Bool("all") && c.Bool("staged"):
		return atIndex
	case c.Bool("all"):
		return atHead
	case c.Bool("all-history"), c.IsSet("commit"), c.IsSet("range"):
		return atCommits
	}
	return atIndex
}
