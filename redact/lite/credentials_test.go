package lite

import (
	"strings"
	"testing"
)

// FuzzAssignAfterKey: the fast test before credAssign never says no where credAssign matches.
func FuzzAssignAfterKey(f *testing.F) {
	for _, s := range []string{
		`password = "hunter2hunter2"`, `"api_key": "x"`, `DB_PASS='x'`, `config["secret"] = x`,
		`client-secret:	v`, `PaſſWORD=x`, `auth_token => "x"`, `credentials: x`, `x := map[string]string{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if credAssign.MatchString(line) && !assignAfterKey(FoldLower(line)) {
			t.Fatalf("credAssign matches %q, assignAfterKey says it cannot", line)
		}
	})
}

func TestAssignAfterKey(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`password = "x"`, true},
		{`"Private_Key" : x`, true},
		{`cfg['api-key']= x`, true},
		{`pa` + "\u017f" + `sword=x`, true}, // (?i) folds the long s to s
		{`if err := checkPassword(p); err != nil {`, false},
		{`// the secret is read from the environment`, false},
	} {
		if got := assignAfterKey(FoldLower(c.line)); got != c.want {
			t.Errorf("assignAfterKey(%q) = %v, want %v", c.line, got, c.want)
		}
		if c.want != credAssign.MatchString(c.line) && c.want {
			t.Errorf("the case is wrong: credAssign does not match %q", c.line)
		}
	}
	if strings.Contains(FoldLower("A"), "A") {
		t.Error("FoldLower does not lower-case")
	}
}

// FuzzUserInfoAfterScheme: the fast test before credURL never says no where credURL matches.
func FuzzUserInfoAfterScheme(f *testing.F) {
	for _, s := range []string{
		`postgres://admin:s3cr3tP4ss@db.internal:5432/app`, `see https://example.com/a:b@c`,
		`x://a:b@c and ftp://u:p@h`, `redis://:pw@host`, `https://flask.palletsprojects.com/`,
		`a://b`, `"mysql://root:` + "\xff" + `@x"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if credURL.MatchString(line) && !userInfoAfterScheme(line) {
			t.Fatalf("credURL matches %q, userInfoAfterScheme says it cannot", line)
		}
	})
}

func TestUserInfoAfterScheme(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`DATABASE_URL = "postgres://admin:s3cr3tP4ss@db.internal:5432/app"`, true},
		{`mail: ftp://x and then smtp://user:pw@mail`, true},
		{`see https://flask.palletsprojects.com/en/latest/`, false},
		{`user@host:port, no scheme`, false},
		{`http://host:8080/path`, false},
	} {
		if got := userInfoAfterScheme(c.line); got != c.want {
			t.Errorf("userInfoAfterScheme(%q) = %v, want %v", c.line, got, c.want)
		}
		if c.want != credURL.MatchString(c.line) && c.want {
			t.Errorf("the case is wrong: credURL does not match %q", c.line)
		}
	}
}

// FuzzMayHoldCredential: the one-pass test says what strings.ToLower and strings.Contains say,
// on any line.
func FuzzMayHoldCredential(f *testing.F) {
	for _, s := range []string{"DB_PASSWORD=x", "API_\u212aEY = 1", "a://b", strings.Repeat("x", 511) + "KEY", strings.Repeat("x", 600) + "Token", "nothing here", "PWD\xff",
		"", "a", "ke", "https:/", "pas\u00e9s", "h\u00e9llo secret", "ab@TCP(", "\u017fecret", "x\xffkey"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		want := strings.Contains(line, "://")
		lower := strings.ToLower(line)
		for _, w := range credentialWords {
			want = want || strings.Contains(lower, w)
		}
		if got := mayHoldCredential(line); got != want {
			t.Fatalf("mayHoldCredential(%q) = %v, want %v", line, got, want)
		}
	})
}
