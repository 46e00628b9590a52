package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented .tollgate.toml with every default at the repository root",
		UsageText: "tollgate init [--force] [--stdout]",
		Flags: []cli.Flag{
			&cli.BoolFlag{DisableDefaultText: true, Name: "force", Usage: "overwrite an existing .tollgate.toml"},
			&cli.BoolFlag{DisableDefaultText: true, Name: "stdout", Usage: "print the file instead of writing it"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.Bool("stdout") {
				_, err := fmt.Fprint(c.App.Writer, policy.InitTemplate)
				return err
			}
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("failed to get working directory: %w", err)
			}
			repo, err := hook.Open(c.Context, cwd)
			if err != nil {
				return err
			}
			path := filepath.Join(repo.Root, policy.RepoConfigName)
			flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if c.Bool("force") {
				flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return fmt.Errorf("failed to write %s: it is a symbolic link", path)
			}
			f, err := os.OpenFile(path, flags, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return &exitError{code: review.ExitCannotRun, err: fmt.Errorf("%s already exists", path), hint: "use --force to overwrite it, or --stdout to see the defaults"}
			}
			if err != nil {
				return fmt.Errorf("failed to write %s: %w", path, err)
			}
			if _, err := f.WriteString(policy.InitTemplate); err != nil {
				f.Close()
				return fmt.Errorf("failed to write %s: %w", path, err)
			}
			if err := f.Close(); err != nil {
				return fmt.Errorf("failed to write %s: %w", path, err)
			}
			fmt.Fprintf(c.App.Writer, "tollgate: wrote %s\n", path)
			return nil
		},
	}
}
