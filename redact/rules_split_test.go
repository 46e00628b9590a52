package redact

import (
	"regexp"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
)

// The line reader of splitDefault agrees with the regexes it replaced on every rule of
// gitleaks' default config, and defaultConfigText with the regex that found the global paths.
func TestSplitDefaultAgreesWithRegexes(t *testing.T) {
	var (
		chunkID       = regexp.MustCompile(`(?m)^id\s*=\s*"([^"]+)"`)
		chunkKeywords = regexp.MustCompile(`(?ms)^keywords\s*=\s*\[(.*?)\]`)
		chunkRegex    = regexp.MustCompile(`(?ms)^regex\s*=\s*'''(.*?)'''`)
		chunkPath     = regexp.MustCompile(`(?m)^path\s*=`)
		chunkTable    = regexp.MustCompile(`(?m)^\[[^\[]`)
		globalPaths   = regexp.MustCompile(`(?m)^(\[allowlist\]\n(?:[^\[\n].*\n)*?paths = \[\n)((?:[ \t]+.*\n)+)(\]\n)`)
	)
	text, err := defaultConfigText()
	if err != nil {
		t.Fatal(err)
	}
	loc := globalPaths.FindStringSubmatchIndex(config.DefaultConfig)
	if loc == nil {
		t.Fatal("the reference regex finds no global paths")
	}
	var b strings.Builder
	for _, p := range keptPaths {
		b.WriteString("    '''" + p + "''',\n")
	}
	if want := config.DefaultConfig[:loc[4]] + b.String() + config.DefaultConfig[loc[5]:]; text != want {
		t.Fatal("defaultConfigText differs from the regex's replacement of the global paths")
	}
	s, err := splitDefault(text)
	if err != nil {
		t.Fatal(err)
	}
	if s.size() < 200 {
		t.Fatalf("only %d rules", s.size())
	}
	for i, c := range s.chunks {
		p := strings.TrimPrefix(c, "[[rules]]\n")
		if chunkTable.MatchString(p) {
			t.Fatalf("rule %s: a table the reader missed", s.ids[i])
		}
		if m := chunkID.FindStringSubmatch(p); m == nil || m[1] != s.ids[i] {
			t.Fatalf("rule %d: id %q, regex says %v", i, s.ids[i], m)
		}
		var kws []string
		if k := chunkKeywords.FindStringSubmatch(p); k != nil {
			for _, q := range chunkQuoted.FindAllStringSubmatch(k[1], -1) {
				kws = append(kws, strings.ToLower(q[1]+q[2]))
			}
		}
		if strings.Join(kws, "\x00") != strings.Join(s.kws[i], "\x00") {
			t.Fatalf("rule %s: keywords %q, regex says %q", s.ids[i], s.kws[i], kws)
		}
		re := ""
		if r := chunkRegex.FindStringSubmatch(p); r != nil {
			re = r[1]
		}
		if re != s.regexes[i] {
			t.Fatalf("rule %s: regex %q, regex says %q", s.ids[i], s.regexes[i], re)
		}
		if chunkPath.MatchString(p) != s.paths[i] {
			t.Fatalf("rule %s: path %v", s.ids[i], s.paths[i])
		}
	}
}

func TestReadChunkTable(t *testing.T) {
	if !readChunk("id = \"x\"\n[allowlist]\npaths = []\n").table {
		t.Fatal("a single-bracket table was not seen")
	}
	if c := readChunk("id = \"x\"\n[[rules.allowlists]]\nregexes = []\n"); c.table || c.id != "x" {
		t.Fatalf("got %+v", c)
	}
	if c := readChunk("keywords = [\n  \"a\",\n  \"b\",\n]\nregex = '''x\ny'''\npath = '''p'''\n"); c.keywords != "\n  \"a\",\n  \"b\",\n" || c.regex != "x\ny" || !c.path {
		t.Fatalf("got %+v", c)
	}
}

// FuzzQuotedWords: the plain walk reads a list's quoted strings as chunkQuoted does.
func FuzzQuotedWords(f *testing.F) {
	for _, s := range []string{`"a", 'b'`, "\n  \"x y\",\n  'z\"',\n", `"open`, `'a"b' "c'd"`, `"e\"f"`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []string
		for _, q := range chunkQuoted.FindAllStringSubmatch(s, -1) {
			want = append(want, q[1]+q[2])
		}
		if got := quotedWords(s); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("%q: got %q, the regex reads %q", s, got, want)
		}
	})
}

// TestDefaultRegexesAsTranslated: the regex a default rule's gates compile from its source,
// and its keywords, are the ones gitleaks' translation of the rule holds.
func TestDefaultRegexesAsTranslated(t *testing.T) {
	s, err := loadDefaultSet()
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.size() {
		re, err := s.regex(i)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.rule(i)
		if err != nil {
			t.Fatal(err)
		}
		if (re == nil) != (r.Regex == nil) || re != nil && re.String() != r.Regex.String() {
			t.Errorf("rule %s: regex %v, translated %v", s.id(i), re, r.Regex)
		}
		if strings.Join(s.keywords(i), "\x00") != strings.Join(r.Keywords, "\x00") {
			t.Errorf("rule %s: keywords %q, translated %q", s.id(i), s.keywords(i), r.Keywords)
		}
	}
}
