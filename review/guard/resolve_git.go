package guard

import (
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tollgate-dev/tollgate/internal/shellword"
)

// git's own command runners: the editor, pager and ssh command git starts, the tools difftool
// and mergetool run, filters, bisect run, aliases. Each value is a shell command git runs
// (through sh -c); it is judged as one.

// gitRunnerEnv are the environment variables naming a command git runs.
var gitRunnerEnv = []string{"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER",
	"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "EDITOR", "VISUAL", "PAGER"}

// gitRunners judges the commands one git call may start besides itself: from the environment
// this call sets, and from the subcommand's own options (filter-branch filters, difftool -x).
func (j *judge) gitRunners(sub string, rest []arg) {
	if _, spec := gitSpecs[sub]; !spec && !gitBuiltins[sub] && j.gitAliases[sub].s == "" {
		if body, ok := j.diskAlias(sub); ok { // git ci, with ci defined in .git/config
			if j.gitAliases == nil {
				j.gitAliases = map[string]arg{}
			}
			j.gitAliases[sub] = body
		}
	}
	local := localGit(sub, rest)
	for _, name := range gitRunnerEnv {
		if local && (name == "GIT_SSH_COMMAND" || name == "GIT_SSH") {
			continue // git status never starts ssh
		}
		v, ok := j.cmdEnv[name]
		if !ok {
			v, ok = j.vars[name]
		}
		if ok && strings.TrimSpace(v) != "" {
			j.payload(arg{s: v}, name)
		}
	}
	if !local {
		for _, a := range j.sshConfig {
			j.payload(a, "git config core.sshCommand")
		}
	}
	j.sshConfig = nil
	if !local || sub == "remote" {
		j.extURLs(rest) // also where git remote add / set-url records one
	}
	switch sub {
	case "fetch", "pull", "ls-remote":
		j.optionPayloads(rest, sub, "--upload-pack")
	case "clone":
		j.optionPayloads(rest, sub, "--upload-pack", "-u")
	case "push":
		j.optionPayloads(rest, sub, "--receive-pack", "--exec")
	case "archive":
		j.optionPayloads(rest, sub, "--exec")
	case "filter-branch":
		j.optionPayloads(rest, "filter-branch", "--tree-filter", "--index-filter", "--msg-filter", "--env-filter",
			"--commit-filter", "--parent-filter", "--tag-name-filter", "--setup")
	case "difftool", "mergetool":
		j.optionPayloads(rest, sub, "-x", "--extcmd")
	case "config":
		j.gitConfigSet(rest)
	}
}

// remoteGit are the subcommands that may reach another repository, over ssh among others.
var remoteGit = set("fetch", "pull", "push", "clone", "ls-remote", "remote", "submodule", "send-pack",
	"fetch-pack", "request-pull", "maintenance", "bundle")

// localGit reports a subcommand of git's own that never starts ssh (git status, git log, git
// archive without --remote, git remote -v): the ssh command a call sets for it never runs. An alias or a
// command git finds on PATH (git lfs) may reach a remote.
func localGit(sub string, rest []arg) bool {
	switch sub {
	case "archive":
		for _, a := range rest {
			if a.dyn || strings.HasPrefix(a.s, "--remote") {
				return false
			}
		}
	case "remote": // git remote, -v, add, rename, remove, get-url, set-url stay local
		noQuery := false
		for _, a := range rest {
			noQuery = noQuery || a.s == "-n"
		}
		for _, a := range rest {
			if a.dyn || a.s == "update" || a.s == "prune" || a.s == "set-head" || a.s == "show" && !noQuery {
				return false
			}
		}
		return true
	}
	_, spec := gitSpecs[sub]
	return (spec || gitBuiltins[sub]) && !remoteGit[sub]
}

// gitBuiltins are git's own commands besides those in gitSpecs: git never lets an alias shadow
// one, so the configuration on disk is not read for them.
var gitBuiltins = set("add", "status", "log", "diff", "show", "fetch", "tag", "init", "clone", "remote",
	"rev-parse", "ls-files", "blame", "describe", "grep", "cat-file", "worktree", "sparse-checkout", "notes",
	"shortlog", "archive", "bundle", "help", "version", "apply", "format-patch", "range-diff", "for-each-ref",
	"symbolic-ref", "show-ref", "rev-list", "merge-base", "name-rev", "ls-tree", "ls-remote", "hash-object",
	"update-index", "write-tree", "read-tree", "mktree", "count-objects", "fsck", "prune", "repack",
	"maintenance", "cherry", "whatchanged", "difftool", "mergetool", "filter-branch", "revert", "annotate",
	"check-ignore", "check-attr", "var", "verify-commit", "verify-tag", "commit-tree", "send-pack",
	"credential", "instaweb", "gui", "citool", "gitk", "replace", "rerere", "request-pull", "mailinfo")

// optionPayloads judges the values of the named options (separate or after =) as shell.
func (j *judge) optionPayloads(args []arg, what string, names ...string) {
	for i, a := range args {
		for _, n := range names {
			switch {
			case a.s == n && i+1 < len(args):
				j.payload(args[i+1], "git "+what+" "+n)
			case strings.HasPrefix(a.s, n+"=") && strings.HasPrefix(n, "--"):
				j.payload(arg{s: a.s[len(n)+1:], dyn: a.dyn, w: a.w}, "git "+what+" "+n)
			}
		}
	}
}

// runnerKey reports a configuration key whose value is a command git (or a tool it starts)
// runs.
func runnerKey(key string) bool {
	switch key {
	case "core.editor", "sequence.editor", "core.pager", "core.sshcommand", "diff.external", "core.askpass",
		"gpg.program", "sendemail.sendmailcmd", "uploadpack.packobjectshook", "interactive.difffilter", "core.fsmonitor":
		return true
	}
	first, rest, _ := strings.Cut(key, ".")
	last := rest[strings.LastIndexByte(rest, '.')+1:]
	switch first {
	case "remote":
		return last == "uploadpack" || last == "receivepack"
	case "pager":
		return true
	case "difftool", "mergetool", "man", "browser":
		return last == "cmd"
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "gpg":
		return last == "program"
	}
	return false
}

// gitConfigRunner judges one configuration value a git call sets (git -c key=value or git
// config key value): a command git runs is judged as shell, a credential helper's !command too.
func (j *judge) gitConfigRunner(key, value string, a arg) {
	switch {
	case runnerKey(key):
		if key == "core.fsmonitor" && isBoolWord(value) {
			return
		}
		j.payload(arg{s: value, dyn: a.dyn, w: a.w}, "git config "+key)
	case (key == "credential.helper" || strings.HasPrefix(key, "credential.") && strings.HasSuffix(key, ".helper")) && strings.HasPrefix(value, "!"):
		j.payload(arg{s: value[1:], dyn: a.dyn, w: a.w}, "git config "+key)
	}
}

func isBoolWord(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return true
	}
	return false
}

// gitConfigSet judges git config KEY VALUE for the runner keys, and remembers an alias it
// defines, so that using the alias later in the call is judged by its body (defining one runs
// nothing; a later call that uses it finds it on disk, diskAlias).
func (j *judge) gitConfigSet(args []arg) {
	read, _, ops := gitConfigWords(args)
	if read {
		return
	}
	if len(ops) < 2 {
		return
	}
	key := strings.ToLower(ops[0].s)
	value := ops[1]
	if name, ok := strings.CutPrefix(key, "alias."); ok {
		if j.gitAliases == nil {
			j.gitAliases = map[string]arg{}
		}
		j.gitAliases[name] = value // judged where it is used (a body that skips the hooks is denied now: routes.go)
		return
	}
	j.gitConfigRunner(key, value.s, value)
}

// diskAlias looks an alias up in the git configuration on disk (the repository's config, then
// ~/.gitconfig and ~/.config/git/config): an alias defined in an earlier call is judged by its
// body as well. Files are read once per call, bounded.
func (j *judge) diskAlias(sub string) (arg, bool) {
	if j.configAliases == nil {
		j.configAliases = map[string]string{}
		_, _, common := j.gitLayout()
		files := []string{filepath.Join(common, "config")}
		if j.o.Home != "" {
			files = append(files, filepath.Join(j.o.Home, ".gitconfig"), filepath.Join(j.o.Home, ".config", "git", "config"))
		}
		for _, f := range files {
			if text, err := readBounded(f); err == nil {
				configAliases(text, j.configAliases)
			}
		}
	}
	body, ok := j.configAliases[sub]
	return arg{s: body}, ok
}

// configAliases reads the [alias] sections of one git config file into aliases (the first
// definition of a name wins, as the repository's file is read first).
func configAliases(text string, aliases map[string]string) {
	inAlias := false
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) { // a continued value
			i++
			line = strings.TrimSuffix(line, `\`) + strings.TrimSpace(lines[i])
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[':
			inAlias = strings.EqualFold(strings.Trim(strings.TrimSpace(strings.SplitN(line, "]", 2)[0]), "[ "), "alias")
		case inAlias:
			name, value, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			name = strings.ToLower(strings.TrimSpace(name))
			value = strings.TrimSpace(value)
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = strings.ReplaceAll(value[1:len(value)-1], `\"`, `"`)
			}
			if _, seen := aliases[name]; !seen {
				aliases[name] = value
			}
		}
	}
}

// gitEnvConfig reads the configuration a git command's own prefix words set through
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>: git reads them as it reads
// git -c key=value, so they are judged as those pairs (alias.st=status is no objection,
// core.hooksPath is denied, core.sshCommand is judged as the command it runs). A count that is
// no small literal number, or the words set for any other command (export, a bare
// assignment), stay denied by name: core.hooksPath could hide behind them.
func (j *judge) gitEnvConfig(ce *syntax.CallExpr) []arg {
	if len(ce.Args) == 0 || cmdName(ce.Args[0].Lit()) != "git" {
		return nil
	}
	words := map[string]*syntax.Assign{}
	for _, as := range ce.Assigns {
		if as.Name != nil && as.Value != nil && !as.Append && as.Array == nil && strings.HasPrefix(as.Name.Value, "GIT_CONFIG_") {
			words[as.Name.Value] = as
		}
	}
	countAs, ok := words["GIT_CONFIG_COUNT"]
	if !ok {
		return nil
	}
	count := j.word(countAs.Value)
	n, err := strconv.Atoi(count.s)
	if count.dyn || err != nil || n < 0 || n > maxEnvConfig {
		return nil
	}
	var pairs []arg
	used := map[*syntax.Assign]bool{countAs: true}
	for i := 0; i < n; i++ {
		k, v := words["GIT_CONFIG_KEY_"+strconv.Itoa(i)], words["GIT_CONFIG_VALUE_"+strconv.Itoa(i)]
		if k == nil {
			return nil // git refuses to run ("missing config key"); judged by name as before
		}
		key, val := j.word(k.Value), arg{}
		if v != nil {
			val = j.word(v.Value)
			used[v] = true
		}
		used[k] = true
		pairs = append(pairs, arg{s: key.s + "=" + val.s, dyn: key.dyn || val.dyn, w: k.Value})
	}
	for as := range used {
		if j.envConfigSet == nil {
			j.envConfigSet = map[*syntax.Assign]bool{}
		}
		j.envConfigSet[as] = true
	}
	return pairs
}

// maxEnvConfig bounds the GIT_CONFIG_COUNT pairs read.
const maxEnvConfig = 64

// extURLs judges the command of an ext:: remote a network subcommand (or git remote add,
// set-url) names: git runs it here, its words split at spaces with %-escapes ("ext::sh -c
// touch% /tmp/x" runs sh -c "touch /tmp/x"). It runs only where protocol.ext.allow lets it,
// which a call or a configuration can set, so it is judged wherever it appears.
func (j *judge) extURLs(rest []arg) {
	for _, a := range rest {
		cmd, ok := strings.CutPrefix(a.s, "ext::")
		if !ok {
			continue
		}
		if a.dyn {
			j.dynamic(a, "the command of the ext:: remote")
			continue
		}
		if words := extWords(cmd); len(words) > 0 {
			j.script(strings.Join(words, " "))
		}
	}
}

// extWords splits an ext:: command as git does: at unescaped spaces, "% " a space, "%%" a %,
// %s and %S the service's names; each word is quoted for the shell.
func extWords(cmd string) []string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, shellword.Quote(w.String()))
			w.Reset()
		}
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ':
			flush()
		case c == '%' && i+1 < len(cmd):
			i++
			switch cmd[i] {
			case ' ':
				w.WriteByte(' ')
			case 's':
				w.WriteString("git-upload-pack")
			case 'S':
				w.WriteString("upload-pack")
			default:
				w.WriteByte(cmd[i]) // %% and the others git expands
			}
		default:
			w.WriteByte(c)
		}
	}
	flush()
	return words
}
