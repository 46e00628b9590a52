package rules

import (
	"context"
	"testing"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// ruleLines returns the lines rule id reports.
func ruleLines(fs []review.Finding, id string) []int {
	var out []int
	for _, f := range fs {
		if f.RuleID == id {
			out = append(out, f.Line)
		}
	}
	return out
}

// TestCrossLineRules: what one line cannot decide, the lines above it in the scope do (issue
// 9). line is where the finding must be (0: no finding of rule).
func TestCrossLineRules(t *testing.T) {
	const sqlID, evalID, deserID = "tollgate/sql-concatenation", "tollgate/eval-request-data", "tollgate/unsafe-deserialization"
	cases := []struct {
		path, text, rule string
		line             int
	}{
		// SQL built on one line, run on a later one: one finding, where it runs
		{"q.py", "query = \"SELECT * FROM users WHERE name = '%s'\" % name\nlog.debug(query)\ncursor.execute(query)", sqlID, 3},
		{"Q.java", "String sql = \"SELECT * \"\n    + \"FROM accounts WHERE id = '\"\n    + id\n    + \"'\";\nResultSet rs = stmt.executeQuery(sql);", sqlID, 5},
		{"q.go", "q := \"SELECT name FROM users WHERE id = \"\nq += r.URL.Query().Get(\"id\")\nrows, err := db.Query(q)", sqlID, 3},
		{"q.rb", "sql = \"DELETE FROM items WHERE id = \"\nsql << params[:id]\nconn.exec sql", sqlID, 3},
		{"q.js", "let q = \"SELECT * FROM t WHERE a = \".concat(a)\nconst res = await pool.query(q)", sqlID, 2},
		{"q.php", "$part = $_POST['id'];\n$q = \"SELECT * FROM t WHERE id = '$part'\";\n$r = mysqli_query($db, $q);", sqlID, 3},
		{"q.py", "q = f\"SELECT * FROM t WHERE a = {a}\"\nstmt = text(q)\nconn.execute(stmt)", sqlID, 3},
		{"Q.java", "StringBuilder sb = new StringBuilder(\"SELECT * FROM t WHERE name = '\");\nsb.append(name).append(\"'\");\nrs = st.executeQuery(sb.toString());", sqlID, 3},
		{"q.py", "cur.execute(\n    \"SELECT * FROM t WHERE a = '%s'\" % a)", sqlID, 2},
		{"q.py", "sql = \"UPDATE t SET a = 1 WHERE id = \" + uid\ncur.execute(\n    sql)", sqlID, 3},
		{"Q.cs", "string sql = \"SELECT * FROM Users WHERE Name = '\" + name + \"'\";\nvar cmd = new SqlCommand(sql, conn);", sqlID, 2},
		{"Q.cs", "var sql = $\"SELECT * FROM Users WHERE Name = '{name}'\";\ncmd.CommandText = sql;", sqlID, 2},
		{"Q.cs", "var users = conn.Query<User>($\"SELECT * FROM Users WHERE Name = '{name}'\");", sqlID, 1},
		{"Q.cs", "var cmd = new SqlCommand(\"SELECT * FROM Users WHERE Name = @name\", conn);\ncmd.Parameters.AddWithValue(\"@name\", name);", sqlID, 0},
		{"Q.cs", "int id = int.Parse(s);\nvar sql = $\"SELECT * FROM Users WHERE Id = {id}\";\ncmd.CommandText = sql;", sqlID, 0},
		{"Q.cs", "var id = int.Parse(s);\ncmd.CommandText = \"SELECT * FROM Users WHERE Id = \" + id;", sqlID, 0},
		// built and not run in view: the finding stays where the SQL is built
		{"q.py", "q = \"SELECT * FROM t WHERE a = \" + a\nreturn q", sqlID, 1},
		{"q.py", "def build(a):\n    q = \"SELECT * FROM t WHERE a = \" + a\n    return q\ndef run(q):\n    cur.execute(q)", sqlID, 2},
		// values that cannot carry SQL
		{"q.py", "q = \"SELECT * FROM t WHERE a = %s\"\ncur.execute(q, (a,))", sqlID, 0},
		{"q.py", "limit = 10\ncur.execute(\"SELECT * FROM t LIMIT \" + str(limit))", sqlID, 0},
		{"q.py", "cur.execute(\"SELECT * FROM \" + TABLE + \" WHERE id = %s\", (uid,))", sqlID, 0},
		{"q.py", "q = \"SELECT * FROM t WHERE id IN (\" + \",\".join(\"?\" * len(ids)) + \")\"\ncur.execute(q, ids)", sqlID, 0},
		{"q.py", "q = sql.SQL(\"SELECT * FROM {} WHERE id = %s\").format(sql.Identifier(table))\ncur.execute(q, (uid,))", sqlID, 0},
		{"q.go", "id, err := strconv.Atoi(r.FormValue(\"id\"))\nrows, err := db.Query(\"SELECT * FROM t WHERE id = \" + strconv.Itoa(id))", sqlID, 0},
		{"Q.java", "public List<User> byAge(int age) {\n    return jdbc.query(\"SELECT * FROM users WHERE age = \" + age, mapper);", sqlID, 0},
		{"q.php", "$id = intval($_GET['id']);\n$r = mysqli_query($db, \"SELECT * FROM t WHERE id = \" . $id);", sqlID, 0},
		{"q.php", "$id = 7;\n$r = mysqli_query($db, \"SELECT * FROM t WHERE id = $id\");", sqlID, 0},
		{"q.rb", "sql = \"SELECT * FROM t WHERE a = \"\nsql << \"1\"\nconn.exec sql", sqlID, 0},
		{"q.php", "$r = mysqli_query($db, \"SELECT * FROM t WHERE id = \" . $_GET['id']);", sqlID, 1}, // a superglobal is no constant
		{"q.py", "clauses = []\nclauses.append(\"name = '%s'\" % name)\nwhere = \" AND \".join(clauses)\ncur.execute(\"SELECT * FROM t WHERE \" + where)", sqlID, 4},
		{"q.py", "clauses = [\"a = %s\"]\nwhere = \" AND \".join(clauses)\ncur.execute(\"SELECT * FROM t WHERE \" + where, args)", sqlID, 0},
		{"q.py", "query = \"SELECT * FROM users WHERE 1=1\"\nif name:\n    query += \" AND name = %s\"\n    params.append(name)\ncursor.execute(query, params)", sqlID, 0},
		// request data evaluated through a variable
		{"app.py", "@app.route(\"/calc/<expr>\")\ndef calc(expr):\n    return str(eval(expr))", evalID, 3},
		{"app.py", "code = request.form[\"code\"]\nsrc = \"result = \" + code\nexec(src)", evalID, 3},
		{"app.js", "const expr = req.query.expr;\nconst fn = new Function(\"return \" + expr);", evalID, 2},
		{"app.php", "$c = $_POST['c'];\neval('return ' . $c . ';');", evalID, 2},
		{"app.py", "await loop.run_in_executor(None, exec, request.POST[\"code\"])", evalID, 1},
		{"app.py", "eval(\"print(%s)\" % request.GET.get(\"m\"))", evalID, 1},
		{"app.py", "expr = \"1 + 2\"\nprint(eval(expr))", evalID, 0},
		{"app.py", "@app.route(\"/calc/<expr>\")\ndef calc(expr):\n    return str(ast.literal_eval(expr))", evalID, 0},
		{"app.py", "@app.route(\"/calc\")\ndef calc(expr):\n    return str(eval(expr))", evalID, 0},
		{"app.js", "const m = pattern.exec(req.query.q);", evalID, 0},
		{"app.js", "exec(req.body.cmd, cb);", evalID, 0}, // a shell (child_process), not eval:
		{"app.js", "exec(req.body.cmd, cb);", "tollgate/shell-injection", 1},
		{"db.rb", "rows = conn.exec(\"SELECT * FROM t WHERE id = #{id}\")", "tollgate/shell-injection", 0}, // SQL, not a shell
		// a PHP shell command of values known safe (PurpleLlama CodeShield's unsafe-exec tests)
		{"r.php", "$v = \"a var\";\nsystem($v);", "tollgate/shell-injection", 0},
		{"r.php", "$s = escapeshellarg($_POST['key']);\nexec($s);", "tollgate/shell-injection", 0},
		{"r.php", "$s = escapeshellarg($u);\nexec(\"ls \" . $s);", "tollgate/shell-injection", 0},
		{"r.php", "$par = $_GET['i'];\nsystem($par);", "tollgate/shell-injection", 2},
		{"r.php", "$s = mysqli_real_escape_string($db, $u);\nexec(\"ls \" . $s);", "tollgate/shell-injection", 2}, // an SQL escape is no shell escape
		{"r.php", "function foo($v) {\n    system($v);", "tollgate/shell-injection", 2},
		// loaders under another name
		{"l.py", "import pickle as pkl\nobj = pkl.loads(data)", deserID, 2},
		{"l.py", "from pickle import loads\nobj = loads(data)", deserID, 2},
		{"l.py", "from ruamel.yaml import YAML\nyaml = YAML(typ=\"safe\")\ncfg = yaml.load(f)", deserID, 0},
		{"l.py", "yaml = YAML(typ=\"unsafe\")\ncfg = yaml.load(f)", deserID, 2},
		{"l.py", "items = pickle.load(open(\"data/items.pkl\", \"rb\"))", deserID, 0},
		{"l.py", "items = pickle.load(open(path, \"rb\"))", deserID, 1},
		{"l.py", "obj = pickle.loads(b\"\\x80\\x04K\\x01.\")", deserID, 0},
		{"l.py", "obj = pickle.loads(param, \"other\")", deserID, 1},
	}
	for _, c := range cases {
		got := ruleLines(builtinFindings(t, c.path, c.text), c.rule)
		if c.line == 0 && len(got) > 0 || c.line != 0 && (len(got) != 1 || got[0] != c.line) {
			t.Errorf("%s: %q: %s at lines %v, want %d", c.path, c.text, c.rule, got, c.line)
		}
	}
}

// TestCrossLineHunks: a hunk's variables are unknown to the next hunk (the lines between are
// not in view).
func TestCrossLineHunks(t *testing.T) {
	add := func(n int, s string) diff.Line { return diff.Line{Kind: diff.Add, New: n, Text: s} }
	f := diff.FileDiff{OldPath: "q.py", NewPath: "q.py", Status: diff.Modified, Hunks: []diff.Hunk{
		diff.NewHunk(1, 0, 1, 1, add(1, `q = "SELECT * FROM t WHERE a = " + a`)),
		diff.NewHunk(40, 0, 41, 1, add(41, `cur.execute(q)`)),
	}}
	var r review.Result
	if err := (Scanner{}).Scan(context.Background(), &diff.Unit{Files: []diff.FileDiff{f}}, &r); err != nil {
		t.Fatal(err)
	}
	if got := ruleLines(r.Findings, "tollgate/sql-concatenation"); len(got) != 1 || got[0] != 1 {
		t.Fatalf("want the build line 1 only, got %v", got)
	}
}

func TestParseAssign(t *testing.T) {
	for _, c := range []struct {
		code, target, op string
	}{
		{`String sql = "x";`, "sql", "="},
		{`query: str = f"x"`, "query", "="},
		{`id, _ := strconv.Atoi(s)`, "id", ":="},
		{`Map<String, Object> rows = x;`, "rows", "="},
		{`$q .= $x;`, "$q", ".="},
		{`sql += id`, "sql", "+="},
		{`if a == b:`, "", ""},
		{`foo(a=1)`, "", ""},
		{`x != y`, "", ""},
		{`log("a = b")`, "", ""},
	} {
		a, ok := parseAssign(c.code)
		if c.target == "" {
			if ok {
				t.Errorf("%q: want no assignment, got %+v", c.code, a)
			}
			continue
		}
		if !ok || !a.has(c.target) || a.op != c.op {
			t.Errorf("%q: got %+v %v, want %s %s", c.code, a, ok, c.target, c.op)
		}
	}
}

// FuzzFlow: the cross-line reader never panics, whatever the lines (a hook must not crash on
// odd code).
func FuzzFlow(f *testing.F) {
	f.Add("q = f\"SELECT * FROM t WHERE a = {a}\"\ncur.execute(\n    q)")
	f.Add("$q = \"SELECT * FROM t WHERE id = '{$x}'\" . $y;\n$r = mysqli_query($db, $q);")
	f.Add("sb.append(\"SELECT \").append(x)\nst.executeQuery(sb.toString())")
	f.Add("@app.route(\"/<x>\")\ndef f(x):\n    exec(\"%s\" % x)")
	f.Add("var s = $@\"select a from t where b = {x,8}\";\ncmd.CommandText = s;")
	f.Add("import pickle as p\np.loads(\"")
	f.Add("def f(verify):\n    if verify is False:\n        cert_reqs = \"CERT_NONE\"\n    code = \"\"\"\n    x\"\"\" % y\n    subprocess.run(c, shell=True)")
	f.Add("$x = `ls {$y}`;\n$this->exec($q);\npassthru(\"a\" . $b);")
	f.Add("old = os.umask(0)\ncur.execute(f\"SELECT * FROM {t} WHERE id = ?\", (i,))")
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range []string{"a.py", "a.php", "A.java", "a.js", "a.rb", "a.go"} {
			builtinFindings(t, p, text)
		}
	})
}

// TestShellNotEval: a shell given request data is still a finding now that eval-request-data
// keeps to each language's evaluating functions (JS and Ruby exec run a shell).
func TestShellNotEval(t *testing.T) {
	for _, c := range []struct{ path, text string }{
		{"app.js", "exec(req.query.cmd)"},
		{"app.rb", "exec(params[:cmd])"},
		{"app.rb", "system(\"ls \" + params[:dir])"},
		{"app.rb", "out = `git log #{ref}`"},
		{"app.rb", "exec(\"ls -lah #{user_input}\")"},
		{"app.rb", "Kernel.system(\"ls #{d}\")"},
	} {
		fs := builtinFindings(t, c.path, c.text)
		if len(fs) == 0 {
			t.Errorf("%s: %q: no finding", c.path, c.text)
		}
	}
}
