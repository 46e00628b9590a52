// Package guard decides about one tool call a coding agent is about to make: deny, ask (a
// person must approve), no objection (the agent's own permissions apply) or allow (only with
// auto_allow, and only for calls the rules judge safe).
//
// Rules and guarantees:
//   - Shell is read with a real parser (mvdan.cc/sh/v3/syntax), never with regular expressions
//     over the raw string: every command that will execute is judged (lists, pipelines,
//     subshells, command and process substitution, unquoted heredocs, the payloads of sh -c,
//     eval, env -S, su -c, xargs, find -exec, parallel (read joined and, as -q runs it, word by
//     word), watch, ssh), through wrappers (sudo, env,
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
//     time is not asked about by itself) judged as the commands they run, and so are the
//     literal shell strings of interpreter one-liners (python's os.system and subprocess calls,
//     awk's system(), getline and print pipes; oneliner.go), for loops over resolved words
//     judged once per item. git's ssh command counts only for a subcommand that may start ssh,
//     and GIT_CONFIG_COUNT pairs on git's own prefix are read as git -c pairs. A shell function
//     is judged where it is called, with that call's arguments (never through another program,
//     which cannot run one), a trap's action as shell, and a subshell or substitution keeps its
//     cd, variables and functions to itself (functions.go). An archive extracted into the
//     project's root is judged member by member from its listing on disk, and asked about
//     when it cannot be listed (archive.go). What it cannot resolve stays marked (arg.dyn, and
//     arg.opt when it may also be an option or several words); where such a word reaches a
//     hook-running git command, an environment name or a protected path, or a script cannot be
//     read, the answer is Ask.
//   - A failure to decide is never a silent pass: a parse error, a command word built at run
//     time, an interpreter one-liner whose risk cannot be read, input over the size or depth
//     bounds, or a panic inside the analysis is answered Ask (the caller turns Ask into deny for
//     agents that cannot ask). One parse error is read as bash reads it: a quote left open makes
//     bash refuse that line and everything joined to it, and run the complete lines before it,
//     so those lines are judged, and the open line is judged with its quote closed (what the
//     agent means to run, and runs on its retry); nothing to object to there is no objection
//     under rule guard/unrunnable, which guard.auto_allow never turns into Allow. An open line
//     that spells a hook bypass is denied.
//   - Paths are compared by cleaned absolute path components, never by string prefix:
//     /home/u/project-evil is not under /home/u/project. Symbolic links in the existing part of a
//     path are followed, so a link in the project cannot point a write outside it or at the hooks.
//     Protected paths are compared folded (Unicode NFC, lower case, \ as a separator too), as
//     macOS's and Windows's case-insensitive file systems name them.
//   - Deletion inside the project is the agent's to do (rm -rf ./build), unless it reaches the
//     whole project or a whole temp dir: rm -rf ./*, find . -delete, or find -exec rm on {}
//     where the expression does not select by name or path (find matches its starting point and
//     every file under it, .git's included). A glob naming some entries only (build*, *.o) is
//     not its directory.
//   - Every decision keeps a time budget (Budget, 2 s): the shell analysis counts its steps,
//     and past the budget it stops and answers Ask.
//   - What a command does beyond its files (publishing, privileges, remote databases, global
//     installs, printing tokens or the environment, ...) is one table (actions.go), asked, never
//     denied. A database client whose server is not this machine, or only known at run time, is
//     asked whatever it runs there.
//   - Routes around the hooks are denied like --no-verify (routes.go): git plumbing that commits
//     or pushes (send-pack, commit-tree, fast-import), a hook-running git command pointed at
//     another git dir (--git-dir, GIT_DIR, GIT_COMMON_DIR), run in a clone of the project, or
//     with HOME/XDG_CONFIG_HOME naming another global configuration; a work tree, output or new
//     directory inside .git or the hooks; extensions.worktreeConfig, config.worktree and the
//     user's and system's git config files; an alias whose body is denied when run. To tell a
//     clone of the project made earlier, the guard reads one file: the .git/config (64 KB at
//     most) of the repository a commit or push outside the project runs in.
//   - Secrets are read by more than their names: a directory of secrets (~/.ssh, ~/.aws,
//     ~/.gnupg, ...) read whole (grep -r, tar, zip, cp -r, the Grep tool), a file in one, system
//     secrets (/etc/shadow, /proc/*/environ), a glob that can match a known secret, a link made
//     to one earlier in the call, git show :.env and diff --no-index: all asked.
//   - The strictest answer wins: one denied command denies the whole call; Allow is answered only
//     with Options.AutoAllow and only when nothing objected.
//   - Content written by Write/Edit/MultiEdit/apply_patch (and by cat/tee heredocs or echo/printf
//     redirected into a file) is scanned with the injected Detector (redact's: gitleaks rules)
//     plus tollgate's credential rule (redact/lite), and an injected ContentCheck (the review
//     scanners); evidence in an answer is always masked. Without a Detector, content is never
//     passed unscanned: the call is at least Ask and marked Answer.Unscanned (the lean binary
//     then hands it to a full tollgate).
//   - A tool the guard does not know (MCP tools, a new built-in) is judged by its arguments,
//     whatever its name (tools.go): arguments named like a path (path, file_path, filePath,
//     target, destination, files[].path, ..., nested in objects and arrays, bounded) get the
//     path rules, those named like content (content, text, new_string, patch, ...) the content
//     rules, those named like a command the shell rules; a tool named for writing to a remote
//     repository (push files, create or update a file, merge, release, publish) asks. A tool
//     with none of these arguments is no objection.
//   - Content is judged as the file will hold it (edits.go, variants.go): an edit of a file in
//     the project (Edit, MultiEdit, replace, edit, and apply_patch's Update File hunks) is
//     applied to the file (read, bounded) and the changed lines scanned, so new
//     text completing a token already half in the file is caught, and a secret the file held
//     before is not the edit's; tokens split by "..."+"..." or by a zero-width character, and
//     a token in the file's name, are found. A secret written into a local file the project's
//     .gitignore files name (read by the guard, conservatively: any negation means not sure) is
//     asked about, never denied (gitignore.go).
//   - The optional model (model.go) only frames the question and reads the answer strictly; it
//     can change only an Ask (never a Deny), and anything but a valid allow/deny/escalate is Ask.
//   - guard imports only redact/lite and the standard library (plus the shell parser and
//     golang.org/x/text/unicode/norm), never
//     gitleaks: it never runs a process, opens the network or writes a file; it reads files
//     and directories only to resolve globs, links, git's layout and scripts, and to read the
//     file an edit changes, the project's .gitignore files and a clone's .git/config.
package guard
