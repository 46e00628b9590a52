package external

import (
	"slices"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
)

// TestPolicyNamesEveryTool holds the policy's list of names a config may enable equal to the
// tools this package runs (policy sits below review and cannot import this package): a tool
// added here without the policy's leave, or a name the policy accepts that nothing runs, fails.
func TestPolicyNamesEveryTool(t *testing.T) {
	if got, want := policy.ExternalScanners, Names(); !slices.Equal(got, want) {
		t.Errorf("policy.ExternalScanners = %q, want the tools' names %q", got, want)
	}
	for _, name := range Names() {
		if tool, ok := ByName(name); !ok || tool.Name() != name {
			t.Errorf("ByName(%q) = %v, %v", name, tool, ok)
		}
	}
	if _, ok := ByName("/usr/bin/gosec"); ok {
		t.Error("ByName accepts a path")
	}
}

// TestMissingSaysHowToInstall: every tool's "not installed" reason names how to install it and
// how to disable it.
func TestMissingSaysHowToInstall(t *testing.T) {
	for _, name := range Names() {
		if installHints[name] == "" {
			t.Errorf("%s has no install hint", name)
		}
		if got := Missing(name); !strings.Contains(got, installHints[name]) || !strings.Contains(got, `remove "`+name+`" from scanners.external`) {
			t.Errorf("Missing(%q) = %q", name, got)
		}
	}
}

// TestTouches: a result is kept only when its lines hold an added line, whichever way the
// lookup runs.
func TestTouches(t *testing.T) {
	lines := map[int]string{5: "a", 6: "b", 40: "c"}
	tests := []struct {
		line, end int
		want      bool
	}{
		{5, 5, true}, {1, 4, false}, {4, 5, true}, {7, 39, false}, {7, 40, true},
		{1, 100, true}, {41, 1000, false}, {100, 100, false},
	}
	for _, tt := range tests {
		if got := touches(lines, tt.line, tt.end); got != tt.want {
			t.Errorf("touches(%d..%d) = %v, want %v", tt.line, tt.end, got, tt.want)
		}
	}
}

// TestParseColumns: a tool's column becomes the result's 1-based byte column; a tool that
// gives none (an old bandit) leaves it 0, unknown.
func TestParseColumns(t *testing.T) {
	id := func(s string) string { return s }
	tests := []struct {
		name string
		tool Tool
		out  string
		want int
	}{
		{"gosec", Gosec{}, `{"Issues":[{"severity":"HIGH","confidence":"HIGH","cwe":{"id":"295"},"rule_id":"G402","details":"TLS","file":"a.go","line":"7","column":"12"}]}`, 12},
		{"gosec without column", Gosec{}, `{"Issues":[{"severity":"HIGH","confidence":"HIGH","rule_id":"G402","details":"TLS","file":"a.go","line":"7"}]}`, 0},
		{"bandit", Bandit{}, `{"results":[{"filename":"a.py","line_number":3,"line_range":[3],"col_offset":4,"test_id":"B602","issue_text":"shell","issue_severity":"HIGH","issue_confidence":"HIGH"}]}`, 5},
		{"old bandit", Bandit{}, `{"results":[{"filename":"a.py","line_number":3,"line_range":[3],"test_id":"B602","issue_text":"shell","issue_severity":"HIGH","issue_confidence":"HIGH"}]}`, 0},
		{"semgrep", Semgrep{}, `{"results":[{"check_id":"x","path":"a.py","start":{"line":3,"col":9},"end":{"line":3,"col":20},"extra":{"message":"m","severity":"ERROR"}}]}`, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := tt.tool.parse([]byte(tt.out), id)
			if err != nil || len(rs) != 1 {
				t.Fatalf("parse = %+v, %v; want one result", rs, err)
			}
			if rs[0].col != tt.want {
				t.Errorf("col = %d, want %d", rs[0].col, tt.want)
			}
		})
	}
}
