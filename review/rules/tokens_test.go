package rules

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
)

// Fabricated tokens of the right shapes, built at run time so that the repository holds none.
const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	urlB64 = alnum + "_-"
	cryptB = "./" + alnum
	hexLow = "0123456789abcdef"
)

// fake returns n characters of alphabet, pseudo-random and fixed by seed.
func fake(alphabet string, n int, seed uint32) string {
	b := make([]byte, n)
	x := seed*2654435761 + 12345
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = alphabet[x%uint32(len(alphabet))]
	}
	return string(b)
}

var (
	tgToken      = "5843021967:" + "AA" + fake(urlB64, 33, 1)
	dcToken      = base64.RawStdEncoding.EncodeToString([]byte("309481726530194857")) + "." + fake(urlB64, 6, 2) + "." + fake(urlB64, 38, 3)
	dcHookToken  = fake(urlB64, 68, 4)
	mgKey        = "key-" + fake(hexLow, 32, 5)
	mgNewKey     = fake(hexLow, 32, 6) + "-" + fake(hexLow, 8, 7) + "-" + fake(hexLow, 8, 8)
	bcryptHash   = "$2b$" + "12$" + fake(cryptB, 53, 9)
	sha512Crypt  = "$6$" + fake(cryptB, 16, 10) + "$" + fake(cryptB, 86, 11)
	sha256Crypt  = "$5$" + "rounds=5000$" + fake(cryptB, 16, 12) + "$" + fake(cryptB, 43, 13)
	md5Crypt     = "$1$" + fake(cryptB, 8, 14) + "$" + fake(cryptB, 22, 15)
	apr1Hash     = "$apr1$" + fake(cryptB, 8, 16) + "$" + fake(cryptB, 22, 17)
	yescryptHash = "$y$" + "j9T$" + fake(cryptB, 22, 18) + "$" + fake(cryptB, 43, 19)
	strongPass   = fake(alnum, 24, 20)
)

// TestTokens: each self-identifying secret is found with no keyword next to it, at its line,
// masked; placeholders, near-misses of the shape and references are left alone.
func TestTokens(t *testing.T) {
	catches := []struct{ path, text, rule string }{
		{"bot.py", `updater = Updater("` + tgToken + `")`, "tollgate/telegram-bot-token"},
		{"notify.sh", `curl -s "https://api.telegram.org/bot` + tgToken + `/sendMessage" -d chat_id=1`, "tollgate/telegram-bot-token"},
		{"README.md", "Run it with `" + tgToken + "` as the first argument.", "tollgate/telegram-bot-token"},
		{"index.js", `client.login("` + dcToken + `");`, "tollgate/discord-bot-token"},
		{"bot.py", `bot.run('` + dcToken + `')`, "tollgate/discord-bot-token"},
		{"notify.py", `HOOK = "https://discord.com/api/webhooks/1174862930571638475/` + dcHookToken + `"`, "tollgate/discord-webhook"},
		{"notify.py", `u = "https://ptb.discordapp.com/api/v10/webhooks/1174862930571638475/` + dcHookToken + `"`, "tollgate/discord-webhook"},
		{"mail.py", `auth = ("api", "` + mgKey + `")`, "tollgate/mailgun-api-key"},
		{"mail.rb", `MG = '` + mgNewKey + `'`, "tollgate/mailgun-api-key"},
		{"data/users.json", `{"name": "ann", "hash": "` + bcryptHash + `"}`, "tollgate/password-hash"},
		{"seed.sql", `INSERT INTO accounts VALUES ('ann', '` + strings.Replace(bcryptHash, "$2b$", "$2y$", 1) + `');`, "tollgate/password-hash"},
		{"provision.yml", `  - { name: deploy, crypt: "` + sha512Crypt + `" }`, "tollgate/password-hash"},
		{"legacy.conf", "root_hash = " + md5Crypt, "tollgate/password-hash"},
		{"users.txt", "deploy " + sha256Crypt, "tollgate/password-hash"},
		{"nginx.conf", "# ann " + apr1Hash, "tollgate/password-hash"},
		{"cloud-init.yaml", "    passwd: " + yescryptHash, "tollgate/password-hash"},
		// credential store entries under any name
		{"ci/auth.txt", "machine git.corp.internal login ci password " + strongPass, "tollgate/credential-entry"},
		{"ci/netrc-prod", "machine api.heroku.com\n  login ann@corp.io\n  password " + strongPass, "tollgate/credential-entry"},
		{"ci/pgpass.conf", "db.corp.internal:5432:app:app:" + strongPass, "tollgate/credential-entry"},
		{"docker/pgpass", "*:*:*:postgres:" + strongPass, "tollgate/credential-entry"},
		{"auth/users.txt", "bob:{SHA}" + base64.StdEncoding.EncodeToString([]byte(fake(alnum, 20, 21))), "tollgate/credential-entry"},
		{"ci/kube.txt", "apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: " + strongPass, "tollgate/credential-entry"},
		{"ci/kube.txt", "kind: Config\nusers:\n- name: ci\n  user:\n    client-key-data: LS0t" + fake(alnum, 60, 22), "tollgate/credential-entry"},
	}
	for _, c := range catches {
		fs := builtinFindings(t, c.path, c.text)
		found := false
		for _, f := range fs {
			if f.RuleID != c.rule {
				continue
			}
			found = true
			if want := strings.Count(c.text, "\n") + 1; c.rule != "tollgate/credential-entry" && f.Line != want {
				t.Errorf("%s: %s at line %d, want %d", c.path, c.rule, f.Line, want)
			}
			if f.Severity == policy.Low || !strings.Contains(f.Evidence, "****") {
				t.Errorf("%s: %s: severity %s, evidence %q (want not low, masked)", c.path, c.rule, f.Severity, f.Evidence)
			}
			for _, v := range []string{tgToken, dcToken, dcHookToken, mgKey, mgNewKey, bcryptHash, sha512Crypt, strongPass} {
				if strings.Contains(f.Evidence, v) || strings.Contains(f.Message, v) {
					t.Errorf("%s: %s shows a secret in clear: %q", c.path, c.rule, f.Evidence)
				}
			}
		}
		if !found {
			t.Errorf("%s: %q: want %s, got %v", c.path, c.text, c.rule, fs)
		}
	}

	leaves := []struct{ path, text string }{
		{"bot.py", `updater = Updater(os.environ["BOT_TOKEN"])`},
		{"bot.py", `updater = Updater("123456789:AA` + strings.Repeat("x", 33) + `")`},
		{"bot.py", `t = "5843021967:AA` + strings.ToLower(fake(alnum, 33, 1)) + `"`},                                                // no upper case: not random
		{"bot.py", `t = "5843021967:AA` + fake(urlB64, 32, 1) + `"`},                                                                // one short
		{"bot.py", `t = "5843021967:AA` + fake(urlB64, 34, 1) + `"`},                                                                // one long
		{"bot.py", `t = "58430:AA` + fake(urlB64, 33, 1) + `"`},                                                                     // a short id
		{"index.js", `client.login("` + "SomeModuleNameThatIsLong1" + "." + fake(urlB64, 6, 2) + "." + fake(urlB64, 38, 3) + `");`}, // no user id
		{"index.js", `client.login(process.env.BOT_TOKEN);`},
		{"a.js", `const v = "Mozilla.5.0-compatible-` + fake(alnum, 30, 4) + `";`},
		{"notify.sh", `curl -d @m.json "https://discord.com/api/webhooks/{id}/{token}"`},
		{"notify.sh", `curl -d @m.json "$DISCORD_WEBHOOK"`},
		{"cache.py", `cache.set("key-" + digest, value)`},
		{"cache.py", `k = "cache-key-` + fake(hexLow, 32, 5) + `"`},
		{"cache.py", `k = "key-` + strings.Repeat("0", 32) + `"`},
		{"cache.py", `k = "key-` + fake(hexLow, 31, 5) + `"`},
		{"ids.go", `id := "` + fake(hexLow, 8, 1) + "-" + fake(hexLow, 4, 2) + "-" + fake(hexLow, 4, 3) + "-" + fake(hexLow, 4, 4) + "-" + fake(hexLow, 12, 5) + `"`},
		{"auth.go", `hash, err := bcrypt.GenerateFromPassword(pw, 12) // "$2b$12$" + 53 characters`},
		{"auth.go", `h := "$2b$12$` + fake(cryptB, 52, 9) + `"`},                                                                               // one short
		{"auth.go", `h := "$2b$12$` + strings.Repeat("x", 53) + `"`},                                                                           // placeholder
		{"database/factories/UserFactory.php", `'password' => '` + "$2y$10$" + "92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi" + `',`}, // Laravel's "password"
		{"run.sh", `echo "$1$2$3" > out`},
		{"re.pl", `s/(\w+) (\w+)/$2$1/g;`},
		{"docs/netrc.md", "machine git.corp.internal login ci password <your token>"},
		{"ci/auth.txt", "machine api.example.com login you password $TOKEN"},
		{"notes.md", "Machine learning\npassword reset flow is broken"},
		{"README.md", "The machine room password is on the wiki."},
		{"docs/auth.md", "machine pypi.corp.internal login alice password opensesame"},
		{"Netrc.pm", "    default login anonymous password user@site"},
		{"notes.netrc", "machine imap2 login bob password pwd2"},
		{"times.txt", "12:30:00:ab:cd"},
		{"times.txt", "2024:01:01:12:30"},
		{"net.txt", "fe80:0:0:0:0:1"},
		{"net.txt", "00:1a:2b:3c:4d:5e"},
		{"db.txt", "localhost:5432:mydb:myuser:mypassword"},
		{"perms.txt", "app:1000:1000:App User:/home/app"},
		{"ci/pgpass.conf", "db.corp.internal:5432:app:app:*"},
		{"k8s/secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ci\nstringData:\n  token: " + strongPass},
		{"app/settings.py", `SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]`},
		{"app/settings.py", `SECRET_KEY = get_random_secret_key()`},
	}
	for _, c := range leaves {
		for _, f := range builtinFindings(t, c.path, c.text) {
			if _, ok := tokenRuleIDs()[f.RuleID]; ok || f.RuleID == credentialEntry.ID {
				t.Errorf("%s: %q: want none of the token rules, got %s %q", c.path, c.text, f.RuleID, f.Evidence)
			}
		}
	}
}

func tokenRuleIDs() map[string]bool {
	ids := map[string]bool{}
	for _, r := range tokenRuleList() {
		ids[r.ID] = true
	}
	return ids
}

// TestTokensSeverity: in test code a token, hash or store entry is low, like the other
// credential rules; a file reported as a shadow or htpasswd store is one finding, not one per
// hash; a .netrc by its name is the credential-file finding only; Django's generated
// development key is low, a real SECRET_KEY high.
func TestTokensSeverity(t *testing.T) {
	cases := []struct {
		path, text, rule string
		sev              policy.Severity
		count            int
	}{
		{"tests/test_bot.py", `updater = Updater("` + tgToken + `")`, "tollgate/telegram-bot-token", policy.High, 1}, // a live shape in test code stays (issue 30: only a sample is lowered),
		{"fixtures/users.json", `{"hash": "` + bcryptHash + `"}`, "tollgate/password-hash", policy.Low, 1},
		{"testdata/netrc.txt", "machine h.corp.internal login a password " + strongPass, credentialEntry.ID, policy.Low, 1},
		{"bot.py", `updater = Updater("` + tgToken + `")`, "tollgate/telegram-bot-token", policy.High, 1},
		{"data/users.json", `{"hash": "` + bcryptHash + `"}`, "tollgate/password-hash", policy.Medium, 1},
		{"etc/shadow", "root:" + sha512Crypt + ":19000:0:99999:7:::\nann:" + sha512Crypt + ":19000:0:99999:7:::", "tollgate/password-hash", 0, 0},
		{"etc/shadow", "root:" + sha512Crypt + ":19000:0:99999:7:::", credentialFile.ID, policy.High, 1},
		{".netrc", "machine h.corp.internal login a password " + strongPass, credentialEntry.ID, 0, 0},
		{"mysite/settings.py", "SECRET_KEY = 'django-insecure-" + fake(alnum+"!@#%^&*(-_=+)", 50, 23) + "'", credID, policy.Low, 1},
		{"mysite/settings.py", "SECRET_KEY = '" + fake(alnum+"!@#%^&*(-_=+)", 50, 23) + "'", credID, policy.High, 1},
		{"mysite/tests/settings.py", "SECRET_KEY = '" + fake(alnum+"!@#%^&*(-_=+)", 50, 23) + "'", credID, policy.Low, 1},
	}
	for _, c := range cases {
		n := 0
		for _, f := range builtinFindings(t, c.path, c.text) {
			if f.RuleID != c.rule {
				continue
			}
			n++
			if f.Severity != c.sev {
				t.Errorf("%s: %s severity %s, want %s", c.path, c.rule, f.Severity, c.sev)
			}
		}
		if n != c.count {
			t.Errorf("%s: %d findings of %s, want %d", c.path, n, c.rule, c.count)
		}
	}
}

// TestSecretFileByContent: a file holding a credential store's entry is a secret as a whole for
// the model step, whatever its name.
func TestSecretFileByContent(t *testing.T) {
	if got := SecretFile("ci/auth.txt", "machine git.corp.internal login ci password "+strongPass+"\n"); got != credentialEntry.ID {
		t.Errorf("SecretFile = %q, want %s", got, credentialEntry.ID)
	}
	if got := SecretFile("docs/auth.md", "machine git.corp.internal login ci password <your token>\n"); got != "" {
		t.Errorf("SecretFile = %q for a placeholder, want none", got)
	}
}
