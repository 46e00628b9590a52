package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/baseline"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/report"
)

func baselineCommand() *cli.Command {
	return &cli.Command{
		Name:      "baseline",
		Usage:     "accept today's findings: write .tollgate-baseline.json, which later reviews drop and count",
		UsageText: "tollgate baseline [--all | --staged | --commit REV | --range A..B | --all-history] [--output FILE] [--config FILE]",
		Flags: []cli.Flag{
			&cli.BoolFlag{DisableDefaultText: true, Name: "all", Usage: "every file at HEAD (the default)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "staged", Usage: "the staged change: accept a finding before it is committed (then stage the baseline with it)"},
			&cli.StringFlag{Name: "commit", Usage: "one commit against its first parent"},
			&cli.StringFlag{Name: "range", Usage: "every commit in `A..B`, each at its own content (ROOT..B: from the first commit)"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "all-history", Usage: "every commit reachable from HEAD and every file at HEAD: one baseline for both review --all and review --all-history"},
			&cli.StringFlag{Name: "output", Usage: "write the baseline to `FILE` (default: .tollgate-baseline.json at the repository root)"},
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			var set []string
			for _, f := range []string{"all", "staged", "commit", "range", "all-history"} {
				if c.IsSet(f) {
					set = append(set, "--"+f)
				}
			}
			if len(set) > 1 {
				return usageError("%s and %s exclude each other (choose one of --all, --staged, --commit, --range, --all-history)", set[0], set[1])
			}
			var found []review.Finding
			var root string
			for _, sel := range baselineSelections(c) {
				fs, r, err := baselineFindings(c.Context, c.App.ErrWriter, c.String("config"), sel)
				if err != nil {
					return err
				}
				found, root = append(found, fs...), r
			}
			path := c.String("output")
			if path == "" {
				path = filepath.Join(root, baseline.FileName)
			}
			return writeBaseline(c.App.Writer, path, found, c.Bool("staged"), c.Bool("staged") || c.IsSet("commit"))
		},
	}
}

// baselineSelection is one change a baseline is made of.
type baselineSelection struct {
	at   configAt
	read func(ctx context.Context, r *hook.Repo) (*diff.Change, error)
}

// baselineSelections are the changes the flags choose, HEAD's files first (Build keeps the
// path of the first finding of each entry as its hint: the name the file has now).
func baselineSelections(c *cli.Context) []baselineSelection {
	head := baselineSelection{atHead, func(ctx context.Context, r *hook.Repo) (*diff.Change, error) { return r.All(ctx, false) }}
	commits := func(rng string) baselineSelection {
		return baselineSelection{atCommits, func(ctx context.Context, r *hook.Repo) (*diff.Change, error) {
			historyMemory()
			return r.Range(ctx, rng)
		}}
	}
	switch {
	case c.Bool("staged"):
		return []baselineSelection{{atIndex, func(ctx context.Context, r *hook.Repo) (*diff.Change, error) { return r.Staged(ctx) }}}
	case c.IsSet("commit"):
		rev := c.String("commit")
		return []baselineSelection{{atCommits, func(ctx context.Context, r *hook.Repo) (*diff.Change, error) { return r.Commit(ctx, rev) }}}
	case c.IsSet("range"):
		return []baselineSelection{commits(c.String("range"))}
	case c.Bool("all-history"):
		// Both: a file's content at HEAD is normally in the history too, but a finding that
		// depends on the whole file (a key file by name, a multi-line match) may differ.
		return []baselineSelection{head, commits(hook.RootRev + "..HEAD")}
	}
	return []baselineSelection{head}
}

// baselineFindings reviews one selection and returns every finding, unmasked, and the
// repository's root. A review that did not finish and found nothing (exit 3) is an error; one
// with findings too is written, with a warning on w for each thing that did not run.
func baselineFindings(ctx context.Context, w io.Writer, config string, sel baselineSelection) ([]review.Finding, string, error) {
	s, err := openSession(ctx, config, sel.at)
	if err != nil {
		return nil, "", err
	}
	ch, err := sel.read(ctx, s.repo)
	if err != nil {
		return nil, "", err
	}
	var found []review.Finding
	var notRun []review.NotRun
	out := output{format: "json", path: os.DevNull,
		collect: func(fs []review.Finding) { found = append(found, fs...) },
		notRun:  func(n []review.NotRun) { notRun = n }}
	if err := s.review(ctx, ch, out, io.Discard); err != nil {
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != review.ExitFindings {
			return nil, "", err
		}
	}
	// Findings and something not run: the findings are written, and what did not run stays
	// "not run" in every later review (a baseline accepts findings, never an unread file).
	for _, n := range notRun {
		fmt.Fprintf(w, "tollgate: warning: not run: %s: %s (the baseline holds none of its findings; reviews keep reporting it as not run)\n",
			report.Printable(n.Component), report.Printable(n.Reason))
	}
	return found, s.repo.Root, nil
}

// writeBaseline writes the baseline of found to path and says what it holds, and what to do
// next (staged: stage it, since a staged review reads the baseline from the index). With
// extend (--staged, --commit: one more accepted change) the file already at path keeps its
// entries and gets the new ones; without, it is written anew (--all, --range, --all-history:
// what is accepted now).
func writeBaseline(w io.Writer, path string, found []review.Finding, staged, extend bool) error {
	f, added, err := baselineFile(path, found, extend)
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
	if added >= 0 {
		entries += fmt.Sprintf(" (%d new)", added)
	}
	fmt.Fprintf(w, "tollgate: wrote %s for %s to %s (hashes only: no secret is stored)\n",
		entries, pluralWord(len(found), "finding"), path)
	if staged {
		fmt.Fprintf(w, "tollgate: hint: stage it with the change (`git add %s`) and commit: the commit's review reads the baseline from the index, drops these findings and counts them\n", filepath.Base(path))
		return nil
	}
	fmt.Fprintf(w, "tollgate: hint: commit it; reviews now drop these findings and count them (`tollgate review --show-suppressed` lists them)\n")
	return nil
}

// baselineFile is the baseline to write: found added to the file at path (extend, when there
// is one; added says how many entries are new), or found alone (added -1). A file at path
// that does not parse is an error: it is never silently replaced.
func baselineFile(path string, found []review.Finding, extend bool) (f baseline.File, added int, err error) {
	if extend {
		data, rerr := os.ReadFile(path)
		switch {
		case rerr == nil:
			old, perr := baseline.Parse(path, data)
			if perr != nil {
				return f, 0, &exitError{code: review.ExitCannotRun, err: perr, hint: "fix or remove the file, then run tollgate baseline again"}
			}
			if f, err = baseline.Extend(old, found); err != nil {
				return f, 0, &exitError{code: review.ExitCannotRun, err: fmt.Errorf("failed to add to %s: %w", path, err)}
			}
			return f, len(f.Entries) - len(old.Entries()), nil
		case !errors.Is(rerr, fs.ErrNotExist):
			return f, 0, fmt.Errorf("failed to read the baseline: %w", rerr)
		}
	}
	f, err = baseline.Build(found)
	return f, -1, err
}
