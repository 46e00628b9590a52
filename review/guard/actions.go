package guard

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// action is one risky thing a command does, asked about whichever handler judges the rest of
// the command: ops are its leading operands (subcommands, lower case; nil: any), values the
// options that take a value (skipped when finding ops), when an extra test of its words (nil:
// always). what completes "<name> ..." in the reason.
type action struct {
	ops    []string
	values map[string]bool
	when   func(j *judge, args []arg) bool
	rule   string
	what   string
}

// The rules of the action table.
const (
	ruleDestroy = "guard/wide-destruction"
	rulePriv    = "guard/privilege"
	ruleRemote  = "guard/remote-mutation"
	rulePublish = "guard/publish"
	ruleGlobal  = "guard/global-install"
	ruleGit     = "guard/irreversible-git"
	ruleFetch   = "guard/download-exec"
	ruleSecret  = "guard/secret-read"
)

var (
	npmValues     = set("--prefix", "-w", "--workspace", "--registry", "--tag", "--otp", "--access")
	dockerGlobals = set("-H", "--host", "-c", "--context", "--config", "-l", "--log-level")
)

// actions is the one table of what a command does beyond its files: its category (the rule),
// and the host or paths it reaches (the when tests). Everything in it is asked, never denied.
var actions = map[string][]action{
	"kill":    {{when: signalsAll, rule: ruleDestroy, what: "-1 signals every process you own"}},
	"nsenter": {{rule: rulePriv, what: "enters another process's namespaces"}},
	"unshare": {{rule: rulePriv, what: "runs a command in new namespaces (it can map you to root)"}},
	"setcap":  {{rule: rulePriv, what: "grants a program capabilities"}},
	"capsh":   {{rule: rulePriv, what: "runs a command with changed capabilities"}},
	"chmod":   {{when: setsID, rule: rulePriv, what: "sets a setuid or setgid bit"}},
	"docker":  dockerActions,
	"podman":  dockerActions,
	"git": {
		{when: cleanUnforced, rule: ruleGit, what: "clean with clean.requireForce=false deletes untracked files for good"},
		{ops: []string{"worktree", "remove"}, values: gitGlobalValues, when: forced, rule: ruleGit, what: "worktree remove --force deletes a worktree with its uncommitted changes"},
		{ops: []string{"credential", "fill"}, values: gitGlobalValues, rule: ruleSecret, what: "credential fill prints a stored password or token"},
	},
	"pwsh":       psActions,
	"powershell": psActions,
	"npm": {
		{ops: []string{"publish"}, values: npmValues, when: notDryRun, rule: rulePublish, what: "publish releases a package to a registry"},
		{when: npmGlobal, rule: ruleGlobal, what: "installs globally, outside the project"},
	},
	"pnpm": {
		{ops: []string{"publish"}, values: npmValues, when: notDryRun, rule: rulePublish, what: "publish releases a package to a registry"},
		{when: npmGlobal, rule: ruleGlobal, what: "installs globally, outside the project"},
	},
	"yarn": {
		{ops: []string{"publish"}, values: npmValues, rule: rulePublish, what: "publish releases a package to a registry"},
		{ops: []string{"npm", "publish"}, values: npmValues, when: notDryRun, rule: rulePublish, what: "npm publish releases a package to a registry"},
		{ops: []string{"global"}, values: npmValues, rule: ruleGlobal, what: "global changes packages outside the project"},
	},
	"cargo":  {{ops: []string{"publish"}, when: notDryRun, rule: rulePublish, what: "publish releases a crate to crates.io"}},
	"twine":  {{ops: []string{"upload"}, rule: rulePublish, what: "upload releases a package to a package index"}},
	"gem":    {{ops: []string{"push"}, rule: rulePublish, what: "push releases a gem"}},
	"poetry": {{ops: []string{"publish"}, when: notDryRun, rule: rulePublish, what: "publish releases a package to a package index"}},
	"uv": {
		{ops: []string{"publish"}, rule: rulePublish, what: "publish releases a package to a package index"},
		{ops: []string{"pip", "install"}, when: pipSystem, rule: ruleGlobal, what: "pip install into the system Python"},
	},
	"pip":  {{ops: []string{"install"}, when: pipSystem, rule: ruleGlobal, what: "installs into the system Python"}},
	"pip3": {{ops: []string{"install"}, when: pipSystem, rule: ruleGlobal, what: "installs into the system Python"}},
	"gh": {
		{ops: []string{"pr", "merge"}, values: ghValues, rule: ruleRemote, what: "pr merge merges a pull request"},
		{ops: []string{"pr", "close"}, values: ghValues, rule: ruleRemote, what: "pr close closes a pull request"},
		{ops: []string{"issue", "close"}, values: ghValues, rule: ruleRemote, what: "issue close closes an issue"},
		{ops: []string{"workflow", "run"}, values: ghValues, rule: ruleRemote, what: "workflow run starts a CI workflow"},
		{ops: []string{"release", "create"}, values: ghValues, rule: rulePublish, what: "release create publishes a release"},
		{ops: []string{"api"}, values: ghValues, when: ghAPIWritesRepo, rule: ruleRemote, what: "api writes files, commits or refs of a repository, past its hooks"},
		{ops: []string{"auth", "token"}, values: ghValues, rule: ruleSecret, what: "auth token prints your GitHub token"},
		{ops: []string{"auth", "status"}, values: ghValues, when: showsToken, rule: ruleSecret, what: "auth status --show-token prints your GitHub token"},
	},
	"env":      {{when: envPrints, rule: ruleSecret, what: "without a command prints the whole environment, tokens included"}},
	"printenv": {{when: printenvPrints, rule: ruleSecret, what: "prints environment variables that hold secrets"}},
	"set":      {{when: noArgs, rule: ruleSecret, what: "without arguments prints every variable, tokens included"}},
	"export":   {{when: declaresPrint, rule: ruleSecret, what: "without a name prints every exported variable, tokens included"}},
	"declare":  {{when: declaresPrint, rule: ruleSecret, what: "prints variables with their values, tokens included"}},
	"typeset":  {{when: declaresPrint, rule: ruleSecret, what: "prints variables with their values, tokens included"}},
	"echo":     {{when: printsSecretVar, rule: ruleSecret, what: "prints a variable named for a secret"}},
	"printf":   {{when: printsSecretVar, rule: ruleSecret, what: "prints a variable named for a secret"}},
	"kubectl": {
		{ops: []string{"config", "view"}, values: kubeValues, when: hasRaw, rule: ruleSecret, what: "config view --raw prints the cluster credentials"},
		{when: kubeSecretDump, rule: ruleSecret, what: "get secret -o ... prints the secrets' values"},
	},
	"security": {{when: keychainPassword, rule: ruleSecret, what: "prints a password from the keychain"}},
	"vault": {
		{ops: []string{"kv", "get"}, rule: ruleSecret, what: "kv get prints a secret"},
		{ops: []string{"read"}, rule: ruleSecret, what: "read prints a secret"},
	},
	"op":     {{ops: []string{"read"}, rule: ruleSecret, what: "read prints a secret"}, {ops: []string{"item", "get"}, rule: ruleSecret, what: "item get prints a secret"}},
	"pass":   {{ops: []string{"show"}, rule: ruleSecret, what: "show prints a password"}},
	"heroku": {{ops: []string{"auth:token"}, rule: ruleSecret, what: "auth:token prints your API token"}},
	"gcloud": {{ops: []string{"auth", "print-access-token"}, rule: ruleSecret, what: "auth print-access-token prints a token"}, {ops: []string{"auth", "print-identity-token"}, rule: ruleSecret, what: "auth print-identity-token prints a token"}, {ops: []string{"auth", "application-default", "print-access-token"}, rule: ruleSecret, what: "prints a token"}},
	"aws": {
		{ops: []string{"configure", "export-credentials"}, values: awsValues, rule: ruleSecret, what: "configure export-credentials prints your credentials"},
		{ops: []string{"configure", "get"}, values: awsValues, when: awsSecretKey, rule: ruleSecret, what: "configure get prints a secret key"},
		{ops: []string{"sts", "get-session-token"}, values: awsValues, rule: ruleSecret, what: "sts get-session-token prints credentials"},
		{ops: []string{"secretsmanager", "get-secret-value"}, values: awsValues, rule: ruleSecret, what: "secretsmanager get-secret-value prints a secret"},
		{ops: []string{"ssm", "get-parameter"}, values: awsValues, when: withDecryption, rule: ruleSecret, what: "ssm get-parameter --with-decryption prints a secret"},
		{ops: []string{"ssm", "get-parameters"}, values: awsValues, when: withDecryption, rule: ruleSecret, what: "ssm get-parameters --with-decryption prints secrets"},
	},
	"az": {{ops: []string{"account", "get-access-token"}, rule: ruleSecret, what: "account get-access-token prints a token"}},
}

func init() {
	// the database clients: a server that is not this machine (or only known at run time) is
	// asked, whatever the command does there
	for name := range dbHostEnv {
		name := name
		actions[name] = append(actions[name], action{when: func(j *judge, args []arg) bool {
			host, known := j.dbServer(name, args)
			return !known || !localHost(host)
		}, rule: ruleRemote, what: "connects to a database that is not on this machine (or only known when it runs)"})
	}
	// the commands that read directories whole: the home directory (or one above it) holds
	// every secret
	for name := range treeReaders {
		name := name
		actions[name] = append(actions[name], action{when: func(j *judge, args []arg) bool {
			return j.readsHomeTree(name, args)
		}, rule: ruleSecret, what: "reads the whole home directory (or one above it), ~/.ssh and ~/.aws included"})
	}
}

var awsValues = set("--profile", "--region", "--output", "--endpoint-url", "--query")

var dockerActions = []action{
	{ops: []string{"run"}, values: dockerGlobals, when: dockerHostAccess, rule: rulePriv, what: "run gives the container the host (privileged, host root, the docker socket or host namespaces)"},
	{ops: []string{"create"}, values: dockerGlobals, when: dockerHostAccess, rule: rulePriv, what: "create gives the container the host (privileged, host root, the docker socket or host namespaces)"},
	{ops: []string{"container", "run"}, values: dockerGlobals, when: dockerHostAccess, rule: rulePriv, what: "container run gives the container the host"},
	{ops: []string{"system", "prune"}, values: dockerGlobals, when: func(_ *judge, args []arg) bool { return hasArg(args, "--volumes") }, rule: ruleDestroy, what: "system prune --volumes deletes every unused volume's data"},
	{ops: []string{"volume", "prune"}, values: dockerGlobals, rule: ruleDestroy, what: "volume prune deletes unused volumes' data"},
}

var psActions = []action{
	{when: psDownloadExec, rule: ruleFetch, what: "downloads code and runs it (iwr | iex)"},
	{when: psEncoded, rule: "guard/dynamic", what: "runs an encoded command nobody can read"},
}

// risky asks about what the action table says the command does.
func (j *judge) risky(name string, args []arg) {
	acts := actions[name]
	for i := range acts {
		a := &acts[i]
		if len(a.ops) > 0 && !leadingOps(firstOperands(args, a.values), a.ops) {
			continue
		}
		if a.when != nil && !a.when(j, args) {
			continue
		}
		j.add(Ask, a.rule, name+" "+a.what+"; a person must approve")
	}
}

func leadingOps(ops, want []string) bool {
	if len(ops) < len(want) {
		return false
	}
	for i, w := range want {
		if ops[i] != w {
			return false
		}
	}
	return true
}

// signalsAll reports kill's pid -1 (every process the user may signal).
func signalsAll(_ *judge, args []arg) bool {
	i := 0
	switch {
	case len(args) > 0 && (args[0].s == "-s" || args[0].s == "-n"):
		i = 2
	case len(args) > 1 && strings.HasPrefix(args[0].s, "-"):
		i = 1 // the signal: -9, -KILL
	}
	for ; i < len(args); i++ {
		if args[i].s == "-1" {
			return true
		}
	}
	return false
}

var setIDMode = lazyre.New(`^(?:[ugoa]*[+=][rwxXt]*s|[0-7]*[2-7][0-7]{3})$`)

// setsID reports a chmod mode that sets setuid or setgid (u+s, g+s, 4755, 2755).
func setsID(_ *judge, args []arg) bool {
	for _, a := range args {
		for _, m := range strings.Split(a.s, ",") {
			if setIDMode.MatchString(m) && (len(m) != 4 || m[0] != '1') {
				return true
			}
		}
	}
	return false
}

// cleanUnforced reports git -c clean.requireForce=false clean.
func cleanUnforced(_ *judge, args []arg) bool {
	ops := firstOperands(args, gitGlobalValues)
	if len(ops) == 0 || ops[0] != "clean" {
		return false
	}
	for i := 0; i+1 < len(args); i++ {
		if args[i].s != "-c" {
			continue
		}
		k, v, _ := strings.Cut(args[i+1].s, "=")
		if strings.EqualFold(k, "clean.requireForce") && isOff(strings.ToLower(strings.TrimSpace(v))) {
			return true
		}
	}
	return false
}

func forced(_ *judge, args []arg) bool {
	opts, _ := operands(args, nil)
	return hasShort(opts, 'f', "force", "forc", "for", "fo")
}

// ghRepoWrite names the API endpoints that write a repository's content: files, git objects and
// refs, and GraphQL's createCommitOnBranch.
var ghRepoWrite = lazyre.New(`(?i)(?:^|/)repos/[^/\s]+/[^/\s]+/(?:contents|git/(?:refs|commits|trees|blobs|tags)|merges|pulls/\d+/merge)\b|createCommitOnBranch|updateRef|createRef`)

// ghAPIWritesRepo reports gh api writing to such an endpoint: a method other than GET, or fields
// (gh api then posts them).
func ghAPIWritesRepo(_ *judge, args []arg) bool {
	write, target := false, false
	for i, a := range args {
		s := a.s
		switch {
		case (s == "-X" || s == "--method") && i+1 < len(args):
			write = write || !strings.EqualFold(args[i+1].s, "GET")
		case strings.HasPrefix(s, "--method="):
			write = write || !strings.EqualFold(strings.TrimPrefix(s, "--method="), "GET")
		case s == "-f" || s == "-F" || s == "--field" || s == "--raw-field" || s == "--input" ||
			strings.HasPrefix(s, "--field=") || strings.HasPrefix(s, "--raw-field=") || strings.HasPrefix(s, "--input="):
			write = true
		}
		if ghRepoWrite.MatchString(s) {
			target = true
		}
	}
	return write && target
}

func notDryRun(_ *judge, args []arg) bool { return !hasArg(args, "--dry-run", "-n") }

func npmGlobal(_ *judge, args []arg) bool {
	ops := firstOperands(args, npmValues)
	if len(ops) == 0 || !set("i", "install", "add", "update", "up", "uninstall", "remove", "rm", "un", "link", "ln")[ops[0]] {
		return false
	}
	return hasArg(args, "-g", "--global", "--location=global", "--global=true")
}

func pipSystem(_ *judge, args []arg) bool {
	for _, a := range args {
		if a.s == "--system" || a.s == "--break-system-packages" || a.s == "--root" || strings.HasPrefix(a.s, "--root=") {
			return true
		}
	}
	return false
}

// dockerValues are docker run's options that take a value (to find the image, after which the
// words are the container's command).
var dockerValues = set("-v", "--volume", "--mount", "-e", "--env", "--env-file", "-p", "--publish", "--name", "-w",
	"--workdir", "-u", "--user", "--network", "--net", "--pid", "--ipc", "--uts", "--userns", "--cap-add", "--cap-drop",
	"--entrypoint", "-h", "--hostname", "-l", "--label", "--device", "--security-opt", "--platform", "--restart",
	"-m", "--memory", "--cpus", "--add-host", "--dns", "--tmpfs", "--ulimit", "--log-driver", "--log-opt",
	"--volumes-from", "--cgroupns", "--gpus", "--shm-size", "--pull", "--runtime", "--stop-signal", "-a", "--attach")

// dockerHostAccess reports docker run options that hand the host to the container.
func dockerHostAccess(_ *judge, args []arg) bool {
	i := 0
	for i < len(args) && args[i].s != "run" && args[i].s != "create" {
		i++
	}
	for i++; i < len(args); i++ {
		s := args[i].s
		if !strings.HasPrefix(s, "-") {
			return false // the image: the rest is the container's command
		}
		name, val, hasVal := strings.Cut(s, "=")
		if !hasVal && dockerValues[name] && i+1 < len(args) {
			i++
			val = args[i].s
		}
		if dockerOptionGivesHost(name, val) {
			return true
		}
	}
	return false
}

func dockerOptionGivesHost(name, val string) bool {
	switch name {
	case "--privileged":
		return val == "" || val == "true"
	case "-v", "--volume", "--mount":
		return strings.Contains(val, "docker.sock") || hostRootMount(val)
	case "--pid", "--ipc", "--uts", "--userns", "--net", "--network", "--cgroupns":
		return val == "host"
	case "--cap-add":
		v := strings.ToUpper(val)
		return v == "ALL" || v == "SYS_ADMIN" || v == "SYS_PTRACE" || v == "SYS_MODULE"
	case "--security-opt":
		return strings.Contains(val, "unconfined")
	case "--device":
		return true
	}
	return false
}

// hostRootMount reports a bind mount of the host's root (-v /:/host, source=/).
func hostRootMount(val string) bool {
	if strings.HasPrefix(val, "/:") {
		return true
	}
	for _, kv := range strings.Split(val, ",") {
		if k, v, _ := strings.Cut(kv, "="); (k == "source" || k == "src") && v == "/" {
			return true
		}
	}
	return false
}

var (
	psDownload = lazyre.New(`(?i)\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|start-bitstransfer|curl|wget)\b`)
	psRun      = lazyre.New(`(?i)\b(?:iex|invoke-expression|invoke-command|start-process)\b|&\s*\(|\.\s*\(`)
)

// psDownloadExec reports PowerShell code that downloads and runs (iwr ... | iex).
func psDownloadExec(_ *judge, args []arg) bool {
	text, _ := joinArgs(args)
	return psDownload.MatchString(text) && psRun.MatchString(text)
}

// psEncoded reports -EncodedCommand (and its prefixes -e, -ec, -enc).
func psEncoded(_ *judge, args []arg) bool {
	for _, a := range args {
		s := strings.ToLower(strings.TrimLeft(a.s, "-/"))
		if len(a.s) > 1 && (a.s[0] == '-' || a.s[0] == '/') && len(s) >= 1 && (s == "e" || s == "ec" || strings.HasPrefix("encodedcommand", s) && len(s) >= 2 && s[:2] == "en") {
			return true
		}
	}
	return false
}
