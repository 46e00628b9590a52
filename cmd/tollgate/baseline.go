package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/baseline"
	"github.com/tollgate-dev/tollgate/review/diff"
)

func baselineCommand() *cli.Command {
	return &cli.Command{
		Name:      "baseline",
		Usage:     "accept today's findings: write .tollgate-baseline.json, which later reviews drop and count",
		UsageText: "tollgate baseline [--all | --range A..B] [--output FILE] [--config FILE]",
		Flags: []cli.Flag{
			&cli.BoolFlag{DisableDefaultText: true, Name: "all", Usage: "every file at HEAD (the default)"},
			&cli.StringFlag{Name: "range", Usage: "every commit in `A..B`, each at its own content (ROOT..B: from the first commit)"},
			&cli.StringFlag{Name: "output", Usage: "write the baseline to `FILE` (default: .tollgate-baseline.json at the repository root)"},
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("all") && c.IsSet("range") {
				return usageError("--all and --range exclude each other")
			}
			ctx := c.Context
			at := atHead
			if c.IsSet("range") {
				at = atCommits
			}
			s, err := openSession(ctx, c.String("config"), at)
			if err != nil {
				return err
			}
			var ch *diff.Change
			if c.IsSet("range") {
				historyMemory()
				ch, err = s.repo.Range(ctx, c.String("range"))
			} else {
				ch, err = s.repo.All(ctx, false)
			}
			if err != nil {
				return err
			}
			var found []review.Finding
			out := output{format: "json", path: os.DevNull, collect: func(fs []review.Finding) {
				found = append(found, fs...)
			}}
			// Findings are what goes in; a review that did not finish (exit 3) writes nothing, so
			// a baseline never misses what a scanner that did not run would have found.
			if err := s.review(ctx, ch, out, io.Discard); err != nil {
				var ee *exitError
				if !errors.As(err, &ee) || ee.code != review.ExitFindings {
					return err
				}
			}
			path := c.String("output")
			if path == "" {
				path = filepath.Join(s.repo.Root, baseline.FileName)
			}
			return writeBaseline(c.App.Writer, path, found)
		},
	}
}

// writeBaseline writes the baseline of found to path and says what it holds.
func writeBaseline(w io.Writer, path string, found []review.Finding) error {
	f, err := baseline.Build(found)
	if err != nil {
		return err
	}
	data, err := f.Marshal()
	if err != nil {
		return fmt.Errorf("failed to write the baseline: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("failed to write the baseline: %w", err)
	}
	entries := fmt.Sprintf("%d entries", len(f.Entries))
	if len(f.Entries) == 1 {
		entries = "1 entry"
	}
	fmt.Fprintf(w, "tollgate: wrote %s for %s to %s (hashes only: no secret is stored)\n",
		entries, pluralWord(len(found), "finding"), path)
	fmt.Fprintf(w, "tollgate: hint: commit it; reviews now drop these findings and count them (`tollgate review --show-suppressed` lists them)\n")
	return nil
}
