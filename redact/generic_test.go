package redact

import (
	"regexp"
	"strings"
	"testing"
)

// TestGenericPrefilterIsOn: the default rules' generic-api-key is the regex genericMayMatch
// was written for, so the prefilter runs (a gitleaks that changes the rule turns it off and
// fails this test, to look again).
func TestGenericPrefilterIsOn(t *testing.T) {
	d := newDetectorT(t)
	on := false
	for i, id := range d.e.ids {
		if id == "generic-api-key" {
			on = d.e.dets[i].may != nil
		}
	}
	if !on {
		t.Fatal("generic-api-key's regex is not genericAPIKeySrc: the prefilter is off")
	}
}

func TestGenericMayMatch(t *testing.T) {
	re := regexp.MustCompile(genericAPIKeySrc)
	for _, c := range []struct {
		text string
		want bool
	}{
		{`api_key = "Xk29vLq8Rt3mPz7Yw2NbQ"`, true},
		{"AUTH_TOKEN:\n  'Xk29vLq8Rt3mPz7Yw2NbQ'", true},
		{`monkey.value   => "Xk29vLq8Rt3mPz7Yw2NbQ"`, true},
		{`func keyFor(name string) string {`, false},
		{`// the access log rotates daily`, false},
		{"aGVsbG8ga2V5IHdvcmxk" + strings.Repeat("QUJD", 30), false},
	} {
		if got := genericMayMatch(c.text); got != c.want {
			t.Errorf("genericMayMatch(%q) = %v, want %v", c.text, got, c.want)
		}
		if c.want != re.MatchString(c.text) && c.want {
			t.Errorf("the case is wrong: the regex does not match %q", c.text)
		}
	}
}

// FuzzGenericMayMatch: wherever gitleaks' regex matches, the prefilter says it may.
func FuzzGenericMayMatch(f *testing.F) {
	re := regexp.MustCompile(genericAPIKeySrc)
	for _, s := range []string{`api_key = "Xk29vLq8Rt3mPz7Yw2NbQ"`, "secret\t\t'\n= 'abcdefghijk12'", "PAſſWORD:=abcdefghijkl", "Token||abcdefghijklmn", "x?=", "creds,aaaaaaaaaaaa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if re.MatchString(text) && !genericMayMatch(text) {
			t.Fatalf("the regex matches %q, genericMayMatch says it cannot", text)
		}
	})
}

// TestPathRegexKnown: every default rule with a path has its path regex read from the config
// text, so a path-only rule's detector is built only for paths it matches.
func TestPathRegexKnown(t *testing.T) {
	d := newDetectorT(t)
	n := 0
	for i := range d.e.ids {
		if !d.e.set.hasPath(i) {
			continue
		}
		n++
		r, err := d.e.set.rule(i)
		if err != nil {
			t.Fatal(err)
		}
		if src := d.e.set.pathSrc(i); src == "" || r.Path == nil || src != r.Path.String() {
			t.Errorf("%s: path source %q, compiled %v", d.e.ids[i], src, r.Path)
		}
	}
	if n == 0 {
		t.Fatal("no default rule has a path")
	}
}
