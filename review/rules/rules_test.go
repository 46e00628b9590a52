package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func builtinFindings(t *testing.T, path, text string) []review.Finding {
	t.Helper()
	var r review.Result
	if err := (Scanner{}).Scan(context.Background(), difftest.AddedUnit(path, text), &r); err != nil {
		t.Fatal(err)
	}
	return r.Findings
}

func hasRule(fs []review.Finding, id string) bool {
	for _, f := range fs {
		if f.RuleID == id {
			return true
		}
	}
	return false
}

// TestRuleExamples proves every documented example: it catches what it says and leaves alone
// what it says.
func TestRuleExamples(t *testing.T) {
	check := func(r review.Rule) {
		t.Run(r.ID+"/"+r.Catches.Path, func(t *testing.T) {
			if r.Catches.Text == "" || r.Leaves.Path == "" {
				t.Fatalf("rule %s lacks a documented example", r.ID)
			}
			if r.Description == "" || len(r.CWE) == 0 || !strings.HasPrefix(r.ID, "tollgate/") {
				t.Fatalf("rule %s lacks description, CWE or a tollgate/ id", r.ID)
			}
			if fs := builtinFindings(t, r.Catches.Path, r.Catches.Text); !hasRule(fs, r.ID) {
				t.Errorf("%s does not catch its example %q in %s: %v", r.ID, r.Catches.Text, r.Catches.Path, fs)
			}
			if fs := builtinFindings(t, r.Leaves.Path, r.Leaves.Text); hasRule(fs, r.ID) {
				t.Errorf("%s flags what it should leave alone %q in %s: %v", r.ID, r.Leaves.Text, r.Leaves.Path, fs)
			}
		})
	}
	for _, r := range fileRules {
		check(r.Rule)
	}
	check(credentialRule)
	for _, r := range tokenRuleList() {
		check(r)
	}
	check(credentialEntry)
	for _, r := range codeRules {
		check(r.Rule)
	}
	for _, r := range sqlRules {
		check(r.Rule)
	}
	for _, r := range flowRules {
		check(r)
	}
}

func TestRules(t *testing.T) {
	cases := []struct {
		path, text string
		rule       string // "" = no finding of any built-in rule
	}{
		// sensitive files
		{"keys/id_rsa", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "tollgate/private-key-file"},
		{"keys/id_rsa.pub", "ssh-rsa AAAAB3NzaC1yc2E user@host", ""},
		{"certs/server.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", ""},
		{"certs/server.pem", "-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----", "tollgate/private-key-file"},
		{"keys/tls/server.key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0F\n\nMIIFHzBJBgkqhkiG9w0B\n-----END ENCRYPTED PRIVATE KEY-----", "tollgate/private-key-file"},
		{"keys/tls/empty-server.key", "# Tools should skip this\n\n-----BEGIN PRIVATE KEY-----\nREPLACE ME\n-----END PRIVATE KEY-----", ""}, // gitleaks/fake-leaks: a placeholder body
		{"certs/dev.pem", "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", ""},
		{"k8s/secret.yaml", "stringData:\n  db-password: ENC[AES256_GCM,data:O+5l4g==,iv:c/dS4BCBMbnKsXYuzBuCuVQt8RV9bOv5HgdpL+iwmns=,type:str]", ""}, // SOPS: encrypted
		{"k8s/external-secret.yml", "spec:\n  data:\n    - secretKey: api-key\n      remoteRef:\n        key: my-secrets-manager-secret", ""},         // the name of a key, not its value
		{"maven/settings.xml", "<server>\n  <id>artifactory</id>\n  <password>token</password>\n</server>", ""},
		{"maven/settings.xml", "<server>\n  <id>artifactory</id>\n  <password>Zq8mK2vR7tLp</password>\n</server>", "tollgate/hardcoded-credential"},
		{"keys/me.ppk", "PuTTY-User-Key-File-2: ssh-rsa\nPrivate-Lines: 14", "tollgate/private-key-file"},
		{".env", "STRIPE_SECRET_KEY=rk_9f8e7d6c5b4a", "tollgate/credential-file"},
		{".env", "PORT=3000\nDEBUG=true", ""},
		{".env.example", "STRIPE_SECRET_KEY=your-key-here", ""},
		{".env.example", "STRIPE_SECRET_KEY=rk_9f8e7d6c5b4a", "tollgate/hardcoded-credential"}, // a real value in a template is still a secret
		{".env.template", "DB_PASSWORD=", ""},
		{".git-credentials", "https://ann:gh0stPass1@github.com", "tollgate/credential-file"},
		{".netrc", "machine api.example.com login ann password Tr0ub4dor", "tollgate/credential-file"},
		{"db/.pgpass", "db.example.com:5432:app:ann:Tr0ub4dor", "tollgate/credential-file"},
		{"etc/shadow", "root:$6$salt$hashhashhash:19000:0:99999:7:::", "tollgate/credential-file"},
		{".htpasswd", "ann:$apr1$abc$defghijklmnop", "tollgate/credential-file"},
		{".npmrc", "//registry.npmjs.org/:_authToken=npm_abcdef123456", "tollgate/credential-file"},
		{".npmrc", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}", ""},
		{".pypirc", "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc", "tollgate/credential-file"},
		{".docker/config.json", `{"auths": {"ghcr.io": {"auth": "YW5uOnNlY3JldHBhc3M="}}}`, "tollgate/credential-file"},
		{".docker/config.json", `{"credsStore": "desktop"}`, ""},
		{"deploy/kubeconfig", "apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: eyJhbGciOiJSUzI1NiIs", "tollgate/credential-file"},
		{"config/master.key", "0123abcd4567ef890123abcd4567ef89", "tollgate/credential-file"},
		{"prod.tfvars", `db_password = "Zq8!mK2#vR"`, "tollgate/credential-file"},
		{".aws/credentials", "[default]\naws_access_key_id = AKIA\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYzEXAMPLEKEY", "tollgate/credential-file"},
		{"sftp-config.json", `{"host": "example.com", "password": "hunter22"}`, "tollgate/credential-file"},
		{"backup/dump.sql", "-- MySQL dump 10.13\nCREATE TABLE t (a int);\nINSERT INTO t VALUES (1);", "tollgate/database-dump"},
		{"schema.sql", "CREATE TABLE t (a int);", ""},
		{"db/structure.sql", "-- PostgreSQL database dump\nCREATE TABLE public.ticket (id int);\nINSERT INTO public.schema_migrations (version) VALUES ('20240101');\nINSERT INTO \"ar_internal_metadata\" VALUES ('environment', 'development');", ""},
		{"db/dev.sql", "-- PostgreSQL database dump\nCREATE TABLE public.ticket (id int);\nINSERT INTO public.schema_migrations (version) VALUES ('20240101');\nINSERT INTO public.ticket VALUES (7);", "tollgate/database-dump"},
		// a key-value table that records the schema's version (Trac's system table) is bookkeeping;
		// other rows in a table of that name are data
		{"tracdb/schema.sql", "-- PostgreSQL database dump\nCREATE TABLE public.system (name text, value text);\nINSERT INTO public.system VALUES ('database_version', '45');\nINSERT INTO system (name, value) VALUES ('plugin_version', '1.2.0');", ""},
		{"tracdb/trac.sql", "-- PostgreSQL database dump\nCREATE TABLE public.enum (type text, name text, value text, description text);\nCOPY public.enum (type, name, value, description) FROM stdin;\nresolution\tfixed\t1\t\\N\nresolution\twontfix\t3\t\\N\n\\.\n", ""},
		{"db/seed.sql", "-- PostgreSQL database dump\nCREATE TABLE public.ticket_types (id int, name text);\nINSERT INTO public.ticket_types VALUES (1, 'bug'), (2, 'feature');", ""},
		{"db/users.sql", "-- PostgreSQL database dump\nCREATE TABLE public.user_types (id int, name text);\nINSERT INTO public.user_types VALUES (1, 'ann@example.com');", "tollgate/database-dump"},
		{"db/dev2.sql", "-- PostgreSQL database dump\nCREATE TABLE public.enum (type text, name text);\nCOPY public.users (id, email) FROM stdin;\n1\tfixed\n\\.\n", "tollgate/database-dump"},
		{"db/settings.sql", "-- PostgreSQL database dump\nCREATE TABLE public.system (name text, value text);\nINSERT INTO public.system VALUES ('smtp_password', 'hunter2hunter2');", "tollgate/database-dump"},
		// pg_dump writes data as COPY ... FROM stdin blocks, not INSERTs
		{"db/prod.sql", "-- PostgreSQL database dump\nCREATE TABLE public.users (id int, email text);\nCOPY public.users (id, email) FROM stdin;\n1\tann@example.com\n\\.\n", "tollgate/database-dump"},
		{"db/schema.sql", "-- PostgreSQL database dump\nCREATE TABLE public.users (id int, email text);\nCOPY public.users (id, email) FROM stdin;\n\\.\nCOPY public.schema_migrations (version) FROM stdin;\n20240101\n\\.\nCOPY public.system (name, value) FROM stdin;\ndatabase_version\t45\n\\.\n", ""},
		// credentials in config and code
		{"app/settings.py", `DATABASES = {"default": {"PASSWORD": "Zq8mK2vR9"}}`, "tollgate/hardcoded-credential"},
		{"app/settings.py", `PASSWORD = os.environ["DB_PASSWORD"]`, ""},
		{"app/settings.py", `password = "changeme"`, ""},
		{"examples/tutorial/flaskr/__init__.py", `        SECRET_KEY="dev",`, ""},
		{"app/settings.py", `SECRET_KEY = 'development'`, ""},
		{"app/settings.py", `# password = "Zq8mK2vR9"`, ""},
		{"config.yml", "password: ${DB_PASS}", ""},
		{"config.yml", "password: '{{ vault_db_password }}'", ""},
		{"config.yml", "password: your-password-here", ""},
		{"config.yml", "db:\n  password: Zq8mK2vR9", "tollgate/hardcoded-credential"},
		{"app.properties", "spring.datasource.password=Zq8mK2vR9", "tollgate/hardcoded-credential"},
		{"app.properties", "spring.datasource.password=${DB_PASSWORD}", ""},
		{"web.xml", "<password>Zq8mK2vR9</password>", "tollgate/hardcoded-credential"},
		{"web.xml", `<connection user="app" password="Zq8mK2vR9"/>`, "tollgate/hardcoded-credential"},
		{"setup.ini", "[db]\nPassword=Zq8mK2vR9", "tollgate/hardcoded-credential"},
		{"wp-config.php", "define('DB_PASSWORD', 'Zq8mK2vR9');", "tollgate/hardcoded-credential"},
		{"db.go", `dsn := "postgres://app:Zq8mK2vR9@db.internal:5432/app"`, "tollgate/hardcoded-credential"},
		{"db.go", `dsn := "postgres://app:${DB_PASSWORD}@db.internal:5432/app"`, ""},
		{"db.go", `password := r.FormValue("password")`, ""},
		{"db.go", `if password == "Zq8mK2vR9" {`, ""},
		{"login.js", `const apiKey = process.env.API_KEY;`, ""},
		{"login.js", `const apiKey = "Zq8mK2vR9xx";`, "tollgate/hardcoded-credential"},
		{"i18n/fr.json", `"password": "Mot de passe"`, ""},
		{"forms.py", `password_hint = "at least 8 characters"`, ""},
		{"net.go", `bypass := "Zq8mK2vR9"`, ""},
		{"irc.conf", "IRC_PASS=irc_secret_9", "tollgate/hardcoded-credential"},
		{"db_test.go", `password := "Zq8mK2vR9"`, "tollgate/hardcoded-credential"}, // lowered to low, still reported
		{"README.md", "Set `password: hunter22` in your config", ""},
		// insecure code
		{"c.go", "// InsecureSkipVerify: true is never acceptable here", ""},
		{"c.go", `cfg := &tls.Config{InsecureSkipVerify: false}`, ""},
		{"f.py", `requests.get(url, verify=True)`, ""},
		{"f.py", `requests.post(url, data=d, verify=False)  # local dev only`, "tollgate/tls-verify-disabled"},
		{"run.py", `subprocess.run("ls -l", shell=True)`, ""},
		{"run.py", `subprocess.run(cmd, shell=True)`, "tollgate/shell-injection"},
		{"run.py", `subprocess.run(["ls", path])`, ""},
		{"x.sh", `bash -c "$CMD"`, "tollgate/shell-injection"},
		{"x.sh", `# never do: sh -c "$1"`, ""},
		{".github/workflows/ci.yml", `          zsh -c "set -e && . ${TOOL_HOME}/env.sh && tool --version"`, ""},
		{"Dockerfile", `RUN sh -c "cd $APP_ROOT && make build"`, ""},
		{".github/workflows/ci.yml", `          bash -c "echo ${{ github.event.issue.title }}"`, "tollgate/shell-injection"},
		{".github/workflows/ci.yml", `          bash -c "cd $SRC && $BUILD_CMD"`, "tollgate/shell-injection"},
		{"x.sh", `sh -c "tar xf $archive"`, "tollgate/shell-injection"},
		{"x.sh", `sh -c "echo $(cat $F)"`, "tollgate/shell-injection"},
		{"x.sh", `echo "start"; sh -c $RUN_ME`, "tollgate/shell-injection"},
		{"run.go", `exec.Command("bash", "-c", "echo "+name)`, "tollgate/shell-injection"},
		{"run.go", `exec.Command("git", "status")`, ""},
		{"c.py", `data = yaml.load(f, Loader=yaml.SafeLoader)`, ""},
		{"c.py", `data = yaml.load(f, Loader=yaml.FullLoader)`, "tollgate/unsafe-deserialization"},
		{"c.py", `data = yaml.safe_load(f)`, ""},
		{"c.py", `eval(input("expr: "))`, "tollgate/eval-request-data"},
		{"c.py", `ast.literal_eval(s)`, ""},
		{"c.js", `eval(req.body.code)`, "tollgate/eval-request-data"},
		{"q.go", `rows, err := db.Query(fmt.Sprintf("SELECT * FROM users WHERE id = %s", id))`, "tollgate/sql-concatenation"},
		{"q.go", `rows, err := db.Query("SELECT * FROM users WHERE id = $1", id)`, ""},
		{"q.py", `cur.execute(f"DELETE FROM users WHERE id = {uid}")`, "tollgate/sql-concatenation"},
		{"q.js", "db.query(`SELECT * FROM t WHERE a = ${a}`)", "tollgate/sql-concatenation"},
		{"q.js", "db.query('SELECT * FROM t WHERE a = ?', [a])", ""},
		{"p.py", `os.chmod(path, 0o777)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(path, 0o600)`, ""},
		{"p.go", `os.WriteFile(p, b, 0644)`, ""},
		{"Dockerfile", "RUN wget -qO- https://x.example/i.sh | sudo bash", "tollgate/curl-pipe-shell"},
		{"install.sh", "curl -fsSL https://x.example/i.sh -o i.sh", ""},
		{"README.md", "curl -fsSL https://x.example/i.sh | sh", ""},
		{".github/workflows/ci.yml", "      - run: curl -sSf https://sh.rustup.rs | sh -s -- -y", "tollgate/curl-pipe-shell"},
		{"Makefile", `	$(warning "could not find golangci-lint in $(PATH), run: curl -sfL https://install.example.com/golangci-lint | sh -s v1.21.0")`, ""},
		{"install.sh", `echo "install it with: curl -fsSL https://x.example/i.sh | sh" >&2`, ""},
		{"install.sh", `echo "installing" && curl -fsSL https://x.example/i.sh | sh`, "tollgate/curl-pipe-shell"},
		{"Makefile", `	@echo 'run: curl -fsSL https://x.example/i.sh | sh'; curl -fsSL https://x.example/i.sh | sh`, "tollgate/curl-pipe-shell"},
		{"k.yaml", "    insecure-skip-tls-verify: true", "tollgate/tls-verify-disabled"},
		{"k.yaml", "    insecure-skip-tls-verify: false", ""},
		// one step beyond the literal (issue 9): commands built and run through a shell
		{"run.py", `subprocess.call("ls {}".format(d), shell=True)`, "tollgate/shell-injection"},
		{"run.py", `subprocess.run("ls %s" % d, shell=True)`, "tollgate/shell-injection"},
		{"run.py", `os.system("rm " + path)`, "tollgate/shell-injection"},
		{"run.py", `os.system(f"rm {path}")`, "tollgate/shell-injection"},
		{"run.py", `os.popen("cat %s" % f)`, "tollgate/shell-injection"},
		{"run.py", `out = commands.getoutput("ls " + d)`, "tollgate/shell-injection"},
		{"run.py", `os.system("make clean")`, ""},
		{"run.py", `subprocess.getoutput("uname -a")`, ""},
		{"run.php", `system($cmd);`, "tollgate/shell-injection"},
		{"run.php", `exec("rm " . $f);`, "tollgate/shell-injection"},
		{"run.php", `passthru($c);`, "tollgate/shell-injection"},
		{"run.php", "$o = `ls $d`;", "tollgate/shell-injection"},
		{"run.php", `exec("rm " . escapeshellarg($f));`, ""},
		{"run.php", `system("uptime");`, ""},
		// SQL with interpolation, in every language named
		{"q.php", `mysqli_query($c, "SELECT * FROM u WHERE id = $id");`, "tollgate/sql-concatenation"},
		{"q.php", `$db->query("SELECT * FROM u WHERE name = '" . $name . "'");`, "tollgate/sql-concatenation"},
		{"q.php", `$db->prepare("SELECT * FROM u WHERE id = ?");`, ""},
		{"q.rb", `User.where("name = '#{params[:name]}'")`, "tollgate/sql-concatenation"},
		{"q.rb", `conn.execute("DELETE FROM t WHERE id = #{id}")`, "tollgate/sql-concatenation"},
		{"q.rb", `User.where("name = ?", params[:name])`, ""},
		{"Q.java", `st.executeQuery("SELECT * FROM t WHERE id = " + id);`, "tollgate/sql-concatenation"},
		{"Q.java", `conn.prepareStatement("SELECT * FROM t WHERE id = ?");`, ""},
		{"q.py", `cur.execute("SELECT * FROM t WHERE id = %s" % uid)`, "tollgate/sql-concatenation"},
		{"q.py", `cur.execute("SELECT * FROM t WHERE id = {}".format(uid))`, "tollgate/sql-concatenation"},
		{"q.py", `q = "SELECT * FROM t WHERE name = '" + name + "'"`, "tollgate/sql-concatenation"}, // built here, run on the next line
		{"q.go", `q := fmt.Sprintf("SELECT * FROM t WHERE id = %v", id)`, "tollgate/sql-concatenation"},
		// eval of formatted request data
		{"c.py", `exec("x = %s" % request.form["y"])`, "tollgate/eval-request-data"},
		// TLS verification off, every spelling named
		{"c.js", `process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";`, "tollgate/tls-verify-disabled"},
		{"c.js", `process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";`, "tollgate/tls-verify-disabled"},
		{"c.go", `conf.InsecureSkipVerify = true`, "tollgate/tls-verify-disabled"},
		{"c.py", `ctx = ssl._create_unverified_context()`, "tollgate/tls-verify-disabled"},
		{"c.py", `ctx.verify_mode = ssl.CERT_NONE`, "tollgate/tls-verify-disabled"},
		{"c.py", `ctx.verify_mode = ssl.CERT_REQUIRED`, ""},
		{"q.py", `cur.execute('SELECT * FROM John'.format())`, ""},
		{"q.py", `cur.execute('SELECT * FROM John' % ())`, ""},
		{"q.py", `cur.execute('SELECT * FROM users WHERE name = {}'.format(name))`, "tollgate/sql-concatenation"},
		{"q.py", `cur.execute('SELECT * FROM users WHERE name = %s' % (name,))`, "tollgate/sql-concatenation"},
		{"c.py", `pool = ur3.connection_from_url('someurl', cert_reqs='NONE')`, "tollgate/tls-verify-disabled"},
		{"c.py", `manager = PoolManager(10, cert_reqs = ssl.CERT_OPTIONAL)`, "tollgate/tls-verify-disabled"},
		{"c.py", `manager = PoolManager(10, cert_reqs="CERT_REQUIRED")`, ""},
		{"c.php", `curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);`, "tollgate/tls-verify-disabled"},
		{"c.php", `curl_setopt_array($ch, [CURLOPT_SSL_VERIFYHOST => 0]);`, "tollgate/tls-verify-disabled"},
		{"c.php", `curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);`, ""},
		// every spelling of a world-writable mode
		{"p.py", `os.chmod(p, 0o776)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, 511)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, 0x1ff)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, 0o755)`, ""},
		{"p.go", `os.Chmod(dir, 0o666)`, "tollgate/world-writable"},
		{"p.go", `f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0666)`, ""}, // cut by the umask
		{"p.go", `os.MkdirAll(dir, 0o750)`, ""},
		{"s.sh", "chmod o+w /srv/data", "tollgate/world-writable"},
		{"s.sh", "chmod a+w /srv/data", "tollgate/world-writable"},
		{"s.sh", "chmod 0776 /srv/data", "tollgate/world-writable"},
		{"s.sh", "chmod 1777 /tmp/scratch", ""}, // the sticky temp-dir mode
		{"s.sh", "chmod 0755 /srv/data", ""},
		{"p.py", `os.chmod(p, 0o100777)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, stat.S_IRUSR | stat.S_IWOTH)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, stat.S_IRWXU | stat.S_IRWXO)`, "tollgate/world-writable"},
		{"p.py", `os.chmod(p, stat.S_IRUSR | stat.S_IROTH)`, ""},
		{"P.java", `Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-rw-rw-"));`, "tollgate/world-writable"},
		{"P.java", `Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));`, ""},
		{"P.java", `perms.add(PosixFilePermission.OTHERS_WRITE);`, "tollgate/world-writable"},
		{"P.java", `perms.add(PosixFilePermission.OTHERS_READ);`, ""},
		// world-writable beyond the literal mode (issue 9)
		{"s.sh", "chmod ugo+rwx /srv", "tollgate/world-writable"},
		{"Dockerfile", "RUN chmod -R a+rwx /app", "tollgate/world-writable"},
		{"s.sh", "chmod +w build/out.txt", ""}, // no who: cut by the umask
		{"s.sh", "chmod u+rwx,g+rx bin/run", ""},
		{"s.sh", "umask 000", "tollgate/world-writable"},
		{"s.sh", "umask 0 && mkdir /srv/x", "tollgate/world-writable"},
		{"s.sh", "umask 022", ""},
		{"s.sh", "umask 077", ""},
		{"s.sh", "mkdir -p -m 777 /srv/shared", "tollgate/world-writable"},
		{"s.sh", "install -d -m 0755 /srv/app", ""},
		{"s.sh", "install -m 0777 app /usr/local/bin/app", "tollgate/world-writable"},
		{"u.py", `os.umask(0)`, "tollgate/world-writable"},
		{"u.py", `os.umask(0o022)`, ""},
		{"u.c", `chmod(path, S_IRWXU | S_IRWXG | S_IRWXO);`, "tollgate/world-writable"},
		{"u.c", `fchmod(fd, S_IRUSR | S_IWUSR | S_IWOTH);`, "tollgate/world-writable"},
		{"u.c", `chmod(path, S_IRWXU | S_IRGRP);`, ""},
		{"u.js", `process.umask(0);`, "tollgate/world-writable"},
		{"u.js", `fs.chmod(p, "0777", cb);`, "tollgate/world-writable"},
		// each alternative's own word lets the rule's regex run (its prefilter)
		{"u.py", `os.makedirs(d, 0o777)`, "tollgate/world-writable"},
		{"u.go", `os.OpenFile(p, os.O_CREATE, 0777)`, "tollgate/world-writable"},
		{"u.js", `fs.mkdirSync(d, { mode: 0o777 })`, "tollgate/world-writable"},
		{"u.js", `const opts = { mode: 0o776 };`, "tollgate/world-writable"},
		{"P.java", `perms.add(PosixFilePermission.OTHERS_WRITE);`, "tollgate/world-writable"},
		{"u.go", `err = os.Chmod(p, os.ModePerm)`, "tollgate/world-writable"},
		{"u.go", `x := 0777 // a mode nobody applies`, ""},
		{"u.js", `fs.chmodSync(p, '755');`, ""},
		{"u.go", `syscall.Umask(0)`, "tollgate/world-writable"},
		{"u.go", `os.Chmod(p, os.ModePerm)`, "tollgate/world-writable"},
		{"u.go", `os.MkdirAll(p, os.ModePerm)`, ""}, // cut by the umask
		{"s.sh", `eval "$(curl -fsSL https://x.example/env.sh)"`, "tollgate/curl-pipe-shell"},
		{"s.sh", `eval $(wget -qO- https://x.example/env.sh)`, "tollgate/curl-pipe-shell"},
		{"s.sh", `eval "$(ssh-agent -s)"`, ""},
		{"l.rb", `obj = Marshal.load(params[:data])`, "tollgate/unsafe-deserialization"},
		{"l.rb", `cfg = YAML.load(request.body.read)`, ""}, // safe_load since Psych 4
		{"l.rb", `obj = Oj.load(data)`, "tollgate/unsafe-deserialization"},
		{"l.rb", `obj = Oj.load(data, mode: :strict)`, ""},
		{"l.rb", `obj = CSV.load(data)`, "tollgate/unsafe-deserialization"},
		{"l.rb", `cfg = YAML.unsafe_load(input)`, "tollgate/unsafe-deserialization"},
		{"l.rb", `cfg = YAML.load("--- foo")`, ""},
		{"l.rb", `cfg = YAML.safe_load(input)`, ""},
		{"l.php", `$o = unserialize($_GET['o']);`, "tollgate/unsafe-deserialization"},
		{"l.php", `$o = unserialize('a:0:{}');`, ""},
		// downloaded code run directly
		{"s.sh", "curl -fsSL https://x.example/install.sh | sudo /bin/bash", "tollgate/curl-pipe-shell"},
		{"s.sh", "bash <(curl -s https://x.example/i.sh)", "tollgate/curl-pipe-shell"},
		// loaders that run code
		{"l.py", `obj = marshal.loads(data)`, "tollgate/unsafe-deserialization"},
		{"l.py", `db = shelve.open(fn)`, "tollgate/unsafe-deserialization"},
		{"l.py", `obj = jsonpickle.decode(s)`, "tollgate/unsafe-deserialization"},
		{"l.py", `df = pandas.read_pickle(fn)`, "tollgate/unsafe-deserialization"},
		{"l.py", `df = pd.read_pickle(fn)`, "tollgate/unsafe-deserialization"},
		{"l.py", `state = torch.load(fn)`, "tollgate/unsafe-deserialization"},
		{"l.py", `state = torch.load(fn, weights_only=True)`, ""},
		{"l.py", `df = pd.read_csv(fn)`, ""},
	}
	for _, c := range cases {
		fs := builtinFindings(t, c.path, c.text)
		if c.rule == "" {
			if len(fs) > 0 {
				t.Errorf("%s: %q: want no finding, got %s %q", c.path, c.text, fs[0].RuleID, fs[0].Message)
			}
			continue
		}
		if !hasRule(fs, c.rule) {
			t.Errorf("%s: %q: want %s, got %v", c.path, c.text, c.rule, fs)
		}
	}
}

func TestRulesTestCodeIsLow(t *testing.T) {
	fs := builtinFindings(t, "client_test.go", "cfg := &tls.Config{InsecureSkipVerify: true}")
	if len(fs) != 1 || fs[0].Severity != policy.Low {
		t.Fatalf("want one low finding in test code, got %v", fs)
	}
	fs = builtinFindings(t, "client.go", "cfg := &tls.Config{InsecureSkipVerify: true}")
	if len(fs) != 1 || fs[0].Severity != policy.High {
		t.Fatalf("want one high finding, got %v", fs)
	}
}

// TestRulesOnlyAddedLines: removed and context lines are never findings, and findings carry
// new-file line numbers.
func TestRulesOnlyAddedLines(t *testing.T) {
	f := diff.FileDiff{OldPath: "c.go", NewPath: "c.go", Status: diff.Modified, Hunks: []diff.Hunk{diff.NewHunk(10, 2, 12, 2,
		diff.Line{Kind: diff.Context, Old: 10, New: 12, Text: "tls.Config{InsecureSkipVerify: true} // context"},
		diff.Line{Kind: diff.Del, Old: 11, Text: "os.Chmod(p, 0777)"},
		diff.Line{Kind: diff.Add, New: 13, Text: "subprocess.run(cmd, shell=True)"},
	)}}
	var r review.Result
	if err := (Scanner{}).Scan(context.Background(), &diff.Unit{Files: []diff.FileDiff{{
		OldPath: "a.py", NewPath: "a.py", Status: diff.Modified, Hunks: f.Hunks}}}, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Line != 13 || r.Findings[0].RuleID != "tollgate/shell-injection" {
		t.Fatalf("want only the added line 13, got %+v", r.Findings)
	}
}

func TestSuppressionCounted(t *testing.T) {
	u := difftest.AddedUnit("a.py", "x = 1\nsubprocess.run(cmd, shell=True)  # tollgate:allow=tollgate/shell-injection\n# tollgate:allow-next-line\nos.chmod(p, 0o777)\nos.chmod(q, 0o777)")
	rep := review.Run(context.Background(), &diff.Change{Kind: "staged", Units: []diff.Unit{*u}}, review.Options{Config: policy.Default(), Scanners: []review.Scanner{Scanner{}}})
	if rep.Suppressed != 2 {
		t.Errorf("want 2 suppressed, got %d", rep.Suppressed)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Line != 5 {
		t.Errorf("want the finding on line 5 only, got %+v", rep.Findings)
	}
}

// TestEveryRuleHasAFix: the text report gives each finding a fix specific to its rule.
func TestEveryRuleHasAFix(t *testing.T) {
	for _, r := range All() {
		if r.Fix == "" {
			t.Errorf("rule %s has no fix (add it to fixes in fix.go)", r.ID)
		}
	}
	for id := range fixes {
		found := false
		for _, r := range All() {
			found = found || r.ID == id
		}
		if !found {
			t.Errorf("fixes names %s, which is no rule", id)
		}
	}
}

// TestFileFindingNamesTheWholePath: a file rule's evidence is the repository path, never the
// base name (two deploy/id_rsa and test/id_rsa must not read the same).
func TestFileFindingNamesTheWholePath(t *testing.T) {
	fs := builtinFindings(t, "deploy/prod/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----")
	if len(fs) == 0 {
		t.Fatal("no finding for a committed SSH key")
	}
	for _, f := range fs {
		if f.RuleID == privateKeyFile.ID && f.Evidence != "file: deploy/prod/id_rsa" {
			t.Errorf("evidence %q, want the whole path", f.Evidence)
		}
	}
}

// TestColumnOfCodeFinding: a code rule's finding carries the 1-based column of its match.
func TestColumnOfCodeFinding(t *testing.T) {
	fs := builtinFindings(t, "app/db.py", `    cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")`)
	if !hasRule(fs, "tollgate/sql-concatenation") {
		t.Fatalf("no SQL finding: %+v", fs)
	}
	for _, f := range fs {
		if f.RuleID == "tollgate/sql-concatenation" && f.Column < 5 {
			t.Errorf("column %d, want the match's (at or after 5, past the indentation)", f.Column)
		}
	}
}

// TestFileRulesFitTheMask: pathRules keeps one bit per file rule.
func TestFileRulesFitTheMask(t *testing.T) {
	if len(fileRules) > 64 {
		t.Fatalf("%d file rules: ruleSet64 holds 64", len(fileRules))
	}
}
