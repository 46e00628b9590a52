package rules

import (
	"context"
	"reflect"
	"testing"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// secretRuleIDs are the rules SecretScanner runs.
func secretRuleIDs() map[string]bool {
	ids := map[string]bool{credentialEntry.ID: true}
	for _, r := range fileRules {
		ids[r.ID] = true
	}
	for _, r := range tokenRuleList() {
		ids[r.ID] = true
	}
	return ids
}

// TestSecretScannerMatchesScanner: on every documented example of every rule (and texts
// mixing secrets with code and credentials), SecretScanner finds exactly what Scanner finds of
// the secret rules, and nothing of the others.
func TestSecretScannerMatchesScanner(t *testing.T) {
	ids := secretRuleIDs()
	type input struct{ path, text string }
	var inputs []input
	for _, r := range All() {
		inputs = append(inputs, input{r.Catches.Path, r.Catches.Text}, input{r.Leaves.Path, r.Leaves.Text})
	}
	inputs = append(inputs,
		input{"app/settings.py", "DB_PASSWORD = 'Zq8mK2vR7tLp'\nos.system('rm ' + request.args['f'])\nTOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'"},
		input{"deploy/.htpasswd", "ann:$apr1$abc$defghijklmnop\nbob:$apr1$xyz$qrstuvwxyzabc"},
		input{"lib/client.py", "def f():\n    \"\"\"Example:\n    bot = Bot('" + exTelegram + "')\n    h = '" + exBcrypt + "'\n    \"\"\"\n    return 1"},
		input{"conf/app.yaml", "webhook: https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX\npassword: hunter22hunter"},
	)
	found := 0
	for _, in := range inputs {
		var all, got review.Result
		u := difftest.AddedUnit(in.path, in.text)
		if err := (Scanner{}).Scan(context.Background(), u, &all); err != nil {
			t.Fatal(err)
		}
		if err := (SecretScanner{}).Scan(context.Background(), difftest.AddedUnit(in.path, in.text), &got); err != nil {
			t.Fatal(err)
		}
		var want []review.Finding
		for _, f := range all.Findings {
			if ids[f.RuleID] {
				want = append(want, f)
			}
		}
		for _, f := range got.Findings {
			if !ids[f.RuleID] {
				t.Errorf("%s: SecretScanner reported %s, not one of its rules", in.path, f.RuleID)
			}
		}
		if !reflect.DeepEqual(want, got.Findings) {
			t.Errorf("%s %q:\nSecretScanner %v\nScanner's      %v", in.path, in.text, got.Findings, want)
		}
		found += len(got.Findings)
	}
	if found < len(ids) {
		t.Errorf("SecretScanner found %d secrets over all examples, fewer than its %d rules' examples", found, len(ids))
	}
}
