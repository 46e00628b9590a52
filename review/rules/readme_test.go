package rules

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeListsRules keeps the README's rule list in step with the rules.
func TestReadmeListsRules(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		if !strings.Contains(string(data), "`"+r.ID+"`") {
			t.Errorf("README does not list rule %s", r.ID)
		}
	}
	if !strings.Contains(string(data), "`tollgate/prompt-injection-attempt`") {
		t.Error("README does not list tollgate/prompt-injection-attempt")
	}
}
