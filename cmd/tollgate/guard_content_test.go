package main

import (
	"strings"
	"testing"
)

// TestReviewContentCheckTokens: content an agent writes with a keyword-less token or a
// credential store's entry is a hit, its evidence masked; a reference is none.
func TestReviewContentCheckTokens(t *testing.T) {
	tok := "5843021967:" + "AAod" + "JFCrnl2edlBDdz1C5Jau2RJtBRnlWmT"
	pass := "qIz0Wiw8" + "SE7diV3TMXVj"
	cases := []struct{ path, content, rule string }{
		{"bot.py", "updater = Updater(\"" + tok + "\")\n", "tollgate/telegram-bot-token"},
		{"ci/auth.txt", "machine git.corp.internal login ci password " + pass + "\n", "tollgate/credential-entry"},
		{"bot.py", "updater = Updater(os.environ[\"BOT_TOKEN\"])\n", ""},
	}
	for _, c := range cases {
		hits := reviewContentCheck(c.path, c.content)
		if c.rule == "" {
			if len(hits) > 0 {
				t.Errorf("%s: want no hit, got %+v", c.path, hits)
			}
			continue
		}
		if len(hits) != 1 || hits[0].Rule != c.rule {
			t.Fatalf("%s: want one %s hit, got %+v", c.path, c.rule, hits)
		}
		if strings.Contains(hits[0].Evidence, tok) || strings.Contains(hits[0].Evidence, pass) || !strings.Contains(hits[0].Evidence, "****") {
			t.Errorf("%s: evidence not masked: %q", c.path, hits[0].Evidence)
		}
	}
}
