package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/guard"
	"github.com/tollgate-dev/tollgate/review/guard/serve"
)

func guardCommand() *cli.Command {
	return &cli.Command{
		Name:      "guard",
		Usage:     "judge one coding-agent tool call (the agent's pre-tool hook): deny, ask, or no objection",
		UsageText: "tollgate guard --agent claude|codex|gemini|cursor|copilot [--config FILE]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "the agent whose hook format is on stdin: " + strings.Join(agent.Names(), ", ")},
			&cli.StringFlag{Name: "config", Usage: "user config `FILE` (instead of ~/.config/tollgate/config.toml)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			serve.GuardGC()
			a, ok := agent.Get(c.String("agent"))
			if !ok {
				return usageError("--agent must be one of %s, got %q", strings.Join(agent.Names(), ", "), c.String("agent"))
			}
			data, err := serve.Read(c.App.Reader)
			out, _ := serve.Judge(c.Context, a, data, err, c.String("config"), fullExtras(c.App.ErrWriter), c.App.ErrWriter)
			c.App.Writer.Write(out.Stdout)
			if out.Stderr != "" {
				fmt.Fprintln(c.App.ErrWriter, out.Stderr)
			}
			if out.Exit != 0 {
				return &exitError{code: out.Exit}
			}
			return nil
		},
	}
}

// fullExtras are what this binary adds to the lean guard: gitleaks' detector (built only when
// a call has content to scan or redact, or an audit field may hold a secret), the review
// scanners and the model. stderr gets the warnings that change no decision (a cache not written).
func fullExtras(stderr io.Writer) serve.Extras {
	var once sync.Once
	var det *redact.Detector
	var err error
	build := func() (*redact.Detector, error) {
		once.Do(func() { det, err = redact.New(redact.Options{}) })
		return det, err
	}
	return serve.Extras{
		Detector: func() (guard.Detector, error) {
			d, err := build()
			if err != nil {
				return nil, err
			}
			return d, nil
		},
		Secrets: func(text string) ([]string, error) {
			d, err := build()
			if err != nil {
				return nil, err
			}
			// The secret groups only (not each rule's whole match, which the model filter
			// also replaces): the audit line keeps the words around a secret readable.
			found, err := d.Scan("", text, 1)
			if err != nil {
				return nil, err
			}
			var values []string
			for _, f := range found {
				values = append(values, f.Value)
			}
			for _, line := range strings.Split(text, "\n") {
				for _, t := range redact.FindTokens(line) {
					values = append(values, t.Value)
				}
			}
			return values, nil
		},
		Content: reviewContentCheck,
		Model: func(ctx context.Context, call guard.Call, session string, ans guard.Answer, cfg policy.Config, opts guard.Options, project string) (guard.Answer, string) {
			ans, source, warn := consultModel(ctx, call, session, ans, cfg, opts, build, project)
			if warn != nil {
				fmt.Fprintf(stderr, "tollgate: warning: %v\n", warn)
			}
			return ans, source
		},
	}
}
