package redact

import (
	"regexp"
	"strings"
	"testing"
)

// genericMayMatch is the prefilter of generic-api-key's regex.
func genericMayMatch(text string) bool { return keysMayMatch(text, genericKeywords[:]) }

// TestGenericPrefilterIsOn: the default rules' generic-api-key is the regex genericMayMatch
// was written for, so the prefilter runs (a gitleaks that changes the rule turns it off and
// fails this test, to look again).
func TestGenericPrefilterIsOn(t *testing.T) {
	d := newDetectorT(t)
	on := false
	for i, id := range d.e.ids {
		if id == "generic-api-key" {
			on = d.e.dets[i].keys != nil
		}
	}
	if !on {
		t.Fatal("generic-api-key's regex is not genericAPIKeySrc: the prefilter is off")
	}
	n := 0
	for i := range d.e.ids {
		if d.e.dets[i].keys != nil {
			n++
		}
	}
	if n < 80 {
		t.Fatalf("only %d default rules are read as semi-generic (85 in gitleaks 8.30.1)", n)
	}
}

// FuzzSemiGenericKeys: for every default rule read as semi-generic, wherever its regex matches
// a text, keysMayMatch says it may.
func FuzzSemiGenericKeys(f *testing.F) {
	d := newDetector(f, Options{})
	type rule struct {
		re   *regexp.Regexp
		keys []string
	}
	var rules []rule
	for i := range d.e.ids {
		if k := d.e.dets[i].keys; k != nil {
			rules = append(rules, rule{regexp.MustCompile(d.e.set.regexSrc(i)), k})
		}
	}
	for _, s := range []string{"lob_key = 'live_0123456789abcdef0123456789abcdef012'", "HEROKU_API_KEY=12345678-1234-1234-1234-123456789012", "x", "twitch_secret: 'abcdefghijklmnopqrstuvwxyz0123'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range rules {
			if r.re.MatchString(text) && !keysMayMatch(text, r.keys) {
				t.Fatalf("%s matches %q, keysMayMatch says it cannot", r.re, text)
			}
		}
	})
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

// FuzzSemiGenericGate: for every default rule read as semi-generic, the gate matches exactly
// the texts its regex matches.
func FuzzSemiGenericGate(f *testing.F) {
	d := newDetector(f, Options{})
	type rule struct {
		re, gate, at *regexp.Regexp
		keys         []string
	}
	var rules []rule
	for i := range d.e.ids {
		if keys := d.e.dets[i].keys; keys != nil {
			re := regexp.MustCompile(d.e.set.regexSrc(i))
			gate, at := semiGenericGate(re)
			rules = append(rules, rule{re, gate, at, keys})
		}
	}
	for _, s := range []string{`api_key = "Xk29vLq8Rt3mPz7Yw2NbQ"`, "my.app-secret\t:= \"abcdefghijk12\"\n", "PAſſWORD:=abcdefghijkl", "x_token||abcdefghijklmn", "lob_key = 'live_0123456789abcdef0123456789abcdef012'", "key = abc", "", "x = 1; key := 'abcdefghijklmnop'\nsecret=\n", "KEY=x KEY=abcdefghijkl", "apikey: 'short' api_key: 'abcdefghijklm'",
		"<linearGradient id=\"g1\"> — Überblick", "Ünïcode linear_secret = 'abcdef0123456789abcdef0123456789'", "ſecret=abcdefghijklmnop", "\u212aey: 'abcdefghijklmnop' é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range rules {
			want := r.re.MatchString(text)
			if r.gate.MatchString(text) != want {
				t.Fatalf("%s and its gate %s disagree on %q", r.re, r.gate, text)
			}
			if foldsInASCII(text) && keysMatch(text, lowerASCIIBytes(text), r.keys, r.at) != want {
				t.Fatalf("%s and keysMatch disagree on %q", r.re, text)
			}
		}
	})
}

// TestSemiGenericGateIsOn: the gate of every default rule read as semi-generic is the regex
// without its prefix, not the regex itself.
func TestSemiGenericGateIsOn(t *testing.T) {
	d := newDetectorT(t)
	for i := range d.e.ids {
		if d.e.dets[i].keys == nil {
			continue
		}
		re := regexp.MustCompile(d.e.set.regexSrc(i))
		if g, at := semiGenericGate(re); g == re || at == nil || strings.Contains(g.String(), `[\w.-]{0,50}?`) {
			t.Errorf("%s: the gate is %s (anchored: %v)", d.e.ids[i], g, at)
		}
	}
	if re := regexp.MustCompile(`\bkey=(\w+)`); func() bool { g, at := semiGenericGate(re); return g != re || at != nil }() {
		t.Error("a regex not written with the template has a gate of its own")
	}
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
