package agent

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCopilotPowerShell: Copilot's entry carries a "powershell" command beside "bash", in both
// scopes. No PowerShell runs here, so this holds what can be checked without one: the project
// form names no machine path, the user form names bin with its quotes doubled, quotes and
// brackets balance, and both deny answers are Copilot's JSON.
func TestCopilotPowerShell(t *testing.T) {
	a, _ := Get("copilot")
	bin := `C:\Users\o'brien\go\bin\tollgate.exe`
	for _, s := range []Scope{{Root: t.TempDir()}, {User: true, Home: t.TempDir()}} {
		if _, err := Install(a, s, bin); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(Path(a, s))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Hooks map[string][]map[string]any `json:"hooks"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		entries := doc.Hooks["preToolUse"]
		if len(entries) != 1 {
			t.Fatalf("user=%v: want one entry, got %s", s.User, data)
		}
		ps, _ := entries[0]["powershell"].(string)
		if _, ok := entries[0]["bash"].(string); !ok || ps == "" {
			t.Fatalf("user=%v: want bash and powershell, got %s", s.User, data)
		}
		if s.User != strings.Contains(ps, `'C:\Users\o''brien\go\bin\tollgate.exe'`) {
			t.Errorf("user=%v: the binary path: %s", s.User, ps)
		}
		if !s.User && ps != ProjectPowerShell() {
			t.Errorf("project scope: %s", ps)
		}
		if !strings.Contains(ps, "& $g guard --agent copilot") || !strings.Contains(ps, "$LASTEXITCODE -ne 0") || !strings.Contains(ps, "exit 0") {
			t.Errorf("user=%v: does not run the guard and fail closed: %s", s.User, ps)
		}
		checkBalanced(t, ps)
		denies := regexp.MustCompile(`'(\{"permissionDecision":"deny"(?:[^']|'')*\})'`).FindAllStringSubmatch(ps, -1)
		if len(denies) != 2 {
			t.Errorf("user=%v: want two deny answers, got %d: %s", s.User, len(denies), ps)
		}
		for _, d := range denies {
			var v map[string]string
			if err := json.Unmarshal([]byte(strings.ReplaceAll(d[1], "''", "'")), &v); err != nil || v["permissionDecision"] != "deny" || !strings.HasPrefix(v["permissionDecisionReason"], "tollgate: ") {
				t.Errorf("not Copilot's deny: %s (%v)", d[1], err)
			}
		}
		// reinstalling changes nothing; uninstalling removes the entry with both commands
		if msg, err := Install(a, s, bin); err != nil || !strings.Contains(msg, "already installed") {
			t.Errorf("reinstall: %q %v", msg, err)
		}
		if _, err := Uninstall(a, s); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(Path(a, s)); !os.IsNotExist(err) {
			t.Errorf("user=%v: uninstall left %s", s.User, Path(a, s))
		}
	}
}

// checkBalanced fails when ps has an unclosed single-quoted string, or braces or parentheses
// outside strings that do not pair up.
func checkBalanced(t *testing.T, ps string) {
	t.Helper()
	var stack []rune
	pair := map[rune]rune{'}': '{', ')': '('}
	for i := 0; i < len(ps); i++ {
		c := rune(ps[i])
		switch c {
		case '\'':
			j := i + 1
			for ; j < len(ps); j++ {
				if ps[j] == '\'' {
					if j+1 < len(ps) && ps[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(ps) {
				t.Fatalf("unclosed quote at %d: %s", i, ps)
			}
			i = j
		case '{', '(':
			stack = append(stack, c)
		case '}', ')':
			if len(stack) == 0 || stack[len(stack)-1] != pair[c] {
				t.Fatalf("unbalanced %c at %d: %s", c, i, ps)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed %q: %s", string(stack), ps)
	}
}
