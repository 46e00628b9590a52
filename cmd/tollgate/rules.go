package main

import (
	"errors"
	"os"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/injection"
	"github.com/tollgate-dev/tollgate/review/report"
	"github.com/tollgate-dev/tollgate/review/rules"
	"github.com/tollgate-dev/tollgate/review/secrets"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list every rule a review applies: id, severity, CWE and what it catches",
		UsageText: "tollgate rules [--format text|json]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageError("unknown --format %q (want text or json)", format)
			}
			det, err := rulesDetector(c)
			if err != nil {
				return err
			}
			return report.WriteRules(c.App.Writer, format, allRules(det))
		},
	}
}

// allRules lists tollgate's own rules, the prompt-injection rule, then the detector's gitleaks
// rules by id.
func allRules(det *redact.Detector) []review.Rule {
	out := append(rules.All(), injection.Rule)
	gl := secrets.Rules(det)
	sort.Slice(gl, func(i, j int) bool { return gl[i].ID < gl[j].ID })
	return append(out, gl...)
}

// rulesDetector builds the secret detector a review here would use: the repository's
// .gitleaks.toml when run inside one that has it, gitleaks' defaults otherwise.
func rulesDetector(c *cli.Context) (*redact.Detector, error) {
	var glConfig []byte
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := hook.Open(c.Context, cwd)
	switch {
	case errors.Is(err, hook.ErrNotRepository):
	case err != nil:
		return nil, err
	default:
		strict, err := policy.NewBoundary(repo.Root, false)
		if err != nil {
			return nil, err
		}
		if glConfig, err = policy.ReadRepoFile(strict, ".gitleaks.toml"); err != nil {
			return nil, err
		}
	}
	det, err := redact.New(redact.Options{RepoConfig: glConfig, RepoConfigName: ".gitleaks.toml"})
	if err != nil {
		return nil, &policy.ConfigError{File: ".gitleaks.toml", Msg: err.Error()}
	}
	return det, nil
}
