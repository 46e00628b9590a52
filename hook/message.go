package hook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// MessageName is the name a commit message under review is reported at.
const MessageName = "(commit message)"

// autoCommentChars are the characters git picks a comment character from under
// core.commentChar = auto.
const autoCommentChars = "#;@!$%^&|:"

// scissors is the line (after the comment character) below which git cuts the message of a
// commit whose message is edited (git commit -v shows the diff there).
const scissors = " ------------------------ >8 ------------------------"

// Message returns the commit message in file (the commit-msg hook's argument) as a change to
// review. The hook sees the message before git cleans it up; what git will cut (comment lines
// and everything below the scissors line, under commit.cleanup's default "strip" when an editor
// was used, or "scissors") is blanked, so the lines keep their numbers in the file and nothing
// git keeps is left out. When in doubt more is reviewed, never less: under `git commit
// --cleanup=...` (which a hook cannot see) a comment line may be reviewed that git then drops.
func (r *Repo) Message(ctx context.Context, file string) (*diff.Change, error) {
	path, err := r.messagePath(file)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read the commit message: %w", err)
	}
	cleanup, comment, err := r.messageConfig(ctx)
	if err != nil {
		return nil, err
	}
	text := cleanMessage(string(data), cleanup, comment, os.Getenv("GIT_EDITOR") != ":")
	u := diff.Unit{Meta: []diff.FileDiff{diff.NewMeta(diff.MetaMessage, MessageName, text)}}
	return &diff.Change{Kind: "message", Units: []diff.Unit{u}, Blobs: r}, nil
}

// messagePath resolves the message file (relative to the working directory, where git runs
// hooks) and refuses one outside the repository's work tree and git directories, or one that
// is not a regular file.
func (r *Repo) messagePath(file string) (string, error) {
	if file == "" {
		return "", fmt.Errorf("no commit message file given")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("failed to resolve %q: %w", file, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("failed to read the commit message: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("failed to read the commit message: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("refusing to read %q as the commit message: not a regular file", file)
	}
	if within(real, r.Root, r.GitDir, r.CommonDir) {
		return real, nil
	}
	return "", fmt.Errorf("refusing to read %q as the commit message: it lies outside the repository and its git directory", file)
}

// messageConfig returns commit.cleanup and the comment prefix (core.commentString, else
// core.commentChar, else "#"; "auto" as it is), in one git call.
func (r *Repo) messageConfig(ctx context.Context) (cleanup, comment string, err error) {
	var (
		config    = "config"
		nul       = "-z"
		getRegexp = "--get-regexp"
		keys      = `^(commit\.cleanup|core\.commentchar|core\.commentstring)$`
	)
	out, err := r.Git.run(ctx, nil, config, nul, getRegexp, keys)
	if err != nil && exitCode(err) != 1 { // 1: none is set
		return "", "", fmt.Errorf("failed to read commit.cleanup and core.commentChar: %w", err)
	}
	var char, str string
	for _, rec := range splitZ(out) {
		k, v, _ := strings.Cut(rec, "\n")
		switch strings.ToLower(k) {
		case "commit.cleanup":
			cleanup = strings.ToLower(v)
		case "core.commentchar":
			char = v
		case "core.commentstring":
			str = v
		}
	}
	comment = "#"
	switch {
	case str != "":
		comment = str
	case char != "":
		comment = char
	}
	return cleanup, comment, nil
}

// cleanMessage blanks what git will cut from msg under cleanup (commit.cleanup, "" for the
// default) with comment as the comment prefix; edited tells whether an editor was used (git
// sets GIT_EDITOR=: for the hooks of a commit whose message is not edited).
func cleanMessage(msg, cleanup, comment string, edited bool) string {
	mode := cleanup
	if mode == "" || mode == "default" {
		mode = "whitespace"
		if edited {
			mode = "strip"
		}
	}
	strip := mode == "strip"
	cut := strip || mode == "scissors" && edited
	if !strip && !cut {
		return msg
	}
	lines := strings.SplitAfter(msg, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\n")
		if cut && isScissors(body, comment) {
			for j := i; j < len(lines); j++ {
				lines[j] = blank(lines[j])
			}
			break
		}
		if strip && comment != "auto" && strings.HasPrefix(body, comment) {
			lines[i] = blank(l)
		}
	}
	return strings.Join(lines, "")
}

// isScissors reports git's scissors line with comment (under "auto", any character git may
// have picked).
func isScissors(line, comment string) bool {
	if comment != "auto" {
		return line == comment+scissors
	}
	return len(line) > 0 && strings.IndexByte(autoCommentChars, line[0]) >= 0 && line[1:] == scissors
}

// blank is a line emptied, its newline kept.
func blank(l string) string {
	if strings.HasSuffix(l, "\n") {
		return "\n"
	}
	return ""
}

// InGitDir reports whether file (relative to the working directory) lies in the repository's
// git directory: git's commit message file does, a file of the work tree never.
func (r *Repo) InGitDir(file string) bool {
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return within(abs, r.GitDir, r.CommonDir)
}

// within reports whether path (resolved) lies under one of dirs (each resolved).
func within(path string, dirs ...string) bool {
	for _, dir := range dirs {
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			if fspath.Within(d, path) {
				return true
			}
		}
	}
	return false
}
