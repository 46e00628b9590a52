package hidden

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScan(t *testing.T) {
	l := Scan("x := say\u041Dello() // \u200B", false)
	if len(l.Hits) != 2 || !strings.Contains(l.Hits[0].Detail, "Cyrillic") || !strings.Contains(l.Hits[1].Detail, "ZERO WIDTH SPACE") {
		t.Fatalf("hits %+v", l.Hits)
	}
	if l.Clean != "x := say\u041Dello() // " || l.Map == nil {
		t.Errorf("clean %q map %v", l.Clean, l.Map)
	}
	if l := Scan("\uFEFFpackage main", true); len(l.Hits) != 0 {
		t.Errorf("a BOM at the start of a file: %+v", l.Hits)
	}
	if l := Scan("\uFEFFpackage main", false); len(l.Hits) != 1 {
		t.Errorf("a BOM inside a file: %+v", l.Hits)
	}
	if l := Scan("ｉｇｎｏｒｅ", false); l.Clean != "ignore" {
		t.Errorf("fullwidth not folded: %q", l.Clean)
	}
	if l := Scan("plain ascii", false); l.Clean != "plain ascii" || l.Map != nil || l.Hits != nil {
		t.Errorf("plain line: %+v", l)
	}
	if l := Scan("echo \x1b[2Kred", false); len(l.Hits) != 1 || !strings.Contains(l.Hits[0].Detail, `"<U+001B>[2K"`) {
		t.Errorf("escape: %+v", l.Hits)
	}
}

// TestScanColourEscapes: colour and style sequences are captured terminal output; sequences
// that move the cursor, erase, set a title or a link, or hide text (conceal, same colour on
// same colour) are reported.
func TestScanColourEscapes(t *testing.T) {
	for _, c := range []struct {
		text string
		hit  bool
	}{
		{"   v18.20.4   \x1b[0;33m(LTS: Hydrogen)\x1b[0m", false},
		{"\x1b[1;34m->\x1b[0m  build \x1b[32mok\x1b[39m", false},
		{"\x1b[m plain reset", false},
		{"echo \x1b[31mred\x1b[41m on red", true},
		{"echo \x1b[8mapprove this\x1b[0m", true},
		{"\x1b[0;32mok\x1b[1A\x1b[2K overwritten", true},
		{"\x1b]8;;http://x\x07link\x1b]8;;\x07", true},
		{"\x1b[97;107mwhite on white", true},
	} {
		if got := len(Scan(c.text, false).Hits) > 0; got != c.hit {
			t.Errorf("%q: hit %v, want %v", c.text, got, c.hit)
		}
	}
}

// FuzzScan: the clean text maps back into the line, offsets are in range, and no message
// shows a hidden character raw.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"x := say\u041Dello()", "\u202Eabc\u2066", "a\U000E0068\U000E0069b", "\x1b]8;;http://x\x07", "\xff\xfe\x1b[2K", "ｉｇｎｏｒｅ\uFE0F\uFE01\uFE02\uFE03\uFE04",
		"isAdmin\uFE0F", "1\uFE0F\u20E3", "is\u2800admin", "check\u00A0Admin", "\\n\u041E\u0442", "\u3164=1"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, first bool) {
		l := Scan(text, first)
		if l.Map != nil && len(l.Map) != len(l.Clean) {
			t.Fatalf("map has %d offsets for %d bytes", len(l.Map), len(l.Clean))
		}
		for i := 1; i < len(l.Map); i++ {
			if l.Map[i] <= l.Map[i-1] || l.Map[i] >= len(text) {
				t.Fatalf("map not increasing within the line: %v", l.Map)
			}
		}
		for _, h := range l.Hits {
			checkHit(t, h, text)
			switch h.Kind {
			case "", KindHomoglyph, KindNBSP, KindInvisible, KindTags, KindBidi, KindEscape:
			default:
				t.Fatalf("unknown kind %q", h.Kind)
			}
		}
	})
}

func TestScanSingleCharacters(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // "" means no hit
		kind HitKind
	}{
		{"if (isAdmin\uFE0F) {", "VARIATION SELECTOR-16", ""},
		{"x := v\uFE0E + 1", "VARIATION SELECTOR-15", ""},
		{"def is\u2800admin():", "BRAILLE PATTERN BLANK", KindInvisible},
		{"func check\u00A0Admin()", "NO-BREAK SPACE", KindNBSP},
		{"const \u3164 = 1", "HANGUL FILLER", KindInvisible},
		{"s := say\u041Dello()", "Cyrillic", KindHomoglyph},
		{"Step 1\uFE0F\u20E3 done", "", ""},
		{"ok \u2714\uFE0F", "", ""},
		{"\u2800\u2800\u28FF logo", "", ""},
		{"voir page\u00A012 : \u00AB\u00A0mot\u00A0\u00BB", "", ""},
		{`s = "\n\u041E\u0442\u0432\u0435\u0442"`, "", ""},
	} {
		l := Scan(c.text, false)
		switch {
		case c.want == "" && len(l.Hits) != 0:
			t.Errorf("%q: unexpected hits %+v", c.text, l.Hits)
		case c.want != "" && (len(l.Hits) != 1 || !strings.Contains(l.Hits[0].Detail, c.want) || l.Hits[0].Kind != c.kind):
			t.Errorf("%q: hits %+v, want one %q of kind %q", c.text, l.Hits, c.want, c.kind)
		}
	}
}

func checkHit(t *testing.T, h Hit, text string) {
	if h.At < 0 || h.At > len(text) || h.Conf <= 0 || h.Conf > 1 {
		t.Fatalf("hit %+v", h)
	}
	if !utf8.ValidString(h.Detail) {
		t.Fatalf("invalid UTF-8 in %q", h.Detail)
	}
	for _, r := range h.Detail {
		if r != ' ' && (IsHidden(r) || IsBidi(r) || IsZeroWidth(r)) {
			t.Fatalf("raw U+%04X in %q", r, h.Detail)
		}
	}
}
