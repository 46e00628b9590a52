package redact

import (
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// The generic rule with its stopwords deferred holds the same words, lower-cased, on the
// same allowlist as gitleaks' own translation of the whole rule.
func TestDeferStopwordsSameWords(t *testing.T) {
	s, err := loadDefaultSet()
	if err != nil {
		t.Fatal(err)
	}
	i := -1
	for j := 0; j < s.size(); j++ {
		if s.id(j) == "generic-api-key" {
			i = j
		}
	}
	if i < 0 {
		t.Fatal("no generic-api-key rule in the default set")
	}
	deferred, err := s.rule(i)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := translateText(s.chunks[i])
	if err != nil {
		t.Fatal(err)
	}
	want := whole.Rules["generic-api-key"].Allowlists
	if len(deferred.Allowlists) != len(want) {
		t.Fatalf("%d allowlists, gitleaks has %d", len(deferred.Allowlists), len(want))
	}
	moved := 0
	for k := range want {
		got := wordSet(deferred.Allowlists[k].StopWords)
		exp := wordSet(want[k].StopWords)
		if len(got) != len(exp) {
			t.Fatalf("allowlist %d: %d stopwords, gitleaks has %d", k, len(got), len(exp))
		}
		for w := range exp {
			if !got[w] {
				t.Fatalf("allowlist %d lost stopword %q", k, w)
			}
		}
		moved += len(got)
	}
	if moved < 1000 {
		t.Fatalf("only %d stopwords on generic-api-key; the test no longer covers the deferral", moved)
	}
}

func wordSet(ws []string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// A deferred stopword still allowlists a candidate secret, and a value without one is still
// found.
func TestDeferredStopwordsStillApply(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	// "example" is one of generic-api-key's stopwords.
	kept, err := d.Scan("config.py", "api_key = \"Zq8vLx2ExampleRt5Wm9Kp\"\n", 1)
	if err != nil || len(kept) != 0 {
		t.Fatalf("a candidate holding a stopword was reported: %+v", kept)
	}
	found, err := d.Scan("config.py", "api_key = \"Zq8vLx2Hb7Rt5Wm9KpQ4\"\n", 1)
	if err != nil || len(found) == 0 {
		t.Fatal("a generic key without a stopword was not found")
	}
}

func TestCutStopwordsNeedsAnotherCheck(t *testing.T) {
	only := "[[rules.allowlists]]\nstopwords = [\n    \"abc\",\n]\n"
	if got, words := deferStopwords(only); got != only || words != nil {
		t.Fatalf("an allowlist of stopwords only was changed: %q %v", got, words)
	}
	escaped := "[[rules.allowlists]]\nregexes = ['''x''']\nstopwords = [\n    \"a\\\\b\",\n]\n"
	if got, _ := deferStopwords(escaped); got != escaped {
		t.Fatalf("a list with an escape was changed: %q", got)
	}
	both := "[[rules.allowlists]]\nregexes = ['''x''']\nstopwords = [\n    \"ABC\",\n    \"abc\",\n]\n"
	got, words := deferStopwords(both)
	if strings.Contains(got, "stopwords") || len(words[0]) != 1 || words[0][0] != "abc" {
		t.Fatalf("got %q %v", got, words)
	}
	var r config.Rule
	if restoreStopwords(&r, words) {
		t.Fatal("words restored onto a rule without the allowlist")
	}
}

// redact's own patterns compile lazily; every one of them must be valid.
func TestLazyPatternsCompile(t *testing.T) {
	if err := lazyre.CheckAll(); err != nil {
		t.Fatal(err)
	}
}
