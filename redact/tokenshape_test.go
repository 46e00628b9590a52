package redact

import (
	"strings"
	"testing"
)

// FuzzTokenShapes: the cheap shape tests before the Discord and Mailgun expressions never say
// no where the expression matches.
func FuzzTokenShapes(f *testing.F) {
	for _, s := range []string{
		`client.login("MTE3NDg2MjkzMDU3MTYzODQ3NQ.GhT4xQ.` + strings.Repeat("aB3_", 8) + `");`,
		"api = 'key-" + strings.Repeat("0a", 16) + "'",
		strings.Repeat("0a", 16) + "-1234abcd-5678ef90",
		"a.b.c x.y.z " + strings.Repeat("q", 40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if discordToken.MatchString(line) && !discordShape(line) {
			t.Fatalf("discordToken matches %q, discordShape says it cannot", line)
		}
		if mailgunKey.MatchString(line) && !mailgunShape(line) {
			t.Fatalf("mailgunKey matches %q, mailgunShape says it cannot", line)
		}
	})
}

func TestTokenShapes(t *testing.T) {
	dc := "MTE3NDg2MjkzMDU3MTYzODQ3NQ.GhT4xQ." + strings.Repeat("aB3_", 8)
	if !discordToken.MatchString(" "+dc+" ") || !discordShape(" "+dc+" ") {
		t.Errorf("a Discord token's shape is not recognised")
	}
	if discordShape(`log.Printf("a.b.c: %s", strings.Join(parts, "."))`) {
		t.Errorf("an ordinary line passes the Discord shape")
	}
	mg := strings.Repeat("0a", 16) + "-1234abcd-5678ef90"
	if !mailgunKey.MatchString(" "+mg+" ") || !mailgunShape(" "+mg+" ") {
		t.Errorf("a Mailgun key's shape is not recognised")
	}
	if mailgunShape("sha := \"" + strings.Repeat("0a", 20) + "\" // a-b") {
		t.Errorf("a hash beside a dash passes the Mailgun shape")
	}
}

// TestRunClass: the byte table of longestRuns says what its comparisons said, for every byte.
func TestRunClass(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		word := isHex(b) || b >= 'g' && b <= 'z' || b >= 'G' && b <= 'Z' || b == '_' || b == '-'
		if got := runClass[b]&hexClass != 0; got != isHex(b) {
			t.Errorf("%q: hex %v", b, got)
		}
		if got := runClass[b]&wordClass != 0; got != word {
			t.Errorf("%q: word %v, want %v", b, got, word)
		}
	}
	if w, h := longestRuns("sha = 0123456789abcdef-xyz!"); w != 20 || h != 16 {
		t.Errorf("longestRuns = %d, %d; want 20, 16", w, h)
	}
}
