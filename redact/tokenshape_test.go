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
