package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
)

func uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove tollgate's shims and restore the hooks install kept",
		Flags: agentFlags(),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("agent") {
				return uninstallAgents(c)
			}
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("failed to get working directory: %w", err)
			}
			repo, err := hook.Open(c.Context, cwd)
			if err != nil {
				return err
			}
			msgs, err := repo.Uninstall(c.Context)
			for _, m := range msgs {
				fmt.Fprintln(c.App.Writer, "tollgate: "+m)
			}
			return err
		},
	}
}
