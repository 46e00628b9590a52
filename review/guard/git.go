package guard

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// gitSpec is the part of one git subcommand's option table that decides how words are read:
// which short letters take a value (so -tn is a template named "n", not -t -n), which long
// options take the next word, and which short letter skips the hooks.
type gitSpec struct {
	shortValue string   // letters taking a value (rest of the cluster, or the next word)
	shortOpt   string   // letters taking an optional value, stuck only
	longValue  []string // long options taking a value (the next word when there is no =)
	noVerifyN  bool     // -n means --no-verify (commit, am); elsewhere it is --dry-run or --no-stat
	noVerify   bool     // the subcommand has --no-verify
}

// gitSpecs follow git's own option tables (builtin/commit.c, push.c, merge.c, am.c, ...).
var gitSpecs = map[string]gitSpec{
	"commit": {shortValue: "mFCct", shortOpt: "Su", noVerifyN: true, noVerify: true,
		longValue: []string{"message", "file", "reuse-message", "reedit-message", "fixup", "squash", "template", "author", "date", "cleanup", "trailer", "pathspec-from-file"}},
	"push":        {shortValue: "o", noVerify: true, longValue: []string{"repo", "receive-pack", "exec", "push-option"}},
	"merge":       {shortValue: "mFsX", shortOpt: "S", noVerify: true, longValue: []string{"message", "file", "strategy", "strategy-option", "into-name", "cleanup"}},
	"pull":        {shortValue: "sXo", shortOpt: "S", noVerify: true, longValue: []string{"strategy", "strategy-option", "upload-pack", "depth", "shallow-since", "shallow-exclude", "negotiation-tip", "server-option"}},
	"am":          {shortValue: "pC", shortOpt: "S", noVerifyN: true, noVerify: true, longValue: []string{"patch-format", "exclude", "include", "directory", "resolvemsg", "whitespace", "quoted-cr", "empty"}},
	"rebase":      {shortValue: "sXxC", shortOpt: "S", noVerify: true, longValue: []string{"onto", "strategy", "strategy-option", "exec", "whitespace", "empty", "upstream"}},
	"checkout":    {shortValue: "bBtU", longValue: []string{"orphan", "conflict", "pathspec-from-file", "unified", "inter-hunk-context"}},
	"switch":      {shortValue: "cC", longValue: []string{"orphan", "conflict"}},
	"restore":     {shortValue: "sU", longValue: []string{"source", "conflict", "pathspec-from-file", "unified", "inter-hunk-context"}},
	"clean":       {shortValue: "e", longValue: []string{"exclude"}},
	"branch":      {shortValue: "t", longValue: []string{"set-upstream-to", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format", "color"}},
	"reset":       {longValue: []string{"pathspec-from-file"}},
	"rm":          {longValue: []string{"pathspec-from-file"}},
	"mv":          {},
	"stash":       {shortValue: "m", longValue: []string{"message", "pathspec-from-file"}},
	"reflog":      {},
	"gc":          {},
	"update-ref":  {shortValue: "m"},
	"config":      {shortValue: "f", longValue: []string{"file", "blob", "type", "default", "comment", "value"}},
	"submodule":   {},
	"bisect":      {},
	"send-email":  {noVerify: true},
	"cherry-pick": {shortValue: "mX", longValue: []string{"mainline", "strategy", "strategy-option"}},
	"revert":      {shortValue: "mX", longValue: []string{"mainline", "strategy", "strategy-option", "cleanup"}},
	"tag":         {shortValue: "mFu", longValue: []string{"message", "file", "local-user", "sort", "contains", "no-contains", "merged", "no-merged", "points-at", "format", "color", "cleanup", "trailer"}},
}

// gitArgs is one subcommand's words, read with its option table.
type gitArgs struct {
	shorts   string   // boolean short letters seen
	longs    []string // long option names as written (no dashes; the =value kept)
	ops      []arg    // operands
	afterDD  int      // operands from this index came after "--" (len(ops) if none)
	seq      []string // every option in the order given: "-x" per short letter (value letters too), "--name[=value]"
	bypass   string   // the spelling that skips the hooks
	execArgs []arg    // values of -x/--exec (rebase): shell commands
}

func parseGit(args []arg, spec gitSpec) gitArgs {
	g := gitArgs{afterDD: -1}
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "--":
			g.afterDD = len(g.ops)
			g.ops = append(g.ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(s, "--") && !args[i].dyn:
			i += g.longOption(s, args, i, spec)
		case len(s) > 1 && s[0] == '-' && !args[i].dyn:
			i += g.cluster(s[1:], args, i, spec)
		default:
			g.ops = append(g.ops, args[i])
		}
	}
	if g.afterDD < 0 {
		g.afterDD = len(g.ops)
	}
	return g
}

// longOption reads one --name[=value] (abbreviations included); it returns how many following
// words it consumed.
func (g *gitArgs) longOption(s string, args []arg, i int, spec gitSpec) int {
	name, _, hasValue := strings.Cut(s[2:], "=")
	g.longs = append(g.longs, s[2:])
	g.seq = append(g.seq, s)
	if spec.noVerify && len(name) >= 4 && strings.HasPrefix("no-verify", name) {
		g.bypass = s
	}
	if hasValue && len(name) >= 3 && strings.HasPrefix("exec", name) { // --exec=cmd
		_, v, _ := strings.Cut(s, "=")
		g.execArgs = append(g.execArgs, arg{s: v, dyn: args[i].dyn, w: args[i].w})
	}
	if hasValue || !longTakesValue(name, spec.longValue) || i+1 >= len(args) {
		return 0
	}
	if len(name) >= 3 && strings.HasPrefix("exec", name) { // --exec, --exe
		g.execArgs = append(g.execArgs, args[i+1])
	}
	return 1
}

// cluster reads one short-option cluster; it returns how many following words it consumed.
func (g *gitArgs) cluster(letters string, args []arg, i int, spec gitSpec) int {
	for k := 0; k < len(letters); k++ {
		c := letters[k]
		g.seq = append(g.seq, "-"+string(c))
		if strings.IndexByte(spec.shortValue, c) >= 0 {
			if k == len(letters)-1 && i+1 < len(args) {
				if c == 'x' {
					g.execArgs = append(g.execArgs, args[i+1])
				}
				return 1
			}
			if c == 'x' {
				g.execArgs = append(g.execArgs, arg{s: letters[k+1:]})
			}
			return 0
		}
		if strings.IndexByte(spec.shortOpt, c) >= 0 {
			return 0
		}
		g.shorts += string(c)
		if c == 'n' && spec.noVerifyN {
			g.bypass = "-" + letters
		}
	}
	return 0
}

func longTakesValue(name string, values []string) bool {
	for _, v := range values {
		if name == v || (len(name) >= 4 && strings.HasPrefix(v, name)) {
			return true
		}
	}
	return false
}

func (g *gitArgs) short(c byte) bool { return strings.IndexByte(g.shorts, c) >= 0 }

// given reports a short letter given, a value-taking one (-b NAME) included.
func (g *gitArgs) given(c byte) bool {
	for _, o := range g.seq {
		if o == "-"+string(c) {
			return true
		}
	}
	return false
}

// lastSet says what the last of a pair of switches given left: 1 on (-S, --staged), 0 off
// (--no-staged), -1 neither given; git keeps the last one given.
func (g *gitArgs) lastSet(short byte, on, off string) int {
	v := -1
	for _, o := range g.seq {
		name, _, _ := strings.Cut(strings.TrimPrefix(o, "--"), "=")
		switch {
		case o == "-"+string(short) || strings.HasPrefix(o, "--") && abbrev(name, on):
			v = 1
		case strings.HasPrefix(o, "--") && abbrev(name, off):
			v = 0
		}
	}
	return v
}

// abbrev reports name as the long option n or, as git's option parser accepts, a prefix of it
// (two letters at least).
func abbrev(name, n string) bool {
	return name == n || len(name) >= 2 && strings.HasPrefix(n, name)
}

// runsCommands are the subcommands whose operands hold a command of their own (bisect run CMD
// -h, submodule foreach CMD): a -h there is the command's.
var runsCommands = set("bisect", "submodule")

// help reports a request for the subcommand's usage (-h, --help, --help-all, before any "--"):
// git prints it and does nothing else. A subcommand's --version is no option of any of them,
// so git prints the usage too (git restore f --version: unknown option, exit 129).
func (g *gitArgs) help() bool {
	for _, l := range g.longs {
		if l == "help" || l == "help-all" || l == "version" {
			return true
		}
	}
	return g.short('h')
}

// long reports a long option given by its name or, as git's option parser accepts, a prefix of
// it (--forc, --ha, --discard-ch); two letters at least.
func (g *gitArgs) long(names ...string) bool {
	for _, l := range g.longs {
		name, _, _ := strings.Cut(l, "=")
		for _, n := range names {
			if abbrev(name, n) {
				return true
			}
		}
	}
	return false
}

// gitGlobalValues are git's own options that take the next word.
var gitGlobalValues = set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--exec-path", "--list-cmds", "--config-env", "--attr-source")

func hGit(j *judge, _ string, args []arg, _ *stdinSrc) {
	for _, pair := range j.envConfig { // GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=k GIT_CONFIG_VALUE_0=v git
		j.gitConfigPair(pair)
	}
	j.envConfig = nil // read once: an alias's own git call does not read them again
	i, ok := j.gitGlobals(args)
	if !ok || i >= len(args) {
		return
	}
	sub := strings.ToLower(args[i].s)
	rest := args[i+1:]
	j.gitRunners(sub, rest) // resolve_git.go: editors, ssh commands, filters, tools git starts
	if alias, ok := j.gitAliases[sub]; ok {
		j.gitAlias(alias, rest)
		return
	}
	if j.gitRoutes(sub, rest, j.gitPlace(args[:i])) {
		return
	}
	if sub == "filter-branch" || sub == "filter-repo" {
		j.add(Ask, "guard/irreversible-git", "git "+sub+" rewrites history; a person must approve")
		return
	}
	spec, known := gitSpecs[sub]
	if !known {
		return
	}
	g := parseGit(rest, spec)
	if g.bypass != "" {
		j.add(Deny, "guard/hook-bypass", "git "+sub+" "+g.bypass+" skips the hooks (tollgate reviews every commit and push); commit without it and fix what the hooks report")
		return
	}
	if g.help() && !runsCommands[sub] {
		return
	}
	if spec.noVerify {
		j.unknownOptions(sub, g.ops)
		j.hookPATH(sub) // routes.go
	}
	j.gitSub(sub, &g, rest)
}

// gitGlobals judges git's own options (-c name=value, --config-env) and returns the index of
// the subcommand; false when the call is already answered.
func (j *judge) gitGlobals(args []arg) (int, bool) {
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		switch {
		case args[i].dyn && i > 0 && args[i-1].s == "-c":
			// judged as a -c value
		case args[i].dyn:
			j.dynamic(args[i], "the git subcommand")
			return i, false
		case s == "-c" && i+1 < len(args):
			j.gitConfigPair(args[i+1])
			i++
		case strings.HasPrefix(s, "-c") && len(s) > 2:
			j.gitConfigPair(arg{s: s[2:], w: args[i].w})
		case s == "--config-env" || strings.HasPrefix(s, "--config-env="):
			// --config-env KEY=ENVVAR: the key is in the call, its value in the environment,
			// judged as git -c KEY=<unknown> (core.hooksPath denied, a runner key asked)
			pair, ok := strings.CutPrefix(s, "--config-env=")
			if !ok && i+1 < len(args) {
				i++
				pair, ok = args[i].s, !args[i].dyn
			}
			key, _, hasKey := strings.Cut(pair, "=")
			if !ok || !hasKey {
				j.add(Deny, "guard/hook-bypass", "git --config-env sets configuration (such as core.hooksPath) from the environment; let the hooks run")
				return i, false
			}
			j.gitConfigPair(arg{s: key + "=$" + pair[len(key)+1:], dyn: true})
		case gitGlobalValues[s]:
			i++
		case !strings.HasPrefix(s, "-"):
			return i, true
		}
	}
	return i, true
}

// gitAlias judges a subcommand defined by git -c alias.NAME=...: a shell alias (!cmd) as a
// payload, any other by its expansion (once).
func (j *judge) gitAlias(alias arg, rest []arg) {
	if alias.dyn {
		j.dynamic(alias, "the git alias")
		return
	}
	if strings.HasPrefix(alias.s, "!") {
		j.payload(arg{s: alias.s[1:], w: alias.w}, "a git alias")
		return
	}
	words := strings.Fields(alias.s)
	if len(words) == 0 {
		return
	}
	expanded := make([]arg, 0, len(words)+len(rest))
	for _, w := range words {
		expanded = append(expanded, arg{s: w})
	}
	j.gitAliases = nil // an alias does not expand twice
	hGit(j, "git", append(expanded, rest...), nil)
}

// unknownOptions asks about operands only known at run time, which could be --no-verify.
func (j *judge) unknownOptions(sub string, ops []arg) {
	for _, a := range ops {
		if a.dyn && (a.opt || unknownParam.MatchString(a.s)) {
			j.add(Ask, "guard/dynamic", "git "+sub+" gets "+shorten(a.s, 40)+", known only at run time, which could be --no-verify; a person must check it")
		}
	}
}

// gitConfigPair judges one git -c name=value.
func (j *judge) gitConfigPair(a arg) {
	name, value, _ := strings.Cut(a.s, "=")
	key := strings.ToLower(name)
	if key == "core.sshcommand" { // judged once the subcommand shows whether ssh starts
		j.sshConfig = append(j.sshConfig, arg{s: value, dyn: a.dyn, w: a.w})
	} else {
		j.gitConfigRunner(key, value, a) // resolve_git.go: core.editor, the pager, ...
	}
	switch {
	case a.dyn && !strings.Contains(name, "$"):
		if key == "core.hookspath" || strings.HasPrefix(key, "include") {
			j.add(Deny, "guard/hook-bypass", "git -c "+name+" changes which hooks run; let the hooks run")
		}
	case a.dyn:
		j.add(Deny, "guard/hook-bypass", "git -c with a name only known at run time may change which hooks run")
	case key == "core.hookspath":
		j.add(Deny, "guard/hook-bypass", "git -c core.hooksPath=... points git at other hooks, skipping tollgate; let the hooks run")
	case strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif."):
		j.add(Deny, "guard/hook-bypass", "git -c "+name+" pulls in configuration that may change which hooks run")
	case key == "extensions.worktreeconfig" && !isOff(strings.ToLower(strings.TrimSpace(value))):
		j.add(Deny, "guard/hook-bypass", "git -c extensions.worktreeConfig makes git read config.worktree, one more place core.hooksPath can be set; let the hooks run")
	case key == "core.worktree":
		j.coreWorktree("git -c core.worktree", arg{s: value})
	}
	if strings.HasPrefix(key, "alias.") && !strings.Contains(name, "$") {
		if j.gitAliases == nil {
			j.gitAliases = map[string]arg{}
		}
		j.gitAliases[strings.TrimPrefix(key, "alias.")] = arg{s: value, dyn: a.dyn, w: a.w}
	}
}

// gitSubs judge what one git subcommand does besides skipping hooks.
var gitSubs map[string]func(j *judge, g *gitArgs, rest []arg)

func init() {
	gitSubs = map[string]func(j *judge, g *gitArgs, rest []arg){
		"reset":       gitReset,
		"switch":      gitSwitch,
		"checkout":    gitCheckout,
		"restore":     gitRestore,
		"clean":       gitClean,
		"push":        gitPush,
		"branch":      gitBranch,
		"stash":       gitStash,
		"reflog":      gitReflog,
		"gc":          gitGc,
		"update-ref":  gitUpdateRef,
		"rm":          gitRm,
		"mv":          gitMv,
		"config":      gitConfig,
		"rebase":      gitRebase,
		"submodule":   gitSubmodule,
		"bisect":      gitBisect,
		"merge":       gitAbort("merge"),
		"am":          gitAbort("am"),
		"cherry-pick": gitAbort("cherry-pick"),
		"revert":      gitAbort("revert"),
		"tag":         gitTag,
	}
}

func gitReset(j *judge, g *gitArgs, _ []arg) {
	switch {
	case g.long("hard"):
		j.irreversible("reset --hard")
	case g.long("merge"): // resets staged files to the commit, their staged changes with them
		j.irreversible("reset --merge")
	}
}

// gitAbort asks about --abort of a merge, cherry-pick, revert, am or rebase: git resets the
// index and work tree to where the operation began (merge --abort is reset --merge), and the
// resolutions and uncommitted changes made meanwhile go with it.
func gitAbort(sub string) func(j *judge, g *gitArgs, _ []arg) {
	return func(j *judge, g *gitArgs, _ []arg) {
		if g.long("abort") {
			j.irreversible(sub + " --abort")
		}
	}
}

func gitTag(j *judge, g *gitArgs, _ []arg) {
	if g.short('d') || g.long("delete") {
		j.irreversible("tag -d")
	}
}

func gitSwitch(j *judge, g *gitArgs, _ []arg) {
	if g.short('f') || g.long("force", "discard-changes") {
		j.irreversible("switch --discard-changes")
	}
}

// gitCheckout asks about a forced checkout and a checkout of paths (operands after a tree, after
// "--", ".", or a --pathspec-from-file), which overwrites their changes. With -b, -B, --orphan
// or -t/--track git makes a branch and refuses paths, so only force counts.
func gitCheckout(j *judge, g *gitArgs, _ []arg) {
	creates := g.given('b') || g.given('B') || g.given('t') || g.long("orphan", "track")
	paths := g.afterDD < len(g.ops) || len(g.ops) >= 2 || hasOp(g.ops, ".") || g.long("pathspec-from-file")
	if g.short('f') || g.long("force") || paths && !creates {
		j.irreversible("checkout of files")
	}
}

// gitRestore asks when the restore writes the work tree: -W/--worktree, or neither
// -S/--staged nor --no-staged (the last of each pair given counts; --no-staged alone leaves
// git nothing to restore, and it refuses), and there are paths to restore (operands, a
// --pathspec-from-file, or -p, which may pick from all); without them git refuses.
func gitRestore(j *judge, g *gitArgs, _ []arg) {
	staged := g.lastSet('S', "staged", "no-staged")
	worktree := g.lastSet('W', "worktree", "no-worktree")
	if worktree < 0 && staged < 0 { // the work tree is the default only when neither is given
		worktree = 1
	}
	patch := g.lastSet('p', "patch", "no-patch") == 1
	if worktree == 1 && (len(g.ops) > 0 || g.long("pathspec-from-file") || patch) {
		j.irreversible("restore of files")
	}
}

func gitClean(j *judge, g *gitArgs, _ []arg) {
	if (g.short('f') || g.long("force")) && !(g.short('n') || g.long("dry-run")) {
		j.irreversible("clean -f")
	}
}

func gitPush(j *judge, g *gitArgs, _ []arg) { j.gitPush(g) }

func gitBranch(j *judge, g *gitArgs, _ []arg) {
	if g.short('D') || g.short('M') || g.short('C') || ((g.short('d') || g.long("delete")) && (g.short('f') || g.long("force"))) {
		j.irreversible("branch -D")
	}
}

func gitStash(j *judge, g *gitArgs, _ []arg) { j.firstOp(g, "stash", "drop", "clear") }

func gitReflog(j *judge, g *gitArgs, _ []arg) { j.firstOp(g, "reflog", "expire", "delete") }

func gitGc(j *judge, g *gitArgs, _ []arg) {
	for _, l := range g.longs {
		if l == "prune=now" || l == "prune=all" {
			j.irreversible("gc --" + l)
		}
	}
}

func gitUpdateRef(j *judge, g *gitArgs, _ []arg) {
	switch {
	case g.short('d') || g.long("delete"):
		j.irreversible("update-ref -d")
	case g.long("stdin") || len(g.ops) > 1 && (strings.HasPrefix(g.ops[0].s, "refs/heads/") || g.ops[0].s == "HEAD"):
		j.add(Ask, "guard/irreversible-git", "git update-ref moves a branch to a commit no hook has seen; a person must approve")
	}
}

func gitRm(j *judge, g *gitArgs, _ []arg) {
	if !g.long("cached") {
		for _, a := range g.ops {
			j.target(a, "git rm of", false)
		}
	}
}

func gitMv(j *judge, g *gitArgs, _ []arg) {
	for _, a := range g.ops {
		j.target(a, "git mv of", false)
	}
}

func gitConfig(j *judge, _ *gitArgs, rest []arg) { j.gitConfig(rest) }

func gitRebase(j *judge, g *gitArgs, _ []arg) {
	gitAbort("rebase")(j, g, nil)
	for _, x := range g.execArgs {
		j.payload(x, "git rebase --exec")
	}
}

func gitSubmodule(j *judge, g *gitArgs, rest []arg) { j.gitSubmodule(g, rest) }

// gitBisect judges the command of bisect run as written: every word after "run", its options
// included (bisect run sh -c CMD).
func gitBisect(j *judge, g *gitArgs, rest []arg) {
	if len(g.ops) == 0 || g.ops[0].s != "run" {
		return
	}
	for k, a := range rest {
		if a.s == "run" && k+1 < len(rest) {
			j.exec(rest[k+1:], nil)
			return
		}
	}
}

func (j *judge) gitSub(sub string, g *gitArgs, rest []arg) {
	if f := gitSubs[sub]; f != nil {
		f(j, g, rest)
	}
}

func (j *judge) irreversible(what string) {
	j.add(Ask, "guard/irreversible-git", "git "+what+" throws away work that cannot be recovered; a person must approve")
}

// firstOp asks when the first operand is one of the destructive ones (stash drop, reflog expire).
func (j *judge) firstOp(g *gitArgs, sub string, destructive ...string) {
	if len(g.ops) == 0 {
		return
	}
	for _, d := range destructive {
		if g.ops[0].s == d {
			j.irreversible(sub + " " + d)
		}
	}
}

func hasOp(ops []arg, want string) bool {
	for _, a := range ops {
		if a.s == want {
			return true
		}
	}
	return false
}

func (j *judge) gitPush(g *gitArgs) {
	force := g.short('f') || g.short('d') || g.long("mirror", "delete", "prune", "force")
	for _, l := range g.longs {
		if strings.HasPrefix(l, "force") {
			force = true
		}
	}
	for _, a := range g.ops {
		if strings.HasPrefix(a.s, "+") || strings.HasPrefix(a.s, ":") {
			force = true
		}
	}
	if force {
		j.add(Ask, "guard/irreversible-git", "git push with --force, --mirror, --delete or a +/: refspec rewrites or deletes what others have; a person must approve")
	}
}

// gitSubmodule judges the command of submodule foreach, the words after "foreach" and its own
// options (--recursive, -q): one word is a shell script, several are run as they are.
func (j *judge) gitSubmodule(g *gitArgs, rest []arg) {
	if len(g.ops) == 0 || g.ops[0].s != "foreach" {
		return
	}
	k := 0
	for k < len(rest) && rest[k].s != "foreach" {
		k++
	}
	k++
	for k < len(rest) && (rest[k].s == "--recursive" || rest[k].s == "-q" || rest[k].s == "--quiet") {
		k++
	}
	switch {
	case k == len(rest)-1: // one word: a shell script
		j.payload(rest[k], "git submodule foreach")
	case k < len(rest): // several: the command and its arguments, run as they are
		j.exec(rest[k:], nil)
	}
}

// gitConfig denies writes of the keys that change which hooks run: core.hooksPath, includes
// (which can set it), extensions.worktreeConfig (which makes git read config.worktree, where it
// can be set too), a core.worktree inside .git, and an alias whose body skips the hooks.
func (j *judge) gitConfig(args []arg) {
	read, write, ops := gitConfigWords(args)
	if read || len(ops) == 0 || (!write && len(ops) < 2) {
		return // reading a value
	}
	if f, ok := optValue(configOpts(args), "-f", "--file"); ok && !j.isGitConfigFile(f) {
		j.writePath(f, "git config --file writing", false) // git config -f .git/hooks/pre-commit
	}
	key := strings.ToLower(ops[0].s)
	switch {
	case key == "core.hookspath" || strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif."):
		j.add(Deny, "guard/hook-bypass", "git config "+key+" changes which hooks run; hooks are set up by a person (tollgate install)")
	case key == "extensions.worktreeconfig":
		j.add(Deny, "guard/hook-bypass", "git config extensions.worktreeConfig makes git read config.worktree, one more place core.hooksPath can be set; hooks are set up by a person (tollgate install)")
	case key == "core.worktree" && len(ops) > 1:
		j.coreWorktree("git config core.worktree", ops[1])
	case strings.HasPrefix(key, "alias.") && len(ops) > 1:
		j.aliasBypass(ops[0].s[len("alias."):], ops[1])
	}
}

// isGitConfigFile reports a git config file (.git/config, config.worktree, ~/.gitconfig, ...):
// git config -f writing one is judged by its key, like git config --local or --global.
func (j *judge) isGitConfigFile(f string) bool {
	p, ok := j.abs(f)
	if !ok {
		return false
	}
	p = fold(p)
	parts := components(p)
	return hasRun(parts, []string{".git", "config"}, false) || j.gitConfigFile(p, parts) != ""
}

// configOpts are git config's option words, values marked as operands() marks them.
func configOpts(args []arg) []string {
	opts, _ := operands(args, gitConfigValues)
	return opts
}

// coreWorktree denies a work tree inside .git or a protected path.
func (j *judge) coreWorktree(what string, a arg) {
	p, ok := j.in(j.cwd, a)
	if !ok {
		return
	}
	if why := j.insideGit(p); why != "" {
		j.add(Deny, "guard/hook-bypass", what+" "+a.s+" makes checkouts write into "+why+"; hooks and git's own files are changed by a person")
	}
}

var (
	gitConfigValues = set("-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "-t")
	gitConfigReads  = set("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool")
	gitConfigWrites = set("--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section")
)

// gitConfigWords reads git config's words: is it a read, an explicit write, and its operands
// (as written: the key is compared folded, a value keeps its case).
func gitConfigWords(args []arg) (read, write bool, ops []arg) {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case gitConfigValues[s]:
			i++
		case gitConfigReads[s]:
			read = true
		case gitConfigWrites[s]:
			write = true
		case len(ops) == 0 && (s == "get" || s == "list"):
			read = true
		case len(ops) == 0 && (s == "set" || s == "unset" || s == "rename-section" || s == "remove-section"):
			write = true
		case strings.HasPrefix(s, "-") && !args[i].dyn:
		default:
			ops = append(ops, args[i])
		}
	}
	return read, write, ops
}

// unknownParam marks a word holding a variable tollgate could not resolve.
var unknownParam = lazyre.New(`\$[A-Za-z_{@*]`)

// hHookManager denies uninstalling another hook manager's hooks (tollgate may run under it).
func hHookManager(j *judge, name string, args []arg, _ *stdinSrc) {
	if uninstalls(args) {
		j.add(Deny, "guard/hook-bypass", name+" uninstall removes the hooks (tollgate may run under it); a person does that, not an agent")
	}
}

func hTollgate(j *judge, _ string, args []arg, _ *stdinSrc) {
	if uninstalls(args) {
		j.add(Deny, "guard/hook-bypass", "tollgate uninstall removes the hooks; a person does that, not an agent")
	}
}

// uninstalls reports whether a command's first operand is uninstall.
func uninstalls(args []arg) bool {
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			return a.s == "uninstall"
		}
	}
	return false
}
