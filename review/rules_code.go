package review

import (
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// sqlVerb starts a SQL statement; sqlJoin glues non-literal text to it.
const (
	sqlVerb = `(?:select\s.+\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b`
	sqlJoin = `(?:\+\s*[\w(]|%\s*[\w(]|\.\s*format\s*\(|\.\s*\$)`
)

// The insecure-code floor: deliberately conservative, added lines only, comments ignored.
var codeRules = []lineRule{
	{
		Rule: Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Go InsecureSkipVerify)",
			Catches:     Example{"client.go", "tlsConfig := &tls.Config{InsecureSkipVerify: true}"},
			Leaves:      Example{"client.go", "tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}"}},
		hint:  "InsecureSkipVerify",
		kinds: []lang.Kind{lang.Go}, re: lazyRegexp(`\bInsecureSkipVerify\s*:\s*true\b`), confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Python verify=False)",
			Catches:     Example{"fetch.py", `r = requests.get(url, verify=False)`},
			Leaves:      Example{"fetch.py", `r = requests.get(url, verify="/etc/ssl/ca.pem")`}},
		hint:  "False",
		kinds: []lang.Kind{lang.Python}, re: lazyRegexp(`\bverify\s*=\s*False\b`), confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Node rejectUnauthorized: false)",
			Catches:     Example{"client.js", `const agent = new https.Agent({ rejectUnauthorized: false });`},
			Leaves:      Example{"client.js", `const agent = new https.Agent({ rejectUnauthorized: true });`}},
		hint:  "rejectUnauthorized",
		kinds: []lang.Kind{lang.JS}, re: lazyRegexp(`\brejectUnauthorized\s*:\s*false\b`), confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off for all of Node (NODE_TLS_REJECT_UNAUTHORIZED=0)",
			Catches:     Example{"start.sh", `export NODE_TLS_REJECT_UNAUTHORIZED=0`},
			Leaves:      Example{"start.sh", `export NODE_TLS_REJECT_UNAUTHORIZED=1`}},
		hint:       "NODE_TLS_REJECT_UNAUTHORIZED",
		re:         lazyRegexp(`\bNODE_TLS_REJECT_UNAUTHORIZED["']?\s*[:=]\s*["']?0\b`),
		confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off for a Kubernetes cluster (insecure-skip-tls-verify)",
			Catches:     Example{"kubeconfig.yaml", `    insecure-skip-tls-verify: true`},
			Leaves:      Example{"kubeconfig.yaml", `    certificate-authority: /etc/k8s/ca.crt`}},
		hint:       "insecure-skip-tls-verify",
		re:         lazyRegexp(`insecure-skip-tls-verify(?:\s*[:=]\s*["']?true\b|\s*$|\s+--|["']?\s*[,)\]])`),
		confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Python shell=True)",
			Catches:     Example{"run.py", `subprocess.run(f"tar xf {name}", shell=True)`},
			Leaves:      Example{"run.py", `subprocess.run(["tar", "xf", name])`}},
		hint:  "True",
		kinds: []lang.Kind{lang.Python}, re: lazyRegexp(`\bshell\s*=\s*True\b`),
		// A lone string literal as the command is not input.
		unless:     lazyRegexp(`\(\s*(?:r|b)?("[^"{}%]*"|'[^'{}%]*')\s*,\s*shell\s*=\s*True`),
		confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (sh -c with a variable)",
			Catches:     Example{"deploy.sh", `sh -c "$1"`},
			Leaves:      Example{"deploy.sh", `sh -c 'echo done'`}},
		kinds:      []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		hint:       "-c",
		re:         lazyRegexp(`\b(?:ba|z|da)?sh\s+-c\s+(?:"[^"]*\$|\$)`),
		confidence: 0.7,
	},
	{
		Rule: Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (exec of sh -c with a variable)",
			Catches:     Example{"run.go", `out, err := exec.Command("sh", "-c", cmd).Output()`},
			Leaves:      Example{"run.go", `out, err := exec.Command("sh", "-c", "ls -l").Output()`}},
		kinds:      []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.Ruby, lang.PHP},
		hint:       "-c",
		re:         lazyRegexp(`["'](?:/bin/)?(?:ba|z)?sh["']\s*,\s*["']-c["']\s*,\s*(?:[A-Za-z_$]|f["']|["'][^"']*["']\s*\+)`),
		confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/shell-injection", Severity: policy.Critical, CWE: []string{"CWE-78"},
			Description: "a shell runs request data (PHP system/exec/passthru with $_GET/$_POST)",
			Catches:     Example{"ping.php", `system("ping -c 1 " . $_GET['host']);`},
			Leaves:      Example{"ping.php", `system("ping -c 1 " . escapeshellarg($host));`}},
		kinds:      []lang.Kind{lang.PHP},
		hint:       "$_",
		re:         lazyRegexp("(?:\\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\\s*\\([^;]*|`[^`]*)\\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\\b"),
		unless:     lazyRegexp(`escapeshellarg\s*\(\s*\$_`),
		confidence: 0.95,
	},
	{
		Rule: Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Node child_process.exec with concatenation)",
			Catches:     Example{"run.js", "exec(`convert ${req.query.file} out.png`, cb);"},
			Leaves:      Example{"run.js", `execFile("convert", [file, "out.png"], cb);`}},
		kinds:      []lang.Kind{lang.JS},
		hint:       "exec",
		re:         lazyRegexp("\\b(?:child_process\\.)?exec(?:Sync)?\\s*\\(\\s*(?:`[^`]*\\$\\{|[\"'][^\"']*[\"']\\s*\\+|[A-Za-z_$][\\w.$]*\\s*\\+)"),
		confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "pickle can run code while loading data",
			Catches:     Example{"load.py", `obj = pickle.loads(request.data)`},
			Leaves:      Example{"load.py", `obj = json.loads(request.data)`}},
		anyFold: []string{"pickle", "dill", "shelve"},
		kinds:   []lang.Kind{lang.Python}, re: lazyRegexp(`\b(?:c?[Pp]ickle|_pickle|dill|shelve)\.(?:loads?|Unpickler|open)\s*\(`), confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "yaml.load without a safe loader can construct arbitrary objects",
			Catches:     Example{"conf.py", `cfg = yaml.load(stream)`},
			Leaves:      Example{"conf.py", `cfg = yaml.safe_load(stream)`}},
		kinds:      []lang.Kind{lang.Python},
		hint:       "yaml.",
		re:         lazyRegexp(`\byaml\.(?:unsafe_load|load|load_all|full_load)\s*\(`),
		unless:     lazyRegexp(`Loader\s*=\s*(?:yaml\.)?C?(?:Safe|Base)Loader\b`),
		confidence: 0.85,
	},
	{
		Rule: Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "Java ObjectInputStream deserialises arbitrary classes from its input",
			Catches:     Example{"Load.java", `Object o = new ObjectInputStream(socket.getInputStream()).readObject();`},
			Leaves:      Example{"Load.java", `Config c = mapper.readValue(in, Config.class);`}},
		hint:  "ObjectInputStream",
		kinds: []lang.Kind{lang.Java}, re: lazyRegexp(`\bnew\s+ObjectInputStream\s*\(`), confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/eval-request-data", Severity: policy.Critical, CWE: []string{"CWE-95"},
			Description: "eval runs data that comes from a request",
			Catches:     Example{"calc.py", `result = eval(request.args.get("expr"))`},
			Leaves:      Example{"calc.py", `result = ast.literal_eval(text)`}},
		kinds:      []lang.Kind{lang.Python, lang.JS, lang.PHP, lang.Ruby},
		anyFold:    []string{"eval", "exec", "function"},
		re:         lazyRegexp(`(?:^|[^\w.])(?:eval|exec|Function|instance_eval|class_eval)\s*\([^)]*(?:\brequest\.|\breq\.(?:body|query|params|headers|cookies)|\$_(?:GET|POST|REQUEST|COOKIE)|\bparams\[|\binput\s*\(|\bsys\.argv|\blocation\.(?:hash|search)|\bdocument\.cookie)`),
		confidence: 0.9,
	},
	{
		Rule: Rule{ID: "tollgate/sql-concatenation", Severity: policy.High, CWE: []string{"CWE-89"},
			Description: "SQL is built by string concatenation or formatting, not parameters",
			Catches:     Example{"users.py", `cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")`},
			Leaves:      Example{"users.py", `cursor.execute("SELECT * FROM users WHERE name = %s", (name,))`}},
		kinds:   []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.PHP, lang.Ruby},
		anyFold: []string{"select", "insert", "update", "delete"},
		re: lazyRegexp(`(?i)(?:` +
			// "SELECT ... " + var  |  'SELECT ...' % var  |  "...".format(  |  f"SELECT ... {x}"
			`"\s*` + sqlVerb + `[^"]*"\s*` + sqlJoin + `|'\s*` + sqlVerb + `[^']*'\s*` + sqlJoin +
			`|\bf"` + sqlVerb + `[^"]*\{|\bf'` + sqlVerb + `[^']*\{` +
			"|`" + sqlVerb + "[^`]*\\$\\{" +
			`|\bSprintf\s*\(\s*"` + sqlVerb + `[^"]*%[sv]` +
			`)`),
		confidence: 0.75,
	},
	{
		Rule: Rule{ID: "tollgate/world-writable", Severity: policy.Medium, CWE: []string{"CWE-732"},
			Description: "a file or directory is made writable by everyone (777)",
			Catches:     Example{"setup.sh", `chmod -R 777 /var/www`},
			Leaves:      Example{"setup.sh", `chmod 600 ~/.ssh/config`}},
		kinds:      []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		hint:       "chmod",
		re:         lazyRegexp(`\bchmod\s+(?:-[a-zA-Z]+\s+)*(?:0?777|[ugoa]*o[ugoa]*[+=][rwxX]*w|a[+=][rwxX]*w|\+w)\b`),
		confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/world-writable", Severity: policy.Medium, CWE: []string{"CWE-732"},
			Description: "a file or directory is created or changed with mode 0777",
			Catches:     Example{"store.go", `os.MkdirAll(dir, 0777)`},
			Leaves:      Example{"store.go", `os.WriteFile(path, data, 0o600)`}},
		kinds:      []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.PHP, lang.Ruby, lang.C},
		hint:       "777",
		re:         lazyRegexp(`(?i)\b(?:chmod\w*|mkdir\w*|makedirs|writefile|openfile|open|umask|fchmod|chmodsync|mkdirsync|set_permissions|setPosixFilePermissions)\b[^;]*[(,\s]0o?777\b|\bmode\s*[:=]\s*0o?777\b`),
		confidence: 0.8,
	},
	{
		Rule: Rule{ID: "tollgate/curl-pipe-shell", Severity: policy.High, CWE: []string{"CWE-494"},
			Description: "a script downloads code and runs it unverified (curl | sh)",
			Catches:     Example{"Dockerfile", `RUN curl -fsSL https://get.example.com/install.sh | sh`},
			Leaves:      Example{"Dockerfile", `RUN curl -fsSLo install.sh https://get.example.com/install.sh && sha256sum -c install.sh.sha256`}},
		kinds:      []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		hint:       "sh",
		re:         lazyRegexp(`\b(?:curl|wget|fetch)\b[^|;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+\s+)?(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?\$\(\s*(?:curl|wget)\b|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b`),
		confidence: 0.9,
	},
}
