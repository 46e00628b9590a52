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
