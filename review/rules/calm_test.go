package rules

import (
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
)

// calmCase is a file and its text, the rule expected and its severity at most (false
// finding: low or none) or at least (true neighbour: medium or above).
type calmCase struct {
	name, path, text, rule string
	blocking               bool // true: a finding of rule at medium or above; false: none above low
}

// checkCalm runs the cases: a false finding is now low or gone, a true neighbour still blocks.
func checkCalm(t *testing.T, cases []calmCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			found, worst := false, policy.Severity(0)
			for _, f := range builtinFindings(t, c.path, c.text) {
				if f.RuleID == c.rule {
					found = true
					worst = max(worst, f.Severity)
				}
			}
			switch {
			case c.blocking && (!found || worst < policy.Medium):
				t.Errorf("%s in %s: %s found %v at %s, want medium or above", c.text, c.path, c.rule, found, worst)
			case !c.blocking && worst > policy.Low:
				t.Errorf("%s in %s: %s at %s, want low or none", c.text, c.path, c.rule, worst)
			}
		})
	}
}

const (
	credRule   = "tollgate/hardcoded-credential"
	shellRule  = "tollgate/shell-injection"
	deserRule  = "tollgate/unsafe-deserialization"
	tlsRule    = "tollgate/tls-verify-disabled"
	wwRule     = "tollgate/world-writable"
	sqlRule    = "tollgate/sql-concatenation"
	hashRule   = "tollgate/password-hash"
	strongCred = "Zq8#vLw2!pR7tYx"
)

// TestCalmDocs: documentation and tutorial examples are low; a provider-shaped token in docs
// and a real-looking password in code are not (issue 30, cause 1).
func TestCalmDocs(t *testing.T) {
	hash := "$2b$" + "12$" + "R0Y5ekfXPlDww3p0vH5Dh2ke/jCtY87zXftU.VF4I08rwJzffMfe7"
	checkCalm(t, []calmCase{
		{"tutorial password in docs", "docs/tutorial/security.md", `password = "` + strongCred + `"`, credRule, false},
		{"docs_src code", "docs_src/sql_databases/tutorial001.py", `DATABASE_URL = "postgresql+psycopg://postgres:` + strongCred + `@db/app"`, credRule, false},
		{"examples dir", "examples/app/config.yaml", "password: " + strongCred, credRule, false},
		{"EXAMPLES docstring", "lib/modules/mysql_user.py", "EXAMPLES = r'''\n- name: create user\n  mysql_user:\n    password: '" + strongCred + "'\n'''", credRule, false},
		{"localhost default", "app/settings.py", `DB = "postgresql://postgres:postgres@localhost/db"`, credRule, false},
		{"tldr placeholder", "pages/common/mount.cifs.txt", "`mount.cifs -o user={{username}},password={{password}} //{{server}}/{{share}} {{path}}`", credRule, false},
		{"template placeholder url", "pages/common/smbclient.txt", "`smbclient {{//server/share}} --user {{username%password}}`", credRule, false},
		{"commented htpasswd in values", "charts/registry/values.yaml", "# htpasswd: foo:" + hash, hashRule, false},
		{"tutorial hash in docs", "docs/advanced/security.md", `"hashed_password": "` + hash + `"`, hashRule, false},
		{"ci service password", ".github/workflows/databases.yml", "services:\n  sqlsrv:\n    image: mcr.microsoft.com/mssql/server:2019-latest\n    env:\n      SA_PASSWORD: Forge123", credRule, false},
		{"ci fake aws secret", ".github/workflows/tests.yml", "env:\n  AWS_SECRET_ACCESS_KEY: randomSecret", credRule, false},
		{"helm values placeholder", "charts/ipmi/values.yaml", "  thatspecialhost:\n    user: \"some_user\"\n    pass: \"secret_pw\"", credRule, false},
		{"helm values default", "charts/rabbitmq/values.yaml", "rabbitmq:\n  user: guest\n  password: guest", credRule, false},
		{"flag joined to a value", "src/DbCommand.php", `'password' => '--password='.$connection['password'],`, credRule, false},
		// true neighbours
		{"ci passphrase", ".github/workflows/deploy.yml", "env:\n  API_SECRET: horse-battery-staple", credRule, true},
		{"ci random password", ".github/workflows/deploy.yml", "env:\n  DEPLOY_PASSWORD: " + strongCred, credRule, true},
		{"helm values random password", "charts/app/values.yaml", "app:\n  password: \"" + strongCred + "\"", credRule, true},
		{"real password in code", "app/settings.py", `DB_PASSWORD = "` + strongCred + `"`, credRule, true},
		{"real password remote host", "app/settings.py", `DB = "postgresql://app:` + strongCred + `@db.corp.internal/app"`, credRule, true},
		{"hash in values", "charts/registry/values.yaml", "htpasswd: foo:" + hash, hashRule, true},
		{"telegram token in docs", "docs/bot.md", "token: 5843021967:" + "AAodJFCrnl2edlBDdz1C5Jau2RJtBRnlWmT", "tollgate/telegram-bot-token", true},
	})
}

// TestCalmCodeEvidence: shell and deserialisation sinks need evidence of outside data to
// block (issue 30, cause 2).
func TestCalmCodeEvidence(t *testing.T) {
	checkCalm(t, []calmCase{
		{"shell=True own command", "lib/plugins/lookup/pipe.py", "def run(self, terms):\n    for term in terms:\n        p = subprocess.Popen(term, cwd=self._loader.get_basedir(), shell=True, stdout=subprocess.PIPE)", shellRule, false},
		{"yaml.unsafe_load own config", "tools/build.py", "with open(CONFIG) as fh:\n    cfg = yaml.unsafe_load(fh)", deserRule, false},
		{"yaml.full_load", "tools/build.py", "cfg = yaml.full_load(stream)", deserRule, false},
		{"yaml.full_load of a network read", "charts/hack/sync_rules.py", "response = requests.get(url)\nraw_text = response.text\nalerts = yaml.full_load(raw_text)", deserRule, false},
		{"yaml FullLoader of a request", "web/app.py", "cfg = yaml.load(request.data, Loader=yaml.FullLoader)", deserRule, false},
		{"pickle local ipc", "worker/ipc.py", "def recv_obj(conn):\n    data = conn.read_bytes()\n    return pickle.loads(data)", deserRule, false},
		{"umask read and restore", "lib/util.py", "old = os.umask(0)\nos.umask(old)", wwRule, false},
		{"0777 minus the umask", "src/Filesystem/Filesystem.php", "@chmod($tempPath, 0777 - umask());", wwRule, false},
		{"0o777 masked by the umask", "lib/util.py", "os.chmod(path, 0o777 & ~umask)", wwRule, false},
		{"0o777 test helper", "internal/testutil/temp_dir_fixture.go", "func TempDir() string {\n\tos.MkdirAll(dir, 0777)\n}", wwRule, false},
		{"sql internal table names", "store/db.py", "def count(self, uid):\n    cur.execute(f\"SELECT count(*) FROM {TABLE_PREFIX}{self.table} WHERE uid = ?\", (uid,))", sqlRule, false},
		{"php method named exec", "src/Database/Connection.php", `$change = $this->getPdo()->exec($query) !== false;`, shellRule, false},
		{"php method declared passthru", "src/LazyCollection.php", `protected function passthru($method, array $params)`, shellRule, false},
		{"php backticks in a message", "src/Composer.php", "throw new RuntimeException(\"Unable to locate `composer.json` file at [{$this->workingPath}].\");", shellRule, false},
		{"php passthru of own command", "src/DevCommand.php", "public function handle()\n{\n    passthru($command, $exitCode);", shellRule, false},
		// true neighbours
		{"php passthru of request", "web/run.php", `passthru("convert " . $_GET['file']);`, shellRule, true},
		{"php backticks with var from request", "web/run.php", "$f = $_POST['f'];\n$out = `ls $f`;", shellRule, true},
		{"shell=True request.args", "web/app.py", `subprocess.run("ping -c 1 " + request.args["host"], shell=True)`, shellRule, true},
		{"shell=True from argv var", "tool.py", "host = sys.argv[1]\nsubprocess.run(f\"ping {host}\", shell=True)", shellRule, true},
		{"shell=True string from parameter", "tool.py", "def ping(host):\n    subprocess.call(\"ping -c 1 %s\" % host, shell=True)", shellRule, true},
		{"os.system param built", "tool.py", "def unpack(name):\n    os.system(\"tar xf \" + name)", shellRule, true},
		{"pickle from socket", "net/server.py", "data = sock.recv(4096)\nobj = pickle.loads(data)", deserRule, true},
		{"pickle from request", "web/app.py", "obj = pickle.loads(request.data)", deserRule, true},
		{"pickle of a cookie on another branch", "web/app.py", "def index():\n    user_obj = request.cookies.get('uuid')\n    if user_obj == None:\n        user_obj = UserID()\n    else:\n        return pickle.loads(b64decode(user_obj))", deserRule, true},
		{"yaml.load request", "web/app.py", "cfg = yaml.load(request.get_data())", deserRule, true},
		{"yaml unsafe_load of a network read", "tools/sync.py", "response = requests.get(url)\nraw_text = response.text\nalerts = yaml.unsafe_load(raw_text)", deserRule, true},
		{"yaml UnsafeLoader of a request", "web/app.py", "cfg = yaml.load(request.data, Loader=yaml.UnsafeLoader)", deserRule, true},
		{"umask 0 set", "lib/util.py", "os.umask(0)", wwRule, true},
		{"0777 in code", "store/store.go", "os.MkdirAll(dir, 0777)", wwRule, true},
		{"chmod 0777 beside a umask call", "src/Filesystem/Filesystem.php", "@chmod($tempPath, 0777); umask($old);", wwRule, true},
		{"code string is no docstring", "web/views.py", "def unsafe(request):\n    message = request.POST.get('message')\n    code = \"\"\"\n    print(%s)\n    \"\"\" % message\n    eval(code)", "tollgate/eval-request-data", true},
		{"sql table from parameter, no placeholder", "store/db.py", "def q(user_input):\n    sql_query = 'SELECT * FROM {}'.format(user_input)\n    cur.execute(sql_query)", sqlRule, true},
		{"sql value", "store/db.py", "cur.execute(f\"SELECT * FROM {self.table} WHERE name = '{name}'\")", sqlRule, true},
	})
}

// TestCalmSQLComposed: SQL composed of names, fragments and bound placeholders is low (a query
// builder's grammar); a value, or a name from a parameter with nothing bound, still blocks
// (issue 30, cause 2: SQL built from internal names).
func TestCalmSQLComposed(t *testing.T) {
	grammar := "src/Database/Query/Grammars/Grammar.php"
	checkCalm(t, []calmCase{
		{"subquery fragment, wrapped names, int limit", grammar, "protected function compileGroupLimit(Builder $query)\n{\n    $limit = (int) $query->groupLimit['value'];\n    $offset = $query->offset;\n    if (isset($offset)) {\n        $offset = (int) $offset;\n        $limit += $offset;\n    }\n    $table = $this->wrap('laravel_table');\n    $row = $this->wrap('laravel_row');\n    $sql = $this->concatenate($components);\n    $sql = 'select * from ('.$sql.') as '.$table.' where '.$row.' <= '.$limit;", sqlRule, false},
		{"insert of columnized names and placeholders", grammar, "public function compileInsert(Builder $query, array $values)\n{\n    $table = $this->wrapTable($query->from);\n    $columns = $this->columnize(array_keys(array_first($values)));\n    $parameters = (new Collection($values))\n        ->map(fn ($record) => '('.$this->parameterize($record).')')\n        ->implode(', ');\n    return \"insert into $table ($columns) values $parameters\";", sqlRule, false},
		{"fragment parameter", grammar, "public function compileInsertUsing(Builder $query, array $columns, string $sql)\n{\n    $table = $this->wrapTable($query->from);\n    return \"insert into {$table} ({$this->columnize($columns)}) $sql\";", sqlRule, false},
		{"where fragment parameter", grammar, "protected function compileDeleteWithoutJoins(Builder $query, $table, $where)\n{\n    return \"delete from {$table} {$where}\";", sqlRule, false},
		{"wrapped column and subquery", grammar, "protected function compileDeleteWithJoinsOrLimit(Builder $query)\n{\n    $table = $this->wrapTable($query->from);\n    $selectSql = $this->compileSelect($query->select($alias.'.ctid'));\n    return \"delete from {$table} where {$this->wrap('ctid')} in ({$selectSql})\";", sqlRule, false},
		{"union fragment", grammar, "protected function wrapUnion($sql)\n{\n    return 'select * from ('.$sql.')';", sqlRule, false},
		{"schema prefix with a placeholder", grammar, "public function compileTruncate(Builder $query)\n{\n    $schema = $schema ? $this->wrapValue($schema).'.' : '';\n    return [\n        'delete from '.$schema.'sqlite_sequence where name = ?' => [$query->getConnection()->getTablePrefix().$table],", sqlRule, false},
		{"grown partition of wrapped names", grammar, "protected function compileGroupLimit(Builder $query)\n{\n    $limit = (int) $query->groupLimit['value'];\n    $column = $this->wrap($column);\n    $partition = ', @laravel_row := if(@laravel_group = '.$column.', @laravel_row + 1, 1) as `laravel_row`';\n    $partition .= ', @laravel_group := '.$column;\n    $sql = $this->concatenate($components);\n    $from = '(select @laravel_row := 0) as `laravel_vars`, ('.$sql.') as `laravel_table`';\n    $sql = 'select `laravel_table`.*'.$partition.' from '.$from.' having `laravel_row` <= '.$limit;", sqlRule, false},
		{"python format of a table name with a placeholder", "store/db.py", "def rows(self, uid):\n    cur.execute(\"SELECT * FROM {} WHERE uid = ?\".format(self.table), (uid,))", sqlRule, false},
		// true neighbours
		{"php value from a parameter", "src/Repo.php", "public function find($id)\n{\n    return $this->db->select('select * from users where id = '.$id);", sqlRule, true},
		{"php interpolated value", "src/Repo.php", "public function byName($name)\n{\n    return $this->db->select(\"select * from users where name = '$name'\");", sqlRule, true},
		{"php in list from a parameter", "src/Repo.php", "public function many($ids)\n{\n    $sql = 'select * from users where id in ('.$ids.')';\n    return $this->db->select($sql);", sqlRule, true},
		{"php table from a parameter, nothing bound", "src/Repo.php", "public function all($table)\n{\n    return $this->db->select('select * from '.$table);", sqlRule, true},
		{"php request data beside a fragment", "web/list.php", "$sql = 'select * from ('.$sql.') where name = '.$_GET['name'];", sqlRule, true},
		{"value named like a fragment", "src/Repo.php", "public function find($whereValue)\n{\n    return $this->db->select(\"select * from users where name = '$whereValue'\");", sqlRule, true},
		{"value from a parameter named sql", "store/db.py", "def find(user_sql_input):\n    cur.execute(\"SELECT * FROM t WHERE name = '\" + user_sql_input + \"'\")", sqlRule, true},
		{"where clause from a request", "web/app.py", "def search():\n    where = request.args.get('q')\n    cur.execute(\"SELECT * FROM t WHERE \" + where)", sqlRule, true},
		{"go format of a value", "store/db.go", "func find(db *sql.DB, name string) {\n\trows, _ := db.Query(fmt.Sprintf(\"SELECT * FROM users WHERE name = '%s'\", name))", sqlRule, true},
		{"python format of a name from a parameter, nothing bound", "store/db.py", "def q(table):\n    cur.execute(\"SELECT * FROM {}\".format(table))", sqlRule, true},
	})
}

// TestCalmOptOut: TLS verification off under the caller's explicit option is low; off with
// no condition blocks (issue 30, cause 3).
func TestCalmOptOut(t *testing.T) {
	checkCalm(t, []calmCase{
		{"cert_reqs under verify is False", "src/urllib3/util.py", "def ctx(verify):\n    if verify is False:\n        cert_reqs = \"CERT_NONE\"", tlsRule, false},
		{"verify=False under --no-verify-ssl", "cli/main.py", "def main(args):\n    if args.no_verify_ssl:\n        r = requests.get(url, verify=False)", tlsRule, false},
		{"conditional expression", "cli/main.py", "r = requests.get(url, verify=False if insecure else True)", tlsRule, false},
		{"go insecure flag", "cmd/client.go", "func dial(insecure bool) {\n\tif insecure {\n\t\tcfg.InsecureSkipVerify = true\n\t}\n}", tlsRule, false},
		// true neighbours
		{"verify=False no condition", "app/fetch.py", "r = requests.get(url, verify=False)", tlsRule, true},
		{"verify=False under other if", "app/fetch.py", "def f(url):\n    if url:\n        r = requests.get(url, verify=False)", tlsRule, true},
		{"go insecure no condition", "cmd/client.go", "cfg := &tls.Config{InsecureSkipVerify: true}", tlsRule, true},
	})
}

// TestCalmTestCode: test helpers and fixtures across ecosystems lower every family; a provider
// token that does not look like a sample stays (issue 30, cause 4).
func TestCalmTestCode(t *testing.T) {
	checkCalm(t, []calmCase{
		{"fixture .env", "tests/fixtures/.env", "ANOTHER_SECRET=" + strongCred, credRule, false},
		{"testdata .env file", "pkg/e2e/testdata/TestBuildSecrets/.env", "ANOTHER_SECRET=zot", "tollgate/credential-file", false},
		{".env file outside tests", "deploy/.env", "ANOTHER_SECRET=" + strongCred, "tollgate/credential-file", true},
		{"conftest", "conftest.py", `API_KEY = "` + strongCred + `"`, credRule, false},
		{"spec ts", "src/auth.spec.ts", `const password = "` + strongCred + `";`, credRule, false},
		{"java src/test", "src/test/java/com/x/DbIT.java", `String password = "` + strongCred + `";`, credRule, false},
		{"go testutil", "internal/testutil/db.go", `password := "` + strongCred + `"`, credRule, false},
		{"telegram sample in test", "tests/test_bot.py", `TOKEN = "1234567890:` + "AAodJFCrnl2edlBDdz1C5Jau2RJtBRnlWmT" + `"`, "tollgate/telegram-bot-token", false},
		// true neighbours
		{"telegram live shape in test", "tests/test_bot.py", `TOKEN = "5843021967:` + "AAodJFCrnl2edlBDdz1C5Jau2RJtBRnlWmT" + `"`, "tollgate/telegram-bot-token", true},
		{"password in app code", "src/auth.ts", `const password = "` + strongCred + `";`, credRule, true},
	})
}

// TestCalmReferences: variables, references and key names are not credentials (issue 30,
// cause 6).
func TestCalmReferences(t *testing.T) {
	checkCalm(t, []calmCase{
		{"shell expansion alternate", "mvnw", `case "${MVNW_PASSWORD:+has-password}" in`, credRule, false},
		{"shell expansion alternate sh", "mvnw.sh", `case "${MVNW_PASSWORD:+has-password}" in`, credRule, false},
		{"env var name", "aider/models.py", `openai_api_key = "OPENAI_API_KEY"`, credRule, false},
		{"laravel cast", "app/Models/User.php", `'password' => 'hashed',`, credRule, false},
		{"ansi colour", "cli/colors.py", `PASSWORD_COLOR = "\033[1;31m"`, credRule, false},
		{"ansi colour escaped", "cli/colors.py", `secret_style = "\x1b[38;5;208m"`, credRule, false},
		{"ansi colour around a word", "aider/coders/search_replace.py", "colors = {\n    \"pass\": \"\\033[102;30mpass\\033[0m\",", credRule, false},
		{"public analytics key", "aider/analytics.py", `posthog_project_api_key = "phc_` + "99T7muzafUMMZX15H8XePbMSreEUzahHbtWjy3l5Qbv" + `"`, credRule, false},
		{"powershell constructor", "mvnw.cmd", "$webclient.Credentials = New-Object System.Net.NetworkCredential($env:MVNW_USERNAME, $env:MVNW_PASSWORD)", credRule, false},
		// true neighbours
		{"literal password", "app/models.py", `openai_api_key = "` + strongCred + `"`, credRule, true},
		{"password beside a colour key", "cli/colors.py", `"pass": "` + strongCred + `",`, credRule, true},
		{"posthog personal key", "aider/analytics.py", `posthog_personal_api_key = "phx_` + "99T7muzafUMMZX15H8XePbMSreEUzahHbtWjy3l5Qbv" + `"`, credRule, true},
		{"powershell literal", "deploy.ps1", `$webclient.Credentials = "` + strongCred + `"`, credRule, true},
		{"php password", "config/app.php", `'password' => '` + strongCred + `',`, credRule, true},
	})
}

// TestIsDocPathRules: a doc path lowers the code rules too, never the file a key is in.
func TestCalmMessagesSayWhy(t *testing.T) {
	fs := builtinFindings(t, "lib/util.py", "old = os.umask(0)\nos.umask(old)")
	for _, f := range fs {
		if f.RuleID == wwRule && !strings.Contains(f.Message, "lowered to low") {
			t.Errorf("a lowered finding does not say why: %q", f.Message)
		}
	}
}
