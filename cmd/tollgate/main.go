// Command tollgate reviews what a commit or push is about to let out of this machine.
//
// main only maps errors to exit codes; each subcommand is one file that binds flags and calls
// the hook, review and policy packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/guard/serve"
	"github.com/tollgate-dev/tollgate/review/report"
)

func main() {
	// A review is short-lived and holds the whole change in memory: collect garbage twice as
	// often as Go's default, which keeps peak memory below gitleaks' on large changes for ~5%
	// more CPU (scripts/bench.sh). GOGC in the environment still wins. A guard call collects
	// only near the memory limit (serve.GuardGC), from the start: lowering the percent first
	// would collect the start-up heap at once.
	setMemoryLimit()
	if len(os.Args) > 1 && os.Args[1] == "guard" {
		serve.GuardGC()
	} else if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitError carries an exit code; a nil err means the report already said everything.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad command-line use (exit 2).
func usageError(format string, args ...any) error {
	return &exitError{code: review.ExitCannotRun, err: fmt.Errorf(format, args...)}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	err := app.RunContext(ctx, args)
	if err == nil {
		return review.ExitClean
	}
	err = helpTopicError(err, app.Commands)
	code, hint := review.ExitCannotRun, ""
	var ee *exitError
	if errors.As(err, &ee) {
		code, hint = ee.code, ee.hint
		if ee.err == nil {
			return code
		}
	}
	var ce *policy.ConfigError
	switch {
	case errors.As(err, &ce) && ce.Suggest != "":
		hint = fmt.Sprintf("did you mean `%s`? (`tollgate init --stdout` prints every key with its default)", ce.Suggest)
	case errors.As(err, &ce) && ce.Key == "":
		hint = "fix the file named above"
	case errors.As(err, &ce):
		hint = "fix the key named above; `tollgate init --stdout` prints every key with its default"
	case errors.Is(err, hook.ErrNoHead):
		hint = "use `tollgate review --all --staged` to review every file in the index"
	case errors.Is(err, hook.ErrNotRepository):
		hint = "run tollgate inside a git work tree"
	case errors.Is(err, hook.ErrBare):
		hint = "in a bare repository review a commit or range (tollgate review --commit REV, --range A..B), or review pushes with tollgate install --hooks pre-receive"
	case errors.Is(err, hook.ErrHooksPath):
		hint = "another hook manager owns the hooks (core.hooksPath); use `tollgate install --force` to install there anyway, or add tollgate to that manager"
	}
	// An error may quote a repository's file (a .gitleaks.toml regex, a path): escaped, so it
	// can never drive the terminal.
	fmt.Fprintf(stderr, "tollgate: error: %s\n", report.Printable(err.Error()))
	if hint != "" {
		fmt.Fprintf(stderr, "tollgate: hint: %s\n", report.Printable(hint))
	}
	return code
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:                 "tollgate",
		Usage:                "stop secrets, insecure code and prompt injection before they leave this machine",
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		HideVersion:          true,
		EnableBashCompletion: false,
		ExitErrHandler:       func(*cli.Context, error) {},
		Flags: []cli.Flag{
			&cli.BoolFlag{DisableDefaultText: true, Name: "version", Usage: "print the version, commit and Go version (as `tollgate version`)"},
		},
		Commands: []*cli.Command{
			installCommand(),
			uninstallCommand(),
			statusCommand(),
			hookCommand(),
			reviewCommand(),
			baselineCommand(),
			rulesCommand(),
			initCommand(),
			versionCommand(),
			guardCommand(),
		},
	}
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return flagError(err, "", app.Flags) }
	withUsageErrors(app.Commands, "")
	app.Action = func(c *cli.Context) error {
		if c.Args().Len() > 0 {
			return unknownChoice("command", c.Args().First(), commandNames(app.Commands), "see `tollgate help`")
		}
		if c.Bool("version") {
			return printVersion(c.App.Writer)
		}
		return cli.ShowAppHelp(c)
	}
	return app
}

// noArgs rejects positional arguments for commands that take none.
func noArgs(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usageError("%s takes no arguments, got %q", c.Command.Name, c.Args().First())
	}
	return nil
}
