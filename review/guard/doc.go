// Package guard decides about one tool call a coding agent is about to make: deny, ask (a
// person must approve), no objection (the agent's own permissions apply) or allow (only with
// auto_allow, and only for calls the rules judge safe).
//
// Rules and guarantees:
//   - Shell is read with a real parser (mvdan.cc/sh/v3/syntax), never with regular expressions
//     over the raw string: every command that will execute is judged (lists, pipelines,
//     subshells, command and process substitution, unquoted heredocs, the payloads of sh -c,
//     eval, env -S, su -c, xargs, find -exec, parallel, watch, ssh), through wrappers (sudo, env,
//     command, nice, timeout, ...), with leading assignments checked. Payload (quoted heredoc
//     bodies, commit messages, printed text, grep patterns) is data and is never judged as a
//     command.
//   - Understood, or ask: one resolution step (resolve*.go) stands between the parser and the
//     command tables, and the tables read only its output, each command's argv as the shell
//     will build it: braces expanded, known unquoted values split, package scripts read from
//     package.json, globs matched against the file system from the working directory
//     (bounded), the substitutions knowable without running anything filled in ($(pwd), $(cat
//     file), realpath, dirname, git rev-parse path forms), links made earlier in the call
//     followed, the words xargs/parallel are fed appended, git's runners (editors, pagers, ssh
//     commands, tools, filters, bisect run, aliases) and shell scripts (written earlier in the
//     call, or read from disk, 256 KB bound; in one read from disk a command word built at run
//     time is not asked about by itself) judged as the commands they run, for loops over
//     resolved words judged once per item. What it cannot resolve stays marked (arg.dyn, and
//     arg.opt when it may also be an option or several words); where such a word reaches a
//     hook-running git command, an environment name or a protected path, or a script cannot be
//     read, the answer is Ask.
//   - A failure to decide is never a silent pass: a parse error, a command word built at run
//     time, an interpreter one-liner whose risk cannot be read, input over the size or depth
//     bounds, or a panic inside the analysis is answered Ask (the caller turns Ask into deny for
//     agents that cannot ask).
//   - Paths are compared by cleaned absolute path components, never by string prefix:
//     /home/u/project-evil is not under /home/u/project. Symbolic links in the existing part of a
//     path are followed, so a link in the project cannot point a write outside it or at the hooks.
//     Protected paths are compared folded (Unicode NFC, lower case, \ as a separator too), as
//     macOS's and Windows's case-insensitive file systems name them.
//   - Every decision keeps a time budget (Budget, 2 s): the shell analysis counts its steps,
//     and past the budget it stops and answers Ask.
//   - What a command does beyond its files (publishing, privileges, remote databases, global
//     installs, ...) is one table (actions.go), asked, never denied.
//   - The strictest answer wins: one denied command denies the whole call; Allow is answered only
//     with Options.AutoAllow and only when nothing objected.
//   - Content written by Write/Edit/MultiEdit/apply_patch (and by cat/tee heredocs or echo/printf
//     redirected into a file) is scanned with the injected Detector (redact's: gitleaks rules)
//     plus tollgate's credential rule (redact/lite), and an injected ContentCheck (the review
//     scanners); evidence in an answer is always masked. Without a Detector, content is never
//     passed unscanned: the call is at least Ask and marked Answer.Unscanned (the lean binary
//     then hands it to a full tollgate).
//   - The optional model (model.go) only frames the question and reads the answer strictly; it
//     can change only an Ask (never a Deny), and anything but a valid allow/deny/escalate is Ask.
//   - guard imports only redact/lite and the standard library (plus the shell parser and
//     golang.org/x/text/unicode/norm), never
//     gitleaks: it never runs a process, opens the network or writes a file; it reads files
//     and directories only to resolve globs, links, git's layout and scripts.
package guard
