package redact

import (
	"regexp"
	"strings"
	"testing"
)

// TestShapesAreOn: the default rules' regexes are the ones the shapes were written for, so
// the shapes run (a gitleaks that changes a rule fails this test, to look again).
func TestShapesAreOn(t *testing.T) {
	d := newDetectorT(t)
	on := map[string]bool{}
	for i, id := range d.e.ids {
		on[id] = d.e.dets[i].shape != nil
	}
	if !on["vault-service-token"] {
		t.Fatal("vault-service-token's regex is not vaultServiceTokenSrc: its shape is off")
	}
}

// FuzzVaultShape: wherever vault-service-token's regex matches, vaultShape says it may.
func FuzzVaultShape(f *testing.F) {
	re := regexp.MustCompile(vaultServiceTokenSrc)
	for _, s := range []string{
		"token = 's.Xk29vLq8Rt3mPz7Yw2NbQaBc'", "hvs." + strings.Repeat("aB3_-", 20) + "\n", "s.aaaaaaaaaaaaaaaaaaaaaa\u212a\u017f;",
		"os.path.join(a, b)", "s.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if re.MatchString(text) && !vaultShape(text) {
			t.Fatalf("the regex matches %q, vaultShape says it cannot", text)
		}
	})
}

func TestVaultShape(t *testing.T) {
	re := regexp.MustCompile(vaultServiceTokenSrc)
	for _, c := range []struct {
		text string
		want bool
	}{
		{"VAULT_TOKEN='s.Xk29vLq8Rt3mPz7Yw2NbQaBc'", true},
		{"hvs." + strings.Repeat("aB3_-", 20) + "\n", true},
		{"return os.path.join(self.root_path, 'templates')", false},
		{"assert rv.status_code == 200", false},
	} {
		if got := vaultShape(c.text); got != c.want {
			t.Errorf("vaultShape(%q) = %v, want %v", c.text, got, c.want)
		}
		if c.want && !re.MatchString(c.text) {
			t.Errorf("the case is wrong: the regex does not match %q", c.text)
		}
	}
}

// TestPathAndRegexRules: a rule with a path and a regex finds what gitleaks finds on a path it
// matches, and (skipped by the engine) nothing where gitleaks finds nothing.
func TestPathAndRegexRules(t *testing.T) {
	d := newDetectorT(t)
	text := "resource \"db\" {\n  password = \"Xk29vLq8Rt3m\"\n}\n" +
		"$cfg = array('secret_key' => 'sk_" + strings.Repeat("aB3", 9) + "xy');\n"
	found := map[string]int{}
	for _, p := range []string{"infra/main.tf", "web/config.php", "app/settings.py", "infra/main.tf.md"} {
		n, _ := compareScans(t, d, p, p, text)
		found[p] = n
	}
	if found["infra/main.tf"] == 0 || found["web/config.php"] == 0 {
		t.Fatalf("the case is wrong: findings by path %v", found)
	}
}
