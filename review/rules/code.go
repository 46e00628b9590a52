package rules

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// lineRule is a rule matched on one added line's code (comments stripped unless inComments).
type lineRule struct {
	review.Rule
	kinds      []lang.Kind // nil: every kind that is not prose
	re         *lazyre.RE
	unless     *lazyre.RE // the line is safe if this matches
	check      func(code string, m []int) bool
	hint       string   // a substring every match contains (case-sensitive): the regex runs only then
	anyFold    []string // lower-case words one of which every match contains (case-insensitive)
	confidence float64
	inComments bool
	// safeIn reports a match safe given the lines above it (nil: never; f is nil for files
	// the cross-line reader does not read).
	safeIn func(f *flow, code string, m []int) bool
	// calm says why a match is reported at low ("" keeps the rule's severity; see evidence.go):
	// f is nil for files the cross-line reader does not read.
	calm func(f *flow, k lang.Kind, code string, m []int) string
}

func (r *lineRule) applies(k lang.Kind) bool {
	if r.kinds == nil {
		return !k.IsProse()
	}
	for _, x := range r.kinds {
		if x == k {
			return true
		}
	}
	return false
}

// mayMatch applies the rule's cheap filters to an added line: its hint, and its words
// (lower holds the line lower-cased once one rule needed it).
func (r *lineRule) mayMatch(line string, lower *string) bool {
	if r.hint != "" && !strings.Contains(line, r.hint) {
		return false
	}
	if len(r.anyFold) == 0 {
		return true
	}
	if *lower == "" {
		*lower = strings.ToLower(line)
	}
	return containsAny(*lower, r.anyFold)
}

// match returns the rule's match in text (the line, or its code part), nil if none or if the
// line is safe.
func (r *lineRule) match(text string) []int {
	if text == "" {
		return nil
	}
	m := r.re.FindStringSubmatchIndex(text)
	if m == nil || (r.unless != nil && r.unless.MatchString(text)) || (r.check != nil && !r.check(text, m)) {
		return nil
	}
	return m
}

// scanCode runs the code rules on one added line of a file of kind k (not prose); fl is the
// file's cross-line reader (nil if none), which has read the line: code is then its code part.
func scanCode(u *diff.Unit, p string, k lang.Kind, l diff.Line, r *review.Result, fl *flow, code string) {
	var lower string
	codeDone := fl != nil
	for ri := range codeRules {
		rule := &codeRules[ri]
		if !rule.applies(k) || !rule.mayMatch(l.Text, &lower) {
			continue
		}
		text := l.Text
		if !rule.inComments {
			if !codeDone {
				code, codeDone = lang.CodePart(k, l.Text), true
			}
			text = code
		}
		m := rule.match(text)
		if m == nil || rule.safeIn != nil && rule.safeIn(fl, text, m) {
			continue
		}
		sev, msg := placeSeverity(p, rule.Severity, rule.Description)
		if rule.calm != nil && sev > policy.Low {
			sev, msg = lowerFor(sev, msg, rule.calm(fl, k, text, m))
		}
		r.Add(review.Finding{
			RuleID: rule.ID, Severity: sev, Confidence: rule.confidence, CWE: rule.CWE,
			Path: p, Line: l.New, EndLine: l.New, Message: msg + review.InCommit(u), Source: "builtin",
		}.LineEvidence(l.Text, m[0]))
	}
}

// The insecure-code floor: deliberately conservative, added lines only, comments ignored.
var codeRules = []lineRule{
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Go InsecureSkipVerify)",
			Catches:     example("client.go", "tlsConfig := &tls.Config{InsecureSkipVerify: true}"),
			Leaves:      example("client.go", "tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}")},
		hint:  "InsecureSkipVerify",
		kinds: []lang.Kind{lang.Go}, re: lazyre.New(`\bInsecureSkipVerify\s*(?::|=)\s*true\b`), confidence: 0.9,
		calm: callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Python verify=False)",
			Catches:     example("fetch.py", `r = requests.get(url, verify=False)`),
			Leaves:      example("fetch.py", `r = requests.get(url, verify="/etc/ssl/ca.pem")`)},
		hint:  "False",
		kinds: []lang.Kind{lang.Python}, re: lazyre.New(`\bverify\s*=\s*False\b`), confidence: 0.9,
		calm: callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Python ssl: CERT_NONE, an unverified context)",
			Catches:     example("fetch.py", `ctx = ssl._create_unverified_context()`),
			Leaves:      example("fetch.py", `ctx = ssl.create_default_context()`)},
		anyFold: []string{"cert_none", "cert_optional", "_create_unverified_context", "cert_reqs"},
		kinds:   []lang.Kind{lang.Python},
		re:      lazyre.New(`\bssl\._create_unverified_context\s*\(|(?:verify_mode|cert_reqs)\s*=\s*(?:ssl\.)?CERT_(?:NONE|OPTIONAL)\b|\bcert_reqs\s*=\s*["'](?:CERT_)?(?:NONE|OPTIONAL)["']|\bcheck_hostname\s*=\s*False\b.*CERT_NONE`), confidence: 0.9,
		calm: callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off (Node rejectUnauthorized: false)",
			Catches:     example("client.js", `const agent = new https.Agent({ rejectUnauthorized: false });`),
			Leaves:      example("client.js", `const agent = new https.Agent({ rejectUnauthorized: true });`)},
		hint:  "rejectUnauthorized",
		kinds: []lang.Kind{lang.JS}, re: lazyre.New(`\brejectUnauthorized\s*:\s*false\b`), confidence: 0.9,
		calm: callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "PHP curl is told not to verify the server's certificate or host name",
			Catches:     example("fetch.php", `curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);`),
			Leaves:      example("fetch.php", `curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);`)},
		hint:  "CURLOPT_SSL_VERIFY",
		kinds: []lang.Kind{lang.PHP}, re: lazyre.New(`\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:,|=>)\s*(?:false|0)\b`), confidence: 0.9,
		calm: callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off for all of Node (NODE_TLS_REJECT_UNAUTHORIZED=0)",
			Catches:     example("start.sh", `export NODE_TLS_REJECT_UNAUTHORIZED=0`),
			Leaves:      example("start.sh", `export NODE_TLS_REJECT_UNAUTHORIZED=1`)},
		hint:       "NODE_TLS_REJECT_UNAUTHORIZED",
		re:         lazyre.New(`\bNODE_TLS_REJECT_UNAUTHORIZED["'\]]*\s*[:=]\s*["']?0\b`),
		confidence: 0.9,
		calm:       callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/tls-verify-disabled", Severity: policy.High, CWE: []string{"CWE-295"},
			Description: "TLS certificate verification is turned off for a Kubernetes cluster (insecure-skip-tls-verify)",
			Catches:     example("kubeconfig.yaml", `    insecure-skip-tls-verify: true`),
			Leaves:      example("kubeconfig.yaml", `    certificate-authority: /etc/k8s/ca.crt`)},
		hint:       "insecure-skip-tls-verify",
		re:         lazyre.New(`insecure-skip-tls-verify(?:\s*[:=]\s*["']?true\b|\s*$|\s+--|["']?\s*[,)\]])`),
		confidence: 0.9,
		calm:       callerOptOut,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Python shell=True)",
			Catches:     example("run.py", `subprocess.run(f"tar xf {name}", shell=True)`),
			Leaves:      example("run.py", `subprocess.run(["tar", "xf", name])`)},
		hint:  "True",
		kinds: []lang.Kind{lang.Python}, re: lazyre.New(`\bshell\s*=\s*True\b`),
		// A lone string literal as the command is not input.
		unless:     lazyre.New(`\(\s*(?:r|b)?("[^"{}%]*"|'[^'{}%]*')\s*,\s*shell\s*=\s*True`),
		confidence: 0.8,
		calm:       noInput(true),
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Python os.system, os.popen, commands.getoutput)",
			Catches:     example("run.py", `os.system("rm -rf " + path)`),
			Leaves:      example("run.py", `os.system("make clean")`)},
		anyFold: []string{"system", "popen", "getoutput"},
		kinds:   []lang.Kind{lang.Python},
		re:      lazyre.New(`\b(?:os\.(?:system|popen[234]?)|(?:commands|subprocess)\.get(?:status)?output)\s*\(`),
		// A lone string literal as the command is not input.
		unless:     lazyre.New(`\b(?:system|popen[234]?|get(?:status)?output)\s*\(\s*(?:r|b)?("[^"{}%]*"|'[^'{}%]*')\s*[,)]`),
		confidence: 0.8,
		calm:       noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from a variable (PHP system, exec, shell_exec, passthru, backticks)",
			Catches:     example("run.php", `shell_exec("ls " . $dir);`),
			Leaves:      example("run.php", `shell_exec("ls " . escapeshellarg($dir));`)},
		kinds:      []lang.Kind{lang.PHP},
		hint:       "$",
		re:         lazyre.New("(?:\\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\\s*\\([^;]*|`[^`]*)\\$[A-Za-z_]"),
		unless:     lazyre.New(`escapeshellarg\s*\(|escapeshellcmd\s*\(`),
		check:      phpShellSink,
		safeIn:     shellArgsSafe,
		calm:       noInput(false),
		confidence: 0.75,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (sh -c with a variable)",
			Catches:     example("deploy.sh", `sh -c "$1"`),
			Leaves:      example("deploy.sh", `sh -c 'echo done'`)},
		kinds:      []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		hint:       "-c",
		re:         lazyre.New(`\b(?:ba|z|da)?sh\s+-c\s+(?:"[^"]*\$|\$)`),
		check:      notEnvArguments,
		confidence: 0.7,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (exec of sh -c with a variable)",
			Catches:     example("run.go", `out, err := exec.Command("sh", "-c", cmd).Output()`),
			Leaves:      example("run.go", `out, err := exec.Command("sh", "-c", "ls -l").Output()`)},
		kinds:      []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.Ruby, lang.PHP},
		hint:       "-c",
		re:         lazyre.New(`["'](?:/bin/)?(?:ba|z)?sh["']\s*,\s*["']-c["']\s*,\s*(?:[A-Za-z_$]|f["']|["'][^"']*["']\s*\+)`),
		confidence: 0.8,
		calm:       noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.Critical, CWE: []string{"CWE-78"},
			Description: "a shell runs request data (PHP system/exec/passthru with $_GET/$_POST)",
			Catches:     example("ping.php", `system("ping -c 1 " . $_GET['host']);`),
			Leaves:      example("ping.php", `system("ping -c 1 " . escapeshellarg($host));`)},
		kinds:      []lang.Kind{lang.PHP},
		hint:       "$_",
		re:         lazyre.New("(?:\\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\\s*\\([^;]*|`[^`]*)\\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\\b"),
		check:      phpShellSink,
		unless:     lazyre.New(`escapeshellarg\s*\(\s*\$_`),
		confidence: 0.95,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Ruby system, exec, spawn, IO.popen, Open3, backticks with #{})",
			Catches:     example("run.rb", "system(\"tar xf #{name}\")"),
			Leaves:      example("run.rb", `system("tar", "xf", name)`)},
		kinds: []lang.Kind{lang.Ruby},
		hint:  "#{",
		// one string is the whole command: the shell reads it (several arguments run no shell)
		re:         lazyre.New("(?:(?:^|[^\\w.:])(?:system|exec|spawn)|\\bIO\\.popen|\\bOpen3\\.\\w+|\\bKernel\\.(?:system|exec|spawn))\\s*\\(?\\s*\"[^\"]*#\\{|`[^`]*#\\{|%x[({\\[][^;]*#\\{"),
		confidence: 0.75,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.Critical, CWE: []string{"CWE-78"},
			Description: "a shell runs request data (Ruby system, exec, spawn, IO.popen, Open3, backticks with params/cookies/request)",
			Catches:     example("ping.rb", "system(\"ping -c 1 #{params[:host]}\")"),
			Leaves:      example("ping.rb", `system("ping", "-c", "1", params[:host])`)},
		kinds:   []lang.Kind{lang.Ruby},
		anyFold: []string{"params[", "cookies[", "request."},
		re: lazyre.New("(?:(?:(?:^|[^\\w.:])(?:system|exec|spawn)|\\bIO\\.popen|\\bOpen3\\.\\w+|\\bKernel\\.(?:system|exec|spawn))\\s*[( ][^;]*?|`[^`]*#\\{[^}]*?|%x[({\\[][^;]*?)" +
			`(?:\bparams\[|\bcookies\[|\brequest\.)`),
		// the argument-list form runs no shell: system("ping", "-c", "1", host)
		unless:     lazyre.New(`\b(?:system|exec|spawn|popen\w*)\s*\(?\s*(?:"[^"#]*"|'[^']*')\s*,`),
		confidence: 0.85,
	},
	{
		Rule: review.Rule{ID: "tollgate/shell-injection", Severity: policy.High, CWE: []string{"CWE-78"},
			Description: "a shell runs a command built from non-literal input (Node child_process.exec with concatenation)",
			Catches:     example("run.js", "exec(`convert ${req.query.file} out.png`, cb);"),
			Leaves:      example("run.js", `execFile("convert", [file, "out.png"], cb);`)},
		kinds:      []lang.Kind{lang.JS},
		hint:       "exec",
		re:         lazyre.New("\\b(?:child_process\\.)?exec(?:Sync)?\\s*\\(\\s*(?:`[^`]*\\$\\{|[\"'][^\"']*[\"']\\s*\\+|[A-Za-z_$][\\w.$]*\\s*\\+|req(?:uest)?\\.(?:body|query|params|headers|cookies)\\b)"),
		confidence: 0.8,
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "pickle can run code while loading data",
			Catches:     example("load.py", `obj = pickle.loads(request.data)`),
			Leaves:      example("load.py", `obj = json.loads(request.data)`)},
		anyFold: []string{"pickle", "dill", "shelve"},
		kinds:   []lang.Kind{lang.Python}, re: lazyre.New(`\b(?:c?[Pp]ickle|_pickle|dill|shelve)\.(?:loads?|Unpickler|open)\s*\(`),
		// a file whose path is written in the code (pickle.load(open("model.pkl", "rb"))) is the
		// program's own data: whoever can replace it can replace the code
		// a literal (pickle.loads(b"...")) is no input either
		unless:     lazyre.New(`\.load\s*\(\s*open\s*\(\s*[rbRB]{0,2}["'][^"'{}%]*["']\s*[,)]|\.loads\s*\(\s*[rbRB]{0,2}(?:"[^"]*"|'[^']*')\s*\)`),
		confidence: 0.8,
		calm:       noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "marshal, jsonpickle and pandas.read_pickle can run code or build arbitrary objects while loading data",
			Catches:     example("load.py", `obj = jsonpickle.decode(body)`),
			Leaves:      example("load.py", `obj = json.loads(body)`)},
		anyFold: []string{"marshal", "jsonpickle", "read_pickle"},
		kinds:   []lang.Kind{lang.Python},
		re:      lazyre.New(`\bmarshal\.loads?\s*\(|\bjsonpickle\.(?:decode|loads?)\s*\(|\b(?:pd|pandas)\.read_pickle\s*\(`), confidence: 0.8,
		calm: noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "torch.load without weights_only=True unpickles arbitrary objects",
			Catches:     example("model.py", `state = torch.load(path)`),
			Leaves:      example("model.py", `state = torch.load(path, weights_only=True)`)},
		hint:       "torch.load",
		kinds:      []lang.Kind{lang.Python},
		re:         lazyre.New(`\btorch\.load\s*\(`),
		unless:     lazyre.New(`weights_only\s*=\s*True\b`),
		confidence: 0.75,
		calm:       noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "yaml.load without a safe loader can construct arbitrary objects",
			Catches:     example("conf.py", `cfg = yaml.load(stream)`),
			Leaves:      example("conf.py", `cfg = yaml.safe_load(stream)`)},
		kinds:      []lang.Kind{lang.Python},
		hint:       "yaml.",
		re:         lazyre.New(`\byaml\.(?:unsafe_load|load|load_all|full_load)\s*\(`),
		unless:     lazyre.New(`Loader\s*=\s*(?:yaml\.)?C?(?:Safe|Base)Loader\b`),
		safeIn:     ruamelLoad,
		confidence: 0.85,
		calm:       yamlCalm,
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "Java ObjectInputStream deserialises arbitrary classes from its input",
			Catches:     example("Load.java", `Object o = new ObjectInputStream(socket.getInputStream()).readObject();`),
			Leaves:      example("Load.java", `Config c = mapper.readValue(in, Config.class);`)},
		hint:  "ObjectInputStream",
		kinds: []lang.Kind{lang.Java}, re: lazyre.New(`\bnew\s+ObjectInputStream\s*\(`), confidence: 0.8,
		calm: noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "Ruby's Marshal.load, YAML.unsafe_load, CSV.load and Oj.load without options build arbitrary objects from their input",
			Catches:     example("load.rb", `obj = Marshal.load(params[:data])`),
			Leaves:      example("load.rb", `obj = YAML.safe_load(params[:data])`)},
		anyFold: []string{"marshal", "unsafe_load", "csv", "oj."},
		kinds:   []lang.Kind{lang.Ruby},
		// YAML.load is safe_load since Psych 4 (Ruby 3.1); unsafe_load is the old one.
		re: lazyre.New(`\bMarshal\.(?:load|restore)\s*[( ]|\b(?:YAML|Psych)\.unsafe_load\s*[( ]|\bCSV\.load\s*\(|\bOj\.object_load\s*\(|\bOj\.load\s*\(\s*[^,()]+\)`), confidence: 0.75,
		calm: noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/unsafe-deserialization", Severity: policy.High, CWE: []string{"CWE-502"},
			Description: "PHP unserialize of a variable can build arbitrary objects (and run their magic methods)",
			Catches:     example("load.php", `$obj = unserialize($_COOKIE['state']);`),
			Leaves:      example("load.php", `$obj = json_decode($_COOKIE['state'], true);`)},
		hint:  "unserialize",
		kinds: []lang.Kind{lang.PHP}, re: lazyre.New(`\bunserialize\s*\(\s*\$`), confidence: 0.75,
		calm: noInput(false),
	},
	{
		Rule: review.Rule{ID: "tollgate/world-writable", Severity: policy.Medium, CWE: []string{"CWE-732"},
			Description: "a file or directory is made writable by everyone (chmod 777 or o+w, umask 0, mkdir -m 777)",
			Catches:     example("setup.sh", `chmod -R 777 /var/www`),
			Leaves:      example("setup.sh", `chmod 600 ~/.ssh/config`)},
		kinds:   []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		anyFold: []string{"chmod", "umask", "-m"},
		// chmod +w (no who) is cut by the umask: owner only, as a rule. A umask that keeps the
		// others-write bit (umask 0, 000, 004) makes what follows world-writable; so do
		// mkdir -m and install -m with such a mode.
		re: lazyre.New(`\bchmod\s+(?:-[a-zA-Z]+\s+)*(?:0?[0-7]{2}[2367]|[ugoa]*o[ugoa]*[+=][rwxXst]*w[rwxXst]*|a[+=][rwxXst]*w[rwxXst]*)(?:\s|$|[;&|)"'])` +
			`|\bumask\s+0*[0-7]{0,2}[0145](?:\s|$|[;&|)])` +
			`|\b(?:mkdir|install)\s+(?:-[a-zA-Z]+\s+)*(?:-m\s*|--mode=)0?[0-7]{2}[2367]\b`),
		confidence: 0.8,
	},
	{
		Rule: review.Rule{ID: "tollgate/world-writable", Severity: policy.Medium, CWE: []string{"CWE-732"},
			Description: "a file or directory is created or changed with a mode writable by everyone (0777, S_IWOTH, umask 0)",
			Catches:     example("store.go", `os.MkdirAll(dir, 0777)`),
			Leaves:      example("store.go", `os.WriteFile(path, data, 0o600)`)},
		kinds: []lang.Kind{lang.Go, lang.Python, lang.JS, lang.Java, lang.PHP, lang.Ruby, lang.C},
		// Every alternative below names its call or key: one of these words (the mode digits
		// alone are on most lines of code).
		anyFold: []string{"chmod", "set_permissions", "posixfilepermission", "umask", "mkdir", "makedirs", "writefile", "open", "mode"},
		// chmod sets the mode as given: any mode with the others-write bit. A mode given at creation
		// is cut by the umask (0666 for a new file is the usual idiom): only 0777 there.
		re: lazyre.New(`(?i)\b(?:chmod\w*|fchmod\w*|lchmod|set_permissions|setPosixFilePermissions)\b[^;]*[(,\s](?:0o?(?:10)?0?[0-7]{2}[2367]|511|0x1ff)\b` +
			`|\b(?:chmod\w*|fchmod\w*|lchmod)\b[^;]*\b(?:stat\.)?S_I(?:WOTH|RWXO)\b` +
			`|\b(?:chmod\w*|fchmod\w*|lchmod)\b[^;]*[(,\s]["']0?[0-7]{2}[2367]["']|\bChmod\b[^;]*\bos\.ModePerm\b` +
			`|\bumask\s*\(\s*(?:0|0o?[0-7]*[0145])\s*\)` +
			`|\bPosixFilePermissions\.fromString\(\s*"[r-][w-][x-][r-][w-][x-][r-]w[x-]"|\bPosixFilePermission\.OTHERS_WRITE\b` +
			`|\b(?:mkdir\w*|makedirs|writefile|openfile|open|mkdirsync)\b[^;]*[(,\s](?:0o?777|511|0x1ff)\b` +
			`|\bmode\s*[:=]\s*(?:0o?[0-7]{2}[2367]|511|0x1ff)\b`),
		confidence: 0.8,
		calm:       umaskRead,
	},
	{
		Rule: review.Rule{ID: "tollgate/curl-pipe-shell", Severity: policy.High, CWE: []string{"CWE-494"},
			Description: "a script downloads code and runs it unverified (curl | sh)",
			Catches:     example("Dockerfile", `RUN curl -fsSL https://get.example.com/install.sh | sh`),
			Leaves:      example("Dockerfile", `RUN curl -fsSLo install.sh https://get.example.com/install.sh && sha256sum -c install.sh.sha256`)},
		kinds:   []lang.Kind{lang.Shell, lang.Docker, lang.Make, lang.YAML},
		anyFold: []string{"sh", "eval"},
		// A message that tells a person what to run is not running it: make's $(warning ...),
		// or echo/printf of a quoted string that holds the whole pipe.
		unless:     lazyre.New(`\$\((?:warning|info|error)\s.*\b(?:curl|wget)\b|^\s*@?(?:echo|printf)\s+(?:-\w+\s+)*(?:"[^"]*\b(?:curl|wget)\b[^"]*\|[^"]*"|'[^']*\b(?:curl|wget)\b[^']*\|[^']*')\s*(?:>&2|1>&2)?\s*;?\s*$`),
		re:         lazyre.New(`\b(?:curl|wget|fetch)\b[^|;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+\s+)?(?:(?:/usr)?/bin/)?(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?\$\(\s*(?:curl|wget)\b|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b`),
		confidence: 0.9,
	},
}

// shellArgsSafe reports whether the command of a PHP shell call (system($cmd), exec(...))
// holds only values known safe from the lines above: literals, numbers, and values passed
// through escapeshellarg or escapeshellcmd ($v = "ls -l"; system($v)).
func shellArgsSafe(f *flow, code string, m []int) bool {
	if f == nil || len(f.lines) == 0 {
		return false
	}
	open := strings.IndexByte(code[m[0]:], '(')
	if open < 0 || code[m[0]] == '`' {
		return false
	}
	open += m[0]
	f.callSafe = shellSafeCall
	defer func() { f.callSafe = nil }()
	f.budget = flowBudget
	return f.safeExpr(code[open:closeParen(code, open)], len(f.lines)-1, 0)
}

// shellSafeCall reports whether a call returns a value safe in a shell command: escaped for
// the shell, or a number.
func shellSafeCall(chain string) bool {
	switch chain {
	case "escapeshellarg", "escapeshellcmd", "intval", "floatval", "shlex.quote", "Shellwords.escape":
		return true
	}
	return false
}

// phpShellSink reports a PHP match m that runs a shell: a call of the builtin (not a method
// ->exec(), a static ::exec() or a declaration function exec(), which are the class's own), or
// a backtick operator outside a string literal ("see `composer.json`" is text).
func phpShellSink(code string, m []int) bool {
	if code[m[0]] == '`' {
		return !inQuotes(code[:m[0]])
	}
	before := strings.TrimRight(code[:m[0]], " \t")
	return !strings.HasSuffix(before, "->") && !strings.HasSuffix(before, "::") && !strings.HasSuffix(before, "function") &&
		!strings.HasSuffix(before, "?->")
}

// inQuotes reports whether the end of s lies inside a '...' or "..." literal.
func inQuotes(s string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && q != 0:
			i++
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case c == q:
			q = 0
		}
	}
	return q != 0
}

// envArg matches an environment variable's expansion: $NVM_DIR, ${GOPATH}.
var envArg = lazyre.New(`^\$(?:[A-Z_][A-Z0-9_]*|\{[A-Z_][A-Z0-9_]*\})`)

// notEnvArguments reports an sh -c "..." string (m[1] is just past its first $) that holds
// more than upper-case environment variables in argument position: sh -c "cd $APP_DIR &&
// make" runs the job's own configuration, sh -c "$CMD", "$1", "${{ ... }}" and "$(...)" run
// input.
func notEnvArguments(code string, m []int) bool {
	open := strings.IndexByte(code[m[0]:m[1]], '"')
	end := strings.IndexByte(code[m[1]:], '"')
	if open < 0 || end < 0 { // sh -c $CMD, or no closing quote
		return true
	}
	str := code[m[0]+open+1 : m[1]+end]
	for i := strings.IndexByte(str, '$'); i >= 0; {
		prev := strings.TrimRight(str[:i], " \t")
		if !envArg.MatchString(str[i:]) || prev == "" || strings.ContainsRune("&;|(`", rune(prev[len(prev)-1])) {
			return true
		}
		j := strings.IndexByte(str[i+1:], '$')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
