package rules

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeListsRules keeps the rule list in docs/rules.md in step with the rules.
func TestReadmeListsRules(t *testing.T) {
	data, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		if !strings.Contains(string(data), "`"+r.ID+"`") {
			t.Errorf("docs/rules.md does not list rule %s", r.ID)
		}
	}
	if !strings.Contains(string(data), "`tollgate/prompt-injection-attempt`") {
		t.Error("docs/rules.md does not list tollgate/prompt-injection-attempt")
	}
}
