package rules

import (
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
)

const credID = "tollgate/hardcoded-credential"

// TestCredentialReferences: a value that refers to a secret (a variable, a template, a shell
// expansion, a label, a package, a flag naming a secret object) is not a hardcoded credential;
// the literal next to each stays caught.
func TestCredentialReferences(t *testing.T) {
	leaves := []struct{ path, text string }{
		{"main.tf", `  password = var.db_password`},
		{"main.tf", `  master_password = data.aws_ssm_parameter.db.password`},
		{"main.tf", `  password = local.db_password`},
		{"main.tf", `  admin_password = module.secrets.admin_password`},
		{"main.tf", `  password = random_password.db.result`},
		{"main.tf", `  password = "${var.db_password}"`},
		{"main.tf", `  password = each.value.password`},
		{"values.yaml", `  password: {{ .Values.db.password | quote }}`},
		{"templates/secret.yaml", `  password: {{ $pw | b64enc }}`},
		{"templates/secret.yaml", `  password: $dbPassword`},
		{"templates/secret.yaml", `  {{- $secret := (lookup "v1" "Secret" .Release.Namespace "db") }}`},
		{"templates/secret.yaml", `  password: (get $secret "password")`},
		{"templates/_helpers.tpl", `{{- $tlsSecret := index $serverConfig "tlsSecret" | default dict -}}`},
		{"templates/_helpers.tpl", `{{ $apiKey := default "" .Values.auth.apiKey }}`},
		{"bin/scaffold", `  ? eol + 'app.use(cookieSession({ secret: \'change this secret\' }));'`},
		{"bin/scaffold", `    out = "db.connect({ password: \"${DB_PASSWORD}\" })"`},
		{"templates/secret.yaml", `  password: {{ get $secret.data "password" }}`},
		{"config/database.yml.erb", `  password: <%= ENV['DB_PASSWORD'] %>`},
		{"deploy.sh", `mysql --password="$DB_PASSWORD" -e "select 1"`},
		{"deploy.sh", `psql "--password=${PGPASS:-x}"`},
		{"deploy.sh", `docker login --password "$REGISTRY_TOKEN" ghcr.io`},
		{"deploy.sh", `export DB_PASSWORD="$(cat /run/secrets/db)"`},
		{"deploy.sh", `gcloud run deploy app --set-secrets=API_KEY=prod-api-key:latest`},
		{"deploy.sh", `kubectl create secret generic db --secret=prod-env-auth`},
		{"deploy.sh", `docker build --secret id=npmrc,src=$HOME/.npmrc .`},
		{"deploy.sh", `cli login --password-file=/run/secrets/pw`},
		{"deploy.sh", `kubectl create secret generic db --from-literal=password="$DB_PASSWORD"`},
		{"Makefile", "\tdocker login -u $(USER) --password $(REGISTRY_PASSWORD)"},
		{"login.html", `<input type="password" name="password" id="password" placeholder="Password">`},
		{"login.html", `<label for="password">Password:</label>`},
		{"Login.xaml", `<PasswordBox x:Name="PasswordBox" Password="{Binding Password}"/>`},
		{"Login.xaml", `<TextBlock Text="Password:" />`},
		{"package.json", `    "react-secret": "^1.2.3",`},
		{"package.json", `    "password-validator": "^5.3.0",`},
		{"requirements.txt", `django-password-validators==1.7.1`},
		{"pyproject.toml", `keyring-pass = "0.9.3"`},
		{"Gemfile", `gem 'devise-secret', '~> 2.1'`},
		{"sudoers.d/deploy", `deploy ALL=(ALL) NOPASSWD: ALL`},
		{"roles/base/tasks/main.yml", `    line: '%wheel ALL=(ALL) NOPASSWD: ALL'`},
		{"config.yml", `secret_key_base: <%= Rails.application.credentials.secret_key_base %>`},
		{"app.js", "const password = `${prefix}${suffix}`;"},
		{"app.py", `password = f"{settings.DB_PASSWORD}"`},
	}
	for _, c := range leaves {
		if fs := builtinFindings(t, c.path, c.text); hasRule(fs, credID) {
			t.Errorf("%s: %q: a reference reported as a credential: %v", c.path, c.text, fs)
		}
	}
	catches := []struct{ path, text string }{
		{"main.tf", `  password = "Zq8mK2vR9x"`},
		{"values.yaml", `  password: Zq8mK2vR9x`},
		{"templates/_helpers.tpl", `{{- $password := "Zq8mK2vR9x" -}}`},
		{"bin/scaffold", `  ? eol + 'app.use(cookieSession({ secret: \'Zq8mK2vR9x\' }));'`},
		{"templates/secret.yaml", `{{- if .Values.enabled }}  password: Zq8mK2vR9x`},
		{"deploy.sh", `mysql --password="Zq8mK2vR9x" -e "select 1"`},
		{"deploy.sh", `kubectl create secret generic db --from-literal=password=Zq8mK2vR9x`},
		{"deploy.sh", `cli --client-secret=Zq8mK2vR9x`},
		{"package.json", `    "apiKey": "Zq8mK2vR9x",`},
		{"login.html", `<input type="password" name="password" value="Zq8mK2vR9x">`},
	}
	for _, c := range catches {
		if fs := builtinFindings(t, c.path, c.text); !hasRule(fs, credID) {
			t.Errorf("%s: %q: a literal credential missed", c.path, c.text)
		}
	}
}

// TestCredentialThrowaway: the default credentials of a local service in docker-compose, CI
// service containers, Helm ci/ values and test settings are reported low; the same value in
// application config, or a strong value in a CI file, stays high.
func TestCredentialThrowaway(t *testing.T) {
	cases := []credCase{
		{"docker-compose.yml", "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: postgres", policy.Low},
		{"docker-compose.yml", "      MYSQL_ROOT_PASSWORD: root", policy.Low},
		{"compose.yaml", "      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD=app", policy.Low},
		{"docker-compose.dev.yml", "      RABBITMQ_DEFAULT_PASS: guest", policy.Low},
		{".github/workflows/ci.yml", "    services:\n      postgres:\n        env:\n          POSTGRES_PASSWORD: postgres", policy.Low},
		{".github/workflows/ci.yml", "          POSTGRES_USER: keycloak\n          POSTGRES_PASSWORD: keycloak", policy.Low},
		{".gitlab-ci.yml", "  MYSQL_ROOT_PASSWORD: mysql", policy.Low},
		{".circleci/config.yml", "          POSTGRES_PASSWORD: circle_test", policy.Low},
		{"charts/db/ci/default-values.yaml", "auth:\n  password: Zq8mK2vR9x", policy.Low},
		{"app/tests/settings.py", `PASSWORD = "Zq8mK2vR9x"`, policy.Low},
		{"app/test_settings.py", `PASSWORD = "Zq8mK2vR9x"`, policy.Low},
		{"docker-compose.yml", "      ADMIN_USER: admin\n      ADMIN_PASSWORD: admin", policy.Low},
		{"ci/templates/build.yml", "jobs:\n  test:\n    runs-on: ubuntu-latest\n    services:\n      db:\n        env:\n          MYSQL_ROOT_PASSWORD: root", policy.Low},
		{"stack.yml", "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: postgres", policy.Low},
		{".github/workflows/ci.yml", "          POSTGRES_PASSWORD: backend-integration-tests-password", policy.Low},
		{".github/workflows/release.yml", `          echo -e ">Default username: \` + "`root\\`" + `\\n>Default password: \` + "`password\\`" + `\\n" >> release.txt`, policy.Low},
		{".github/workflows/release.yml", `          echo -e ">Default username: \` + "`root\\`" + `\\n>Default password: \` + "`Zq8mK2vR9x\\`" + `\\n" >> release.txt`, policy.High},
		{".github/workflows/ci.yml", "          POSTGRES_PASSWORD: ciPassword", policy.Low},
		{".github/workflows/ci.yml", "          DB_PASS: appsecret", policy.Low},
		{".github/workflows/release.yml", "          echo RELEASE_STORE_PASSWORD=TVBoxOSC >> gradle.properties", policy.High},
		{".github/workflows/mail.yml", "          password: Mannaerts1", policy.High},
		{"deploy/app.yml", "db:\n  env:\n    MYSQL_ROOT_PASSWORD: root", policy.High},
		{"config/database.yml", "  password: backend-integration-tests-password", policy.High},
		{".github/workflows/ci.yml", "          POSTGRES_PASSWORD: backend-integration-prod-password", policy.High},
		{"docker-compose.yml", "      POSTGRES_PASSWORD: Zq8mK2vR9x", policy.High},
		{".github/workflows/deploy.yml", "          API_SECRET: Zq8mK2vR9x", policy.High},
		{"config/database.yml", "  password: postgres", policy.High},
		{"docker-compose.yml", "      ADMIN_PASSWORD: admin123x", policy.High},
	}
	checkCredentialSeverity(t, cases)
}

// FuzzLocalServiceFile: the suffix test before localServiceFile changes none of its answers.
func FuzzLocalServiceFile(f *testing.F) {
	for _, s := range []string{
		"docker-compose.yml", "deploy/compose.prod.YAML", ".github/workflows/ci.yml", ".gitlab-ci.yaml",
		"app/.circleci/config.yml", "x.yml", "compose.yml.bak", "README.md", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := isLocalServiceFile(p), localServiceFile.MatchString(p); got != want {
			t.Fatalf("isLocalServiceFile(%q) = %v, localServiceFile says %v", p, got, want)
		}
	})
}

// FuzzFileRuleNeeds: a file rule's content never holds on text without its needs literal, so
// scanFile may skip a file none of whose added lines holds it.
func FuzzFileRuleNeeds(f *testing.F) {
	f.Add("root:$6$salt$" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH" + ":19000:0:99999:7:::")
	f.Add("daemon:*:19000\nroot:$y$j9T$abc$def:1")
	n := 0
	for i := range fileRules {
		if fileRules[i].needs != "" {
			n++
		}
	}
	if n == 0 {
		f.Fatal("no file rule has a needs literal: the test tests nothing")
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i := range fileRules {
			fr := &fileRules[i]
			if fr.needs != "" && fr.content(text) && !strings.Contains(text, fr.needs) {
				t.Fatalf("%s (%s) holds on %q, which lacks %q", fr.ID, fr.what, text, fr.needs)
			}
		}
	})
}

// TestCredentialCommandLineSeverity: a password on a command line, in a DSN, a Basic header
// or an auth tuple blocks (high) unless it is a local service's or a well-known default (low).
func TestCredentialCommandLineSeverity(t *testing.T) {
	cases := []credCase{
		{"deploy.sh", `mysql -h db.prod -uapp -pZq8mK2vR9x shop`, policy.High},
		{"deploy.sh", `sshpass -p 'Zq8mK2vR9x' ssh deploy@prod`, policy.High},
		{"deploy.sh", `docker login -p Zq8mK2vR9x -u ci registry.example.com`, policy.High},
		{"deploy.sh", `curl -u admin:Zq8mK2vR9x https://api.prod/`, policy.High},
		{"deploy.sh", `htpasswd -b -c .htpasswd admin Zq8mK2vR9x`, policy.High},
		{"main.go", `dsn := "app:Zq8mK2vR9x@tcp(db.prod:3306)/shop"`, policy.High},
		{"app.rb", `REDIS = "rediss://:Zq8mK2vR9x@cache.prod:6380"`, policy.High},
		{"client.py", `r = requests.get(url, auth=("admin", "Zq8mK2vR9x"))`, policy.High},
		{"deploy.sh", `curl -H 'Authorization: Basic YWRtaW46WnE4bUsydlI5eA==' https://api.prod/`, policy.High},
		{"config/boot.rb", `ENV["DB_PASS"] ||= "Zq8mK2vR9x"`, policy.High},
		{"deploy.sh", `mysql -uroot -proot shop`, policy.Low},
		{"deploy.sh", `mysql -h 127.0.0.1 -uroot -pZq8mK2vR9x shop`, policy.Low},
		{"main.go", `dsn := "root:Zq8mK2vR9x@tcp(localhost:3306)/shop"`, policy.Low},
		{"deploy.sh", `redis-cli -u redis://:redis@cache:6379`, policy.Low},
	}
	checkCredentialSeverity(t, cases)
}

// TestCredentialIdentifierValues: a value spelled as an identifier of words (a rule id or a
// path of lower-case words, an unquoted variable name ending in a credential word) is no
// secret and is reported at most low; a generated value next to each stays high.
func TestCredentialIdentifierValues(t *testing.T) {
	cases := []credCase{
		{"review/guard/actions.go", `const ruleSecret = "guard/secret-read"`, policy.Low},
		{"review/rules/ids.go", `	dbSecret = "secrets/api-token"`, policy.Low},
		{"ci/publish.yml", "          - { username: dockerID, password: dockerPassword, repo: x }", policy.Low},
		{"ci/publish.yml", "              password: dockerPassword,", policy.Low},
		{"review/guard/actions.go", `clientSecret = "9f8a7b6c5d4e3f2a1b0c"`, policy.High},
		{"review/rules/ids.go", `	dbSecret = "Zq8mK2vR9x/Lp3nW"`, policy.High},
		{"ci/publish.yml", "              password: xK9fP2mQ7zW4,", policy.High},
		{"app.js", `const db = { password: "dockerPassword" };`, policy.High},
	}
	checkCredentialSeverity(t, cases)
}

// TestCredentialJWK: a JSON Web Key's private member ("d" of an RSA, EC or OKP key, "k" of an
// oct key) is a key written into the file; a public key, or "d" and "k" members of an object
// that is no JWK, is not.
func TestCredentialJWK(t *testing.T) {
	const d = `"d": "slaQqyHQPudOpq2mbDskum8rOu9IMkLGjINAFWwfqr4"`
	cases := []struct {
		path, text string
		want       int
	}{
		{"keys/jwk.json", "{\n  \"kty\": \"EC\",\n  \"crv\": \"P-256\",\n  " + d + "\n}", 1},
		{"keys/jwks.json", `{"keys":[{"kty":"oct","k":"WrMwQfoNaHTgXU5fZvRGAD","alg":"HS256"}]}`, 1},
		{"keys/jwk.json", `{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB"}`, 0},
		{"config/app.json", "{\n  \"name\": \"x\",\n  " + d + "\n}", 0},
		{"config/app.json", `{"kty":"EC","k":"WrMwQfoNaHTgXU5fZvRGAD"}`, 0},
	}
	for _, c := range cases {
		n := 0
		for _, f := range builtinFindings(t, c.path, c.text) {
			if f.RuleID == credID && f.Severity == policy.High {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %q: want %d high JWK findings, got %d", c.path, c.text, c.want, n)
		}
	}
}

// credCase is one line and the severity of the one credential finding it must give.
type credCase struct {
	path, text string
	sev        policy.Severity
}

// checkCredentialSeverity asserts each case gives exactly one hardcoded-credential finding, at
// its severity.
func checkCredentialSeverity(t *testing.T, cases []credCase) {
	t.Helper()
	for _, c := range cases {
		var got []policy.Severity
		for _, f := range builtinFindings(t, c.path, c.text) {
			if f.RuleID == credID {
				got = append(got, f.Severity)
			}
		}
		if len(got) != 1 || got[0] != c.sev {
			t.Errorf("%s: %q: want one %s credential, got %v", c.path, c.text, c.sev, got)
		}
	}
}
