package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
)

// Usage errors: one error line and one hint on stderr, never help text on stdout (the CLI
// library's "Incorrect Usage" and help are turned off on every command), a flag spelt as it is
// typed (--name), and "did you mean" when a command, hook or flag is one typo away.

// withUsageErrors sets the usage-error handler on every command and subcommand.
func withUsageErrors(cmds []*cli.Command, path string) {
	for _, c := range cmds {
		name := strings.TrimSpace(path + " " + c.Name)
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return flagError(err, name, c.Flags)
		}
		withUsageErrors(c.Subcommands, name)
	}
}

var (
	undefinedFlag = lazyre.New(`^flag provided but not defined: -+(.+)$`)
	flagNeedsArg  = lazyre.New(`^flag needs an argument: -+(.+)$`)
	invalidValue  = lazyre.New(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): (.*)$`)
	noHelpTopic   = lazyre.New(`^No help topic for '(.*)'$`)
)

// flagError rewrites the flag package's message for a command ("tollgate" itself when cmd is
// "") and adds a hint: the closest flag, or where to read the command's flags.
func flagError(err error, cmd string, flags []cli.Flag) error {
	where := "tollgate"
	if cmd != "" {
		where += " " + cmd
	}
	help := fmt.Sprintf("see `%s --help`", where)
	msg := err.Error()
	switch {
	case undefinedFlag.MatchString(msg):
		name := undefinedFlag.FindStringSubmatch(msg)[1]
		e := usageErrorHint(help, "unknown flag %s for `%s`", dashed(name), where)
		if s := policy.Suggest(name, flagNames(flags)); s != "" {
			e.hint = fmt.Sprintf("did you mean %s? (%s)", dashed(s), help)
		}
		return e
	case flagNeedsArg.MatchString(msg):
		return usageErrorHint(help, "%s needs a value", dashed(flagNeedsArg.FindStringSubmatch(msg)[1]))
	case invalidValue.MatchString(msg):
		m := invalidValue.FindStringSubmatch(msg)
		if strings.HasPrefix(msg, "invalid boolean") {
			return usageErrorHint(help, "bad value %q for %s (want true or false, or the flag alone)", m[1], dashed(m[2]))
		}
		return usageErrorHint(help, "bad value %q for %s: %s", m[1], dashed(m[2]), m[3])
	}
	return usageErrorHint(help, "%s", msg)
}

// usageErrorHint is a usage error (exit 2) with a hint.
func usageErrorHint(hint, format string, args ...any) *exitError {
	return &exitError{code: review.ExitCannotRun, err: fmt.Errorf(format, args...), hint: hint}
}

// dashed is a flag name as it is typed: -x for one letter, --name otherwise.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagNames lists every name (and alias) of flags, the hidden ones left out.
func flagNames(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		out = append(out, f.Names()...)
	}
	return append(out, "help")
}

// commandNames lists the visible commands' names.
func commandNames(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c.Names()...)
		}
	}
	return out
}

// unknownChoice is the usage error for a word that is not one of choices (a command, a hook):
// it names them and, when the word is one typo away from one, suggests it.
func unknownChoice(what, typed string, choices []string, help string) error {
	e := usageErrorHint(help, "unknown %s %q (want %s)", what, typed, orList(choices))
	if s := policy.Suggest(typed, choices); s != "" {
		e.hint = fmt.Sprintf("did you mean %q? (%s)", s, help)
	}
	return e
}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// helpTopicError rewrites the CLI library's error for `tollgate help NAME` with an unknown name.
func helpTopicError(err error, cmds []*cli.Command) error {
	m := noHelpTopic.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	return unknownChoice("command", m[1], commandNames(cmds), "see `tollgate help`")
}

// pluralWord is n and noun, in the plural unless n is 1.
func pluralWord(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
