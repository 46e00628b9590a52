package lite

import "testing"

// TestCommandLineCredentials: passwords on command lines, in DSNs, Basic headers, auth tuples
// and Ruby/Go assignments are found with their exact value; variables, placeholders and
// prompts are left alone.
func TestCommandLineCredentials(t *testing.T) {
	const pw = "Zq8mK2vR9x"
	code := CredentialOptions{QuotedOnly: true, Assign: true}
	catches := []struct {
		line string
		o    CredentialOptions
		want string
	}{
		{`redis-cli -u redis://:Zq8mK2vR9x@cache.prod:6379`, AllForms, pw},
		{`URL = "rediss://:Zq8mK2vR9x@cache.prod:6380/0"`, code, pw},
		{`dsn := "app:Zq8mK2vR9x@tcp(db.prod:3306)/shop?parseTime=true"`, code, pw},
		{`db, err := sql.Open("mysql", "root:Zq8mK2vR9x@unix(/run/mysqld.sock)/shop")`, code, pw},
		{`mysql -uroot -pZq8mK2vR9x shop`, AllForms, pw},
		{`mysqldump -h db.prod -u app "-pZq8mK2vR9x" shop > dump.sql`, AllForms, pw},
		{`/usr/bin/mysql -u root -p'Zq8mK2vR9x' -e 'select 1'`, AllForms, pw},
		{`subprocess.run(["mysql", "-uroot", "-pZq8mK2vR9x"])`, code, pw},
		{`sshpass -p Zq8mK2vR9x ssh deploy@prod`, AllForms, pw},
		{`sshpass -p 'Zq8mK2vR9x' rsync -a . deploy@prod:/srv`, AllForms, pw},
		{`sshpass -pZq8mK2vR9x ssh deploy@prod`, AllForms, pw},
		{`docker login -p Zq8mK2vR9x -u ci registry.example.com`, AllForms, pw},
		{`docker login --password Zq8mK2vR9x -u ci ghcr.io`, AllForms, pw},
		{`podman login --password=Zq8mK2vR9x quay.io`, AllForms, pw},
		{`curl -u admin:Zq8mK2vR9x https://api.prod/`, AllForms, pw},
		{`curl -sS --user "admin:Zq8mK2vR9x" https://api.prod/`, AllForms, pw},
		{`curl -uadmin:Zq8mK2vR9x https://api.prod/`, AllForms, pw},
		{`htpasswd -b -c .htpasswd admin Zq8mK2vR9x`, AllForms, pw},
		{`htpasswd -cb /etc/nginx/.htpasswd admin 'Zq8mK2vR9x'`, AllForms, pw},
		{`htpasswd -nb admin Zq8mK2vR9x`, AllForms, pw},
		{`curl -H 'Authorization: Basic YWRtaW46WnE4bUsydlI5eA==' https://api.prod/`, AllForms, "YWRtaW46WnE4bUsydlI5eA=="},
		{`headers = {"Authorization": "Basic YWRtaW46WnE4bUsydlI5eA=="}`, code, "YWRtaW46WnE4bUsydlI5eA=="},
		{`Authorization: Basic YWRtaW46WnE4bUsydlI5eA`, AllForms, "YWRtaW46WnE4bUsydlI5eA"},
		{`r = requests.get(url, auth=("admin", "Zq8mK2vR9x"))`, code, pw},
		{`s.auth = ('admin', 'Zq8mK2vR9x')`, code, pw},
		{`r = requests.get(url, auth=HTTPBasicAuth("admin", "Zq8mK2vR9x"))`, code, pw},
		{`ENV["DB_PASS"] ||= "Zq8mK2vR9x"`, code, pw},
		{`ENV['SMTP_PASSWORD'] = 'Zq8mK2vR9x'`, code, pw},
		{`const password = "Zq8mK2vR9x"`, code, pw},
		{`const dbPassword string = "Zq8mK2vR9x"`, code, pw},
		{`	adminPassword = "Zq8mK2vR9x" // in a const block`, code, pw},
		{`config.apiKey ??= "Zq8mK2vR9x";`, code, pw},
	}
	for _, c := range catches {
		got, ok := FindCredential(c.line, c.o)
		if !ok || got.Value != c.want {
			t.Errorf("FindCredential(%q) = %+v, %v; want the value %q", c.line, got, ok, c.want)
		}
	}
	leaves := []struct {
		line string
		o    CredentialOptions
	}{
		{`redis-cli -u redis://:${REDIS_PASSWORD}@cache:6379`, AllForms},
		{`REDIS_URL=redis://:password@localhost:6379`, AllForms},
		{`redis://:<password>@host:6379`, AllForms},
		{`dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)`, code},
		{`dsn := "user:password@tcp(127.0.0.1:3306)/dbname"`, code},
		{`dsn := "root:$DB_PASSWORD@tcp(db:3306)/app"`, code},
		{`mysql -uroot -p"$PASS" shop`, AllForms},
		{`mysql -uroot -p${DB_PASSWORD} shop`, AllForms},
		{`mysql -uroot -p shop`, AllForms},
		{`mysql -u root -p`, AllForms},
		{`mysql -uroot -p<password> shop`, AllForms},
		{`mysql -uroot -pchangeme`, AllForms},
		{`mysql --port 3306 -h db`, AllForms},
		{`sshpass -p "$SSHPASS" ssh host`, AllForms},
		{`sshpass -e ssh host`, AllForms},
		{`sshpass -p xxx ssh host`, AllForms},
		{`docker login -u ci --password-stdin ghcr.io`, AllForms},
		{`docker login -p "$CI_REGISTRY_PASSWORD" -u ci registry`, AllForms},
		{`docker run -p 8080:80 nginx`, AllForms},
		{`docker ps -p 5000`, AllForms},
		{`curl -u "$USER:$PASS" https://api/`, AllForms},
		{`curl -u admin https://api/`, AllForms},
		{`curl -u admin: https://api/`, AllForms},
		{`curl -u admin:password https://api/`, AllForms},
		{`curl -u "admin:$(cat pw)" https://api/`, AllForms},
		{`htpasswd -c .htpasswd admin`, AllForms},
		{`htpasswd -b .htpasswd admin "$PW"`, AllForms},
		{`curl -H "Authorization: Basic $(echo -n u:p | base64)" https://api/`, AllForms},
		{`curl -H "Authorization: Basic ${CREDS}" https://api/`, AllForms},
		{`Authorization: Basic <base64>`, AllForms},
		{`Authorization: Basic dXNlcjpwYXNzd29yZA==`, AllForms}, // user:password
		{`Authorization: Basic dXNlcjo=`, AllForms},             // user: (empty)
		{`r = requests.get(url, auth=(user, password))`, code},
		{`r = requests.get(url, auth=("admin", os.environ["PW"]))`, code},
		{`r = requests.get(url, auth=("admin", "changeme"))`, code},
		{`ENV["DB_PASS"] ||= ENV.fetch("X")`, code},
		{`ENV["DB_PASS"] ||= "changeme"`, code},
		{`const password = "password"`, code},
		{`const passwordMinLength = 12`, code},
		{`Password string ` + "`json:\"password\"`", code},
		// shell and PowerShell variables an unquoted assignment keeps its quotes around
		{`echo "key_pwd=$KEY_PWD" >> $GITHUB_OUTPUT`, AllForms},
		{`terraform plan -var="ec2_pwd=$EC2_SECRET" -var="branch=main"`, AllForms},
		{`sed 's@release_password=".*"@release_password="'$K8S_RELEASE_PASSWORD'"@g' -i presets.cfg`, AllForms},
		{`$credential = New-Object PSCredential -ArgumentList $env:CLIENT_ID, $sec`, AllForms},
		{`$password = ConvertTo-SecureString -String $passwordString -AsPlainText -Force`, AllForms},
		{`echo "::set-output name=secret::SNAPCRAFT_LOGIN_RC"`, AllForms},
	}
	for _, c := range leaves {
		if got, ok := FindCredential(c.line, c.o); ok {
			t.Errorf("FindCredential(%q) = %+v: a reference or placeholder reported", c.line, got)
		}
	}
}

// FuzzFindCredential: no line makes FindCredential panic, and a value it reports lies in the
// line (the masker replaces it there).
func FuzzFindCredential(f *testing.F) {
	for _, s := range []string{
		`mysql -uroot -pZq8mK2vR9x`, `sshpass -p 'x'`, `htpasswd -b -c f admin PW`, `curl -u a:b`,
		`docker login -p`, `Authorization: Basic YWRtaW46WnE4bUsydlI5eA==`, `auth=("a", "b")`,
		`u:p@tcp(h)/d`, `redis://:pw@h`, `ENV["X_PASS"] ||= "v"`, `htpasswd -nb`, `curl -u`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, ok := FindCredential(line, AllForms)
		if ok && !containsValue(line, c.Value) {
			t.Fatalf("FindCredential(%q) reports %q, which is not in the line", line, c.Value)
		}
	})
}
