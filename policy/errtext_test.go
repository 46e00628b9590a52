package policy

import (
	"strings"
	"testing"
)

const testToken = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"

// TestConfigErrorsHideValues: a config error names the key (and the line where the decoder
// knows it) but never the value written there, nor a key name that is a token; tollgate's own
// hints in parentheses stay.
func TestConfigErrorsHideValues(t *testing.T) {
	cases := []struct {
		name, toml string
		want       []string // in the message
	}{
		{"severity", "[review]\nfail_on = \"" + testToken + "\"\n", []string{`key "review.fail_on"`, "want one of"}},
		{"duration", "[review]\ntimeout = \"" + testToken + "\"\n", []string{`key "review.timeout"`, `such as "30s"`}},
		{"glob", "[review]\nexclude = [\"[" + testToken + "\"]\n", []string{`key "review.exclude"`}},
		{"scanner", "[scanners]\nexternal = [\"" + testToken + "\"]\n", []string{`key "scanners.external"`}},
		{"key", "[review]\n" + testToken + " = 1\n", []string{"unknown key"}},
		{"parse", "[review]\nfail_on = " + testToken + "\n", []string{"line 2"}},
		{"string", "[review]\nfail_on = \"\\q" + testToken + "\"\n", []string{"line 2"}},
		{"type", "[review]\nfail_on = [\"" + testToken + "\"]\n", []string{`key "review.fail_on"`, "must be a string"}},
	}
	for _, c := range cases {
		_, err := Load(&Layer{Name: ".tollgate.toml", Data: []byte(c.toml)})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, testToken[4:12]) {
			t.Errorf("%s: the error shows the value: %s", c.name, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the error lacks %q: %s", c.name, w, msg)
			}
		}
	}
}

func TestHideValues(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"x" is not a positive duration such as "30s"`, valueHidden + ` is not a positive duration such as "30s"`},
		{`"a" matches nothing (want a pattern such as "vendor/" or "**/*.min.js")`, valueHidden + ` matches nothing (want a pattern such as "vendor/" or "**/*.min.js")`},
		{"error parsing regexp: missing closing ): `ab(c`", "error parsing regexp: missing closing ): " + valueHidden},
		{`can't read it`, `can't read it`},
	} {
		if got := hideValues(c.in, false); got != c.want {
			t.Errorf("hideValues(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
