package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// shimFlag marks a run from tollgate's own git hook shim: the pre-commit framework's variables
// (possibly left in the environment by whatever ran git) then decide nothing.
var shimFlag = &cli.BoolFlag{DisableDefaultText: true, Name: "shim", Hidden: true, Usage: "run by tollgate's own git hook shim"}

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "what the installed shims run (also the pre-commit framework's entry)",
		Action: func(c *cli.Context) error {
			if c.Args().Len() == 0 {
				return usageError("hook needs a hook name: pre-commit, pre-merge-commit, commit-msg, pre-push or pre-receive")
			}
			return unknownChoice("hook", c.Args().First(), commandNames(c.Command.Subcommands), "see `tollgate hook --help`")
		},
		Subcommands: []*cli.Command{
			{
				Name:      "pre-commit",
				Usage:     "review the staged set",
				UsageText: "tollgate hook pre-commit",
				Flags:     []cli.Flag{shimFlag},
				Action:    stagedHook,
			},
			{
				Name:      "pre-merge-commit",
				Usage:     "review the staged result of a merge (the index against HEAD)",
				UsageText: "tollgate hook pre-merge-commit",
				Flags:     []cli.Flag{shimFlag},
				Action:    stagedHook,
			},
			{
				Name:      "commit-msg",
				Usage:     "review the message being committed (git passes its file)",
				UsageText: "tollgate hook commit-msg FILE",
				Flags:     []cli.Flag{shimFlag},
				Action:    messageHook,
			},
			{
				Name:      "pre-receive",
				Usage:     "server side: review every commit a push brings (git's <old> <new> <ref> lines on stdin)",
				UsageText: "tollgate hook pre-receive",
				Flags:     []cli.Flag{shimFlag},
				Action:    receiveHook,
			},
			{
				Name:      "pre-push",
				Usage:     "review every commit being pushed (git's ref lines on stdin)",
				UsageText: "tollgate hook pre-push REMOTE URL",
				Flags:     []cli.Flag{shimFlag},
				Action: func(c *cli.Context) error {
					if c.Args().Len() > 2 {
						return usageError("pre-push takes REMOTE and URL, got %s", pluralWord(c.Args().Len(), "argument"))
					}
					return runHook(c, true)
				},
			},
		},
	}
}

// runHook reviews what the hook guards. Run by tollgate's own shim (--shim), the hook is what
// git says it is: pre-commit and pre-merge-commit review the staged set, pre-push the ref
// lines on stdin, whatever PRE_COMMIT_* the environment holds. Run as the pre-commit
// framework's entry (PRE_COMMIT=1, no --shim), either entry tells a push from a commit by the
// framework's push variables, so one manifest serves both stages.
func runHook(c *cli.Context, push bool) error {
	ctx := c.Context
	if skipped(c) {
		return nil
	}
	framework := os.Getenv("PRE_COMMIT") == "1" && !c.Bool(shimFlag.Name)
	if framework && !(push && c.Args().Len() == 2) {
		push = os.Getenv("PRE_COMMIT_TO_REF") != "" || os.Getenv("PRE_COMMIT_LOCAL_BRANCH") != ""
	}
	at := atIndex
	if push {
		at = atCommits
	}
	s, err := openSession(ctx, "", at)
	if err != nil {
		return err
	}
	if framework && leaveToOther(c, s, push) {
		return nil
	}
	ch, err := hookChange(c, s, push, framework)
	if err != nil || ch == nil {
		return err
	}
	// githooks(5): a hook reports on stderr (git 2.39 passes a pre-push hook's stdout through).
	return s.review(ctx, ch, output{format: "text", progress: c.App.ErrWriter}, c.App.ErrWriter)
}

// hookChange reads what the hook guards (nil, with no error, when the framework's
// tollgate-commit-msg entry reviews it instead).
func hookChange(c *cli.Context, s *session, push, framework bool) (*diff.Change, error) {
	ctx := c.Context
	switch {
	case push:
		return pushChange(ctx, c, s, framework)
	case framework:
		if ch, ok, err := frameworkMessage(c, s); ok {
			return ch, err
		}
		if c.Args().Len() > 0 {
			return frameworkFiles(ctx, s, c.Args().Slice())
		}
	}
	return s.repo.Staged(ctx)
}

// pushChange reads what a push sends: git's ref lines on stdin, or, under the pre-commit
// framework's push stage (stdin empty, only the first ref in its variables), every local
// branch and tag the remote does not have.
func pushChange(ctx context.Context, c *cli.Context, s *session, framework bool) (*diff.Change, error) {
	historyMemory()
	remote, url := c.Args().Get(0), c.Args().Get(1)
	if framework && c.Command.Name == "pre-commit" {
		remote, url = "", "" // the framework's arguments to this entry are file names
	}
	refs, err := hook.ParsePushLines(c.App.Reader)
	if err != nil {
		return nil, err
	}
	if len(refs) > 0 || !framework {
		return s.repo.Push(ctx, remote, url, refs)
	}
	if remote == "" {
		remote, url = os.Getenv("PRE_COMMIT_REMOTE_NAME"), os.Getenv("PRE_COMMIT_REMOTE_URL")
	}
	ch, err := s.repo.PushFramework(ctx, remote, url, hook.PushFromEnv())
	if errors.Is(err, hook.ErrFrameworkPush) {
		return nil, &exitError{code: review.ExitCannotRun, err: err, hint: "use tollgate's own pre-push hook for pushes (tollgate install --hooks pre-push), which gets every pushed ref from git; skip once with TOLLGATE=0 only if you know what is pushed"}
	}
	return ch, err
}

// skipped reports TOLLGATE=0, with the same loud line the shims print: a hook manager (husky,
// lefthook, the pre-commit framework) or a hand-written hook that runs `tollgate hook ...`
// skips the same way as tollgate's own shim.
func skipped(c *cli.Context) bool {
	if os.Getenv("TOLLGATE") != "0" {
		return false
	}
	fmt.Fprintf(c.App.ErrWriter, "tollgate: warning: TOLLGATE=0 set: the %s review was SKIPPED, nothing was checked\n", c.Command.Name)
	return true
}

// receiveHook reviews what a push brings to this (usually bare) repository. Its report goes to
// stderr, which git relays to the pusher ("remote: ..."); a non-zero exit rejects the whole
// push, so no ref is updated.
func receiveHook(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	if skipped(c) {
		return nil
	}
	ctx := c.Context
	s, err := openSession(ctx, "", atCommits)
	if err != nil {
		return err
	}
	refs, err := hook.ParseReceiveLines(c.App.Reader)
	if err != nil {
		return err
	}
	historyMemory()
	ch, err := s.repo.Receive(ctx, refs)
	if err != nil {
		return err
	}
	return s.review(ctx, ch, output{format: "text", noColor: true}, c.App.ErrWriter)
}

// stagedHook is the action of the hooks that review the staged set (pre-commit, pre-merge-commit).
func stagedHook(c *cli.Context) error {
	// The pre-commit framework's `tollgate` entry passes the file names it runs on.
	framework := os.Getenv("PRE_COMMIT") == "1" && !c.Bool(shimFlag.Name) && c.Command.Name == "pre-commit"
	if !framework {
		if err := noArgs(c); err != nil {
			return err
		}
	}
	return runHook(c, false)
}

// leaveToOther reports (and says) that the framework's other tollgate entry reviews this stage
// in this repository, so this one does not review the same change twice.
func leaveToOther(c *cli.Context, s *session, push bool) bool {
	other := ""
	switch {
	case push && c.Command.Name == "pre-commit":
		other = "tollgate-push"
	case !push && c.Command.Name == "pre-push":
		other = "tollgate"
	}
	if other == "" || !frameworkRuns(s, other, push) {
		return false
	}
	fmt.Fprintf(c.App.ErrWriter, "tollgate: the %s hook of .pre-commit-config.yaml reviews this %s (not reviewed twice)\n", other, map[bool]string{true: "push", false: "commit"}[push])
	return true
}

// messageHook reviews the message being committed: git's commit-msg hook (and the pre-commit
// framework's commit-msg stage) passes the file that holds it.
func messageHook(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usageError("commit-msg takes the message FILE, got %s", pluralWord(c.Args().Len(), "argument"))
	}
	if skipped(c) {
		return nil
	}
	s, err := openSession(c.Context, "", atIndex) // the commit being made: the staged config
	if err != nil {
		return err
	}
	ch, err := s.repo.Message(c.Context, c.Args().First())
	if err != nil {
		return &exitError{code: review.ExitCannotRun, err: err, hint: "git passes the message file to the commit-msg hook: run it as `tollgate hook commit-msg .git/COMMIT_EDITMSG`"}
	}
	return s.review(c.Context, ch, output{format: "text", progress: c.App.ErrWriter}, c.App.ErrWriter)
}
