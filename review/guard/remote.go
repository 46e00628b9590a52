package guard

import (
	"net/url"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

var remoteHandlers = map[string]handler{
	"kubectl": hKube, "oc": hKube, "helm": hHelm, "terraform": hTerraform, "tofu": hTerraform,
	"terragrunt": hTerraform, "pulumi": hPulumi, "aws": hAWS, "gcloud": hCloudVerbs, "az": hCloudVerbs,
	"doctl": hCloudVerbs, "gh": hGH, "fly": hCloudVerbs, "flyctl": hCloudVerbs,
	"heroku": hCloudVerbs, "vercel": hCloudVerbs, "netlify": hCloudVerbs, "firebase": hCloudVerbs, "wrangler": hCloudVerbs,
}

func remoteAsk(j *judge, what string) {
	j.add(Ask, "guard/remote-mutation", what+" changes remote infrastructure or data; a person must approve")
}

// firstOperands returns the operands after skipping options (and the values of valued ones).
func firstOperands(args []arg, values map[string]bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "-") {
			if values[s] {
				i++
			}
			continue
		}
		out = append(out, strings.ToLower(s))
	}
	return out
}

var kubeMutating = set("apply", "create", "delete", "replace", "patch", "edit", "scale", "rollout", "drain", "cordon",
	"uncordon", "taint", "label", "annotate", "set", "autoscale", "expose", "run", "exec", "cp", "debug", "attach", "port-forward")

var kubeValues = set("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--token", "--as", "-l", "-f", "-o", "-c", "--container")

func hKube(j *judge, name string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, kubeValues)
	if len(ops) > 0 && kubeMutating[ops[0]] {
		if ops[0] == "rollout" && len(ops) > 1 && (ops[1] == "status" || ops[1] == "history") {
			return
		}
		remoteAsk(j, name+" "+ops[0])
	}
}

func hHelm(j *judge, _ string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, set("-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--version"))
	if len(ops) > 0 && set("install", "upgrade", "uninstall", "delete", "del", "rollback", "push", "un")[ops[0]] {
		remoteAsk(j, "helm "+ops[0])
	}
}

func hTerraform(j *judge, name string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, set("-var", "-var-file", "-target", "-state"))
	if len(ops) == 0 {
		return
	}
	switch ops[0] {
	case "apply", "destroy", "import", "taint", "untaint", "force-unlock", "run-all":
		remoteAsk(j, name+" "+ops[0])
	case "state":
		if len(ops) > 1 && set("rm", "mv", "push", "replace-provider")[ops[1]] {
			remoteAsk(j, name+" state "+ops[1])
		}
	case "workspace":
		if len(ops) > 1 && ops[1] == "delete" {
			remoteAsk(j, name+" workspace delete")
		}
	}
}

func hPulumi(j *judge, _ string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, set("-s", "--stack", "-C", "--cwd", "-c", "--config"))
	if len(ops) == 0 {
		return
	}
	switch {
	case set("up", "update", "destroy", "import", "refresh", "cancel")[ops[0]]:
		remoteAsk(j, "pulumi "+ops[0])
	case (ops[0] == "stack" || ops[0] == "state") && len(ops) > 1 && set("rm", "delete", "unprotect")[ops[1]]:
		remoteAsk(j, "pulumi "+ops[0]+" "+ops[1])
	}
}

var awsMutating = lazyre.New(`^(?:create|delete|put|update|modify|terminate|run|start|stop|reboot|attach|detach|associate|disassociate|remove|add|deregister|register|set|revoke|authorize|import|restore|invoke|send|publish|tag|untag|enable|disable|reset|copy|upload|replace|purge|cancel|execute|deploy|rotate|batch-write|batch-delete|write)\b`)

func hAWS(j *judge, _ string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, set("--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-input-json", "--bucket", "--key", "--function-name"))
	if len(ops) < 2 {
		return
	}
	svc, op := ops[0], ops[1]
	if svc == "s3" {
		switch op {
		case "rm", "rb", "mb", "mv":
			remoteAsk(j, "aws s3 "+op)
		case "cp", "sync":
			if strings.HasPrefix(ops[len(ops)-1], "s3://") {
				remoteAsk(j, "aws s3 "+op+" to a bucket")
			}
		}
		return
	}
	if awsMutating.MatchString(op) {
		remoteAsk(j, "aws "+svc+" "+op)
	}
}

var cloudVerbs = set("create", "delete", "update", "deploy", "destroy", "set", "patch", "resize", "stop", "start",
	"restart", "reset", "import", "rollback", "apply", "remove", "add", "undelete", "restore", "cancel", "submit",
	"execute", "purge", "add-iam-policy-binding", "remove-iam-policy-binding", "set-iam-policy", "scale", "rm",
	"apps:destroy", "config:set", "config:unset", "pg:reset", "releases:rollback", "secrets", "publish", "ssh")

func hCloudVerbs(j *judge, name string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, set("--project", "--account", "--region", "--zone", "--subscription", "-g", "--resource-group", "-a", "--app", "--context", "--configuration", "--format", "--output", "-o"))
	if len(ops) == 0 || set("config", "auth", "login", "logout", "account", "version", "help", "components")[ops[0]] {
		return
	}
	for _, op := range ops {
		if cloudVerbs[op] {
			remoteAsk(j, name+" "+op)
			return
		}
	}
	if (name == "vercel" || name == "netlify") && hasArg(args, "--prod") {
		remoteAsk(j, name+" --prod")
	}
}

var (
	ghValues    = set("-R", "--repo", "-b", "--body", "-t", "--title", "-F", "--body-file", "-X", "--method", "-f", "--field", "-H", "--header", "-q", "--jq", "-l", "--label", "-a", "--assignee", "-m", "--milestone", "-B", "--base", "--head")
	ghDeletes   = set("delete", "archive", "delete-asset", "transfer")
	ghDeletable = set("repo", "release", "secret", "variable", "ruleset", "gpg-key", "ssh-key", "label", "cache", "run")
)

func hGH(j *judge, _ string, args []arg, _ *stdinSrc) {
	ops := firstOperands(args, ghValues)
	if len(ops) == 0 {
		return
	}
	switch {
	case len(ops) > 1 && ghDeletes[ops[1]] && ghDeletable[ops[0]]:
		remoteAsk(j, "gh "+ops[0]+" "+ops[1])
	case len(ops) > 1 && (ops[0] == "secret" || ops[0] == "variable") && ops[1] == "set":
		remoteAsk(j, "gh "+ops[0]+" set")
	case ops[0] == "api":
		ghAPIDelete(j, args)
	}
}

// ghAPIDelete asks about gh api -X DELETE (and --method=DELETE).
func ghAPIDelete(j *judge, args []arg) {
	for i, a := range args {
		if (a.s == "-X" || a.s == "--method") && i+1 < len(args) && strings.ToUpper(args[i+1].s) == "DELETE" {
			remoteAsk(j, "gh api -X DELETE")
		}
		if strings.HasPrefix(a.s, "--method=") && strings.EqualFold(strings.TrimPrefix(a.s, "--method="), "DELETE") {
			remoteAsk(j, "gh api --method DELETE")
		}
	}
}

// sqlCall is what a SQL client invocation says: where, and what it runs.
type sqlCall struct {
	host string
	code []arg
	file bool
}

// parseSQLArgs reads the host, -c/-e programs and -f files of psql, mysql and friends.
func parseSQLArgs(name string, args []arg) sqlCall {
	var c sqlCall
	for i := 0; i < len(args); i++ {
		next := arg{}
		if i+1 < len(args) {
			next = args[i+1]
		}
		i += c.read(name, args[i].s, next)
	}
	return c
}

var (
	sqlCodeFlags = set("-c", "--command", "-e", "--execute", "-Q", "-q", "--query")
	sqlFileFlags = set("-f", "--file", "-i")
	sqlURLFlags  = set("-d", "--dbname", "--url")
)

// read takes one word s of a SQL client's arguments (next is the word after it); it returns
// how many following words it consumed.
func (c *sqlCall) read(name, s string, next arg) int {
	// sqlcmd names its server with -S (its -h is the header count); the others with -h.
	hostFlag := "-h"
	if name == "sqlcmd" {
		hostFlag = "-S"
	}
	switch {
	case s == hostFlag || s == "--host":
		c.host = next.s
	case strings.HasPrefix(s, "--host="):
		c.host = strings.TrimPrefix(s, "--host=")
		return 0
	case strings.HasPrefix(s, hostFlag) && len(s) > 2:
		c.host = s[2:]
		return 0
	case sqlCodeFlags[s]:
		c.code = append(c.code, next)
	case sqlFileFlags[s]:
		c.file = true
	case sqlURLFlags[s]:
		if h := urlHost(next.s); h != "" {
			c.host = h
		}
	case strings.Contains(s, "://"):
		c.host = urlHost(s)
		return 0
	default:
		return 0
	}
	return 1
}

func urlHost(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

func localHost(h string) bool {
	h = strings.ToLower(strings.Trim(h, "[]"))
	return h == "" || h == "localhost" || h == "127.0.0.1" || h == "::1" || h == "0.0.0.0" || strings.HasPrefix(h, "/") || strings.HasPrefix(h, "127.")
}

// dbHostEnv names the environment variable each database client reads its host from ("" none).
var dbHostEnv = map[string]string{
	"psql": "PGHOST", "dropdb": "PGHOST", "createdb": "PGHOST", "pg_dump": "PGHOST", "pg_dumpall": "PGHOST",
	"pg_restore": "PGHOST", "pgbench": "PGHOST", "vacuumdb": "PGHOST", "reindexdb": "PGHOST",
	"mysql": "MYSQL_HOST", "mariadb": "MYSQL_HOST", "mysqladmin": "MYSQL_HOST", "mysqldump": "MYSQL_HOST",
	"mysqlimport": "MYSQL_HOST", "mariadb-dump": "MYSQL_HOST", "mariadb-admin": "MYSQL_HOST",
	"sqlcmd": "", "cockroach": "", "clickhouse-client": "", "mongosh": "", "mongo": "", "redis-cli": "",
}

// dbServer is where a database client connects ("" this machine), and whether that is known
// before it runs: its flags or URL, else its host variable set in the call.
func (j *judge) dbServer(name string, args []arg) (string, bool) {
	var host string
	switch name {
	case "mongosh", "mongo":
		host = mongoHost(args)
	case "redis-cli":
		host = redisHost(args)
	default:
		host = parseSQLArgs(name, args).host
	}
	if host == "" {
		if env := dbHostEnv[name]; env != "" {
			host, _ = j.envSetting(env)
		}
	}
	if strings.Contains(host, "$") || name != "redis-cli" && dynFirstOperand(args) {
		return host, false
	}
	return host, true
}

// dynFirstOperand reports a first operand (not an option's value) only known at run time: a
// connection string such as "$DATABASE_URL".
func dynFirstOperand(args []arg) bool {
	for i, a := range args {
		if strings.HasPrefix(a.s, "-") || i > 0 && strings.HasPrefix(args[i-1].s, "-") {
			continue
		}
		return a.dyn
	}
	return false
}

// mongoHost is the host mongosh connects to: --host, a mongodb:// URL, or host/db.
func mongoHost(args []arg) string {
	for i, a := range args {
		switch {
		case a.s == "--host" && i+1 < len(args):
			return args[i+1].s
		case strings.HasPrefix(a.s, "--host="):
			return strings.TrimPrefix(a.s, "--host=")
		case strings.HasPrefix(a.s, "mongodb://") || strings.HasPrefix(a.s, "mongodb+srv://"):
			return urlHost(a.s)
		case !strings.HasPrefix(a.s, "-") && strings.Contains(a.s, "/") && !strings.HasSuffix(a.s, ".js") && (i == 0 || !strings.HasPrefix(args[i-1].s, "-")):
			h, _, _ := strings.Cut(a.s, "/")
			h, _, _ = strings.Cut(h, ":")
			return h
		}
	}
	return ""
}

// redisHost is the host redis-cli connects to: -h, or the URL of -u.
func redisHost(args []arg) string {
	for i := 0; i+1 < len(args); i++ {
		switch args[i].s {
		case "-h":
			return args[i+1].s
		case "-u":
			return urlHost(args[i+1].s)
		}
	}
	return ""
}
