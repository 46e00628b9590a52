package review

import (
	"reflect"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
)

// TestOneProblem: a gitleaks rule and tollgate/hardcoded-credential on one line, or the key
// rules in one file, are one finding, the more specific one, naming the other; anything else
// (another line, another commit, another path) stays a finding of its own.
func TestOneProblem(t *testing.T) {
	f := func(rule, commit, path string, line int) Finding {
		return Finding{RuleID: rule, commit: commit, Path: path, Line: line}
	}
	v := func(rule, path string, line int, value string) Finding {
		return Finding{RuleID: rule, Path: path, Line: line, secrets: []string{value}}
	}
	w := func(rule, path string, line int, value string, sev policy.Severity) Finding {
		x := v(rule, path, line, value)
		x.Severity = sev
		return x
	}
	cases := []struct {
		name string
		in   []Finding
		want []string // rule ids kept, each with its also list after ":"
	}{
		{"secret and credential on one line", []Finding{
			f("tollgate/hardcoded-credential", "", "a.py", 3), f("secrets/generic-api-key", "", "a.py", 3)},
			[]string{"secrets/generic-api-key:tollgate/hardcoded-credential"}},
		{"on two lines", []Finding{
			f("tollgate/hardcoded-credential", "", "a.py", 3), f("secrets/generic-api-key", "", "a.py", 4)},
			[]string{"tollgate/hardcoded-credential:", "secrets/generic-api-key:"}},
		{"in two commits", []Finding{
			f("tollgate/hardcoded-credential", "c1", "a.py", 3), f("secrets/generic-api-key", "c2", "a.py", 3)},
			[]string{"tollgate/hardcoded-credential:", "secrets/generic-api-key:"}},
		{"private key line and key file", []Finding{
			f("tollgate/private-key-file", "", "k.pem", 1), f("secrets/private-key", "", "k.pem", 2)},
			[]string{"secrets/private-key:tollgate/private-key-file"}},
		{"pkcs12 name and key store", []Finding{
			f("secrets/pkcs12-file", "", "c.p12", 1), f("tollgate/private-key-file", "", "c.p12", 1)},
			[]string{"tollgate/private-key-file:secrets/pkcs12-file"}},
		{"key file in another path", []Finding{
			f("tollgate/private-key-file", "", "a.pem", 1), f("secrets/private-key", "", "b.pem", 1)},
			[]string{"tollgate/private-key-file:", "secrets/private-key:"}},
		{"two keys in one file: both kept, the first names the file rule", []Finding{
			f("secrets/private-key", "", "k.pem", 1), f("tollgate/private-key-file", "", "k.pem", 1), f("secrets/private-key", "", "k.pem", 9)},
			[]string{"secrets/private-key:tollgate/private-key-file", "secrets/private-key:"}},
		{"token rule and gitleaks rule on the same value", []Finding{
			v("tollgate/telegram-bot-token", "a.py", 3, "777"), v("secrets/telegram-bot-api-token", "a.py", 3, "x=777")},
			[]string{"secrets/telegram-bot-api-token:tollgate/telegram-bot-token"}},
		{"token rule and gitleaks rule on other values", []Finding{
			v("tollgate/telegram-bot-token", "a.py", 3, "777"), v("secrets/aws-access-token", "a.py", 3, "AKIA")},
			[]string{"tollgate/telegram-bot-token:", "secrets/aws-access-token:"}},
		{"credential and token rule on one line", []Finding{
			v("tollgate/hardcoded-credential", "a.py", 3, "777"), v("tollgate/mailgun-api-key", "a.py", 3, "777")},
			[]string{"tollgate/mailgun-api-key:tollgate/hardcoded-credential"}},
		{"credential, token and gitleaks rule: the gitleaks rule names both", []Finding{
			v("tollgate/hardcoded-credential", "a.py", 3, "777"), v("tollgate/discord-bot-token", "a.py", 3, "777"), v("secrets/discord-api-token", "a.py", 3, "777")},
			[]string{"secrets/discord-api-token:tollgate/hardcoded-credential,tollgate/discord-bot-token"}},
		{"a token rule over gitleaks' generic rule on the same value", []Finding{
			v("secrets/generic-api-key", "a.py", 3, "key-777"), v("tollgate/mailgun-api-key", "a.py", 3, "key-777")},
			[]string{"tollgate/mailgun-api-key:secrets/generic-api-key"}},
		{"gitleaks' generic rule and a token rule on other values", []Finding{
			v("secrets/generic-api-key", "a.py", 3, "abc"), v("tollgate/mailgun-api-key", "a.py", 3, "key-777")},
			[]string{"secrets/generic-api-key:", "tollgate/mailgun-api-key:"}},
		{"a token rule lowered in test code does not hide gitleaks' finding", []Finding{
			w("secrets/generic-api-key", "tests/a.py", 3, "key-777", policy.High), w("tollgate/mailgun-api-key", "tests/a.py", 3, "key-777", policy.Low)},
			[]string{"secrets/generic-api-key:tollgate/mailgun-api-key"}},
		{"other rules on one line stay", []Finding{
			f("tollgate/shell-injection", "", "a.py", 3), f("secrets/generic-api-key", "", "a.py", 3)},
			[]string{"tollgate/shell-injection:", "secrets/generic-api-key:"}},
	}
	for _, c := range cases {
		var got []string
		for _, x := range oneProblem(c.in) {
			s := x.RuleID + ":"
			for i, a := range x.Also {
				if i > 0 {
					s += ","
				}
				s += a
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
