package redact

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// A rule set is what the engine needs to know about the rules before it compiles any: ids,
// keywords and the regex's source; each rule is compiled only when a change needs it.
type ruleSet interface {
	size() int
	id(i int) string
	keywords(i int) []string // lower-cased
	regexSrc(i int) string   // "" for a path-only rule
	hasPath(i int) bool
	pathSrc(i int) string // the path regex's source, "" if none or not known
	rule(i int) (config.Rule, error)
	// regex is the rule's compiled regex (nil for a path-only rule), as rule(i) holds it but
	// without translating the rule.
	regex(i int) (*regexp.Regexp, error)
	globals() ([]*config.Allowlist, error)
}

// compiledSet is a rule set compiled up front (a repository's own .gitleaks.toml).
type compiledSet struct {
	cfg config.Config
	ids []string
}

func newCompiledSet(cfg config.Config) *compiledSet {
	ids := make([]string, 0, len(cfg.Rules))
	for id := range cfg.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return &compiledSet{cfg: cfg, ids: ids}
}

func (c *compiledSet) size() int          { return len(c.ids) }
func (c *compiledSet) id(i int) string    { return c.ids[i] }
func (c *compiledSet) hasPath(i int) bool { return c.cfg.Rules[c.ids[i]].Path != nil }
func (c *compiledSet) pathSrc(i int) string {
	if p := c.cfg.Rules[c.ids[i]].Path; p != nil {
		return p.String()
	}
	return ""
}
func (c *compiledSet) keywords(i int) []string {
	var out []string
	for _, k := range c.cfg.Rules[c.ids[i]].Keywords {
		out = append(out, strings.ToLower(k))
	}
	return out
}
func (c *compiledSet) regexSrc(i int) string {
	if r := c.cfg.Rules[c.ids[i]].Regex; r != nil {
		return r.String()
	}
	return ""
}
func (c *compiledSet) rule(i int) (config.Rule, error)       { return c.cfg.Rules[c.ids[i]], nil }
func (c *compiledSet) regex(i int) (*regexp.Regexp, error)   { return c.cfg.Rules[c.ids[i]].Regex, nil }
func (c *compiledSet) globals() ([]*config.Allowlist, error) { return c.cfg.Allowlists, nil }

// defaultSet is gitleaks' default configuration split into one TOML text per rule: reading it
// costs well under a millisecond, where compiling all 222 rules and their allowlist tries costs
// 30-100 ms on every hook run.
type defaultSet struct {
	head     string // title, minVersion and the global allowlist
	chunks   []string
	ids      []string
	kws      [][]string
	regexes  []string
	paths    []bool
	pathRes  []string // the path regex's source where it is a '''...''' string
	gOnce    sync.Once
	global   []*config.Allowlist
	gErr     error
	compiled []compiledRule
}

type compiledRule struct {
	once sync.Once
	rule config.Rule
	err  error
	// the regex alone, compiled from its source (TestDefaultRegexesAsTranslated: the same as
	// the translated rule's)
	reOnce sync.Once
	re     *regexp.Regexp
	reErr  error
}

// chunkQuoted reads one quoted TOML string of a short list (keywords, stopwords).
var chunkQuoted = lazyre.New(`"((?:[^"\\]|\\.)*)"|'([^']*)'`)

// quotedWords returns the contents of the quoted strings in a list's text, as chunkQuoted's
// matches read them (first group or second). A text without a backslash is read by a plain
// walk: generic-api-key's ~1,500 stopwords cost ~1 ms through the regex on every run that
// compiles it.
func quotedWords(list string) []string {
	if !strings.Contains(list, `\`) {
		if words, ok := plainQuoted(list); ok {
			return words
		}
	}
	var words []string
	for _, q := range chunkQuoted.FindAllStringSubmatch(list, -1) {
		words = append(words, q[1]+q[2])
	}
	return words
}

// plainQuoted reads the quoted strings of a text without backslashes; ok is false if a quote
// is not closed (left to the regex).
func plainQuoted(list string) (words []string, ok bool) {
	for i := 0; i < len(list); i++ {
		q := list[i]
		if q != '"' && q != '\'' {
			continue
		}
		end := strings.IndexByte(list[i+1:], q)
		if end < 0 {
			return nil, false
		}
		words = append(words, list[i+1:i+1+end])
		i += end + 1
	}
	return words, true
}

var (
	defaultSetOnce sync.Once
	defaultSetVal  *defaultSet
	defaultSetErr  error
)

func loadDefaultSet() (*defaultSet, error) {
	defaultSetOnce.Do(func() {
		text, err := defaultConfigText()
		if err != nil {
			defaultSetErr = err
			return
		}
		defaultSetVal, defaultSetErr = splitDefault(text)
	})
	return defaultSetVal, defaultSetErr
}

// keptPaths are the only paths of gitleaks' global allowlist that tollgate keeps skipping:
// lock files and Go checksum files, whose checksums are noise. gitleaks also skips
// node_modules/, vendor/, images, fonts, documents, binaries and any path holding
// "gitleaks.toml": a token there is still a token.
var keptPaths = []string{
	`(?:^|/)(?:deno\.lock|npm-shrinkwrap\.json|package-lock\.json|pnpm-lock\.yaml|yarn\.lock)$`,
	`(?:^|/)(?:Pipfile|poetry)\.lock$`,
	`(?:^|/)gradle\.lockfile$`,
	`(?:^|/)go\.(?:sum|work\.sum)$`,
}

// defaultConfigText is gitleaks' default configuration with tollgate's global path allowlist.
// It is read with plain string search: a regex over the 200 KB text cost ~15 ms a run.
func defaultConfigText() (string, error) {
	text := config.DefaultConfig
	fail := fmt.Errorf("gitleaks' default config has no global path allowlist where tollgate expects it")
	table := strings.Index(text, "\n[allowlist]\n")
	if table < 0 {
		return "", fail
	}
	// The paths list of that table: before the table's end (the next line opening a table).
	end := table + 1 + len("[allowlist]\n")
	if next := strings.Index(text[end:], "\n["); next >= 0 {
		end += next
	} else {
		end = len(text)
	}
	open := strings.Index(text[table:end], "\npaths = [\n")
	if open < 0 {
		return "", fail
	}
	start := table + open + len("\npaths = [\n")
	closing := strings.Index(text[start:end], "\n]\n")
	if closing < 0 {
		return "", fail
	}
	stop := start + closing + 1
	if !strings.Contains(text[start:stop], "node_modules") {
		return "", fail
	}
	var b strings.Builder
	for _, p := range keptPaths {
		b.WriteString("    '''" + p + "''',\n")
	}
	return text[:start] + b.String() + text[stop:], nil
}

func splitDefault(text string) (*defaultSet, error) {
	parts := strings.Split(text, "\n[[rules]]\n")
	s := &defaultSet{head: parts[0]}
	for _, p := range parts[1:] {
		c := readChunk(p)
		// A top-level table after the rules (a global allowlist) would be swallowed by the
		// last rule: refuse to guess.
		if c.table {
			return nil, fmt.Errorf("unexpected top-level table after the rules in gitleaks' default config")
		}
		if c.id == "" {
			return nil, fmt.Errorf("a rule without an id in gitleaks' default config")
		}
		var kws []string
		for _, w := range quotedWords(c.keywords) {
			kws = append(kws, strings.ToLower(w))
		}
		s.chunks = append(s.chunks, "[[rules]]\n"+p)
		s.ids = append(s.ids, c.id)
		s.kws = append(s.kws, kws)
		s.regexes = append(s.regexes, c.regex)
		s.paths = append(s.paths, c.path)
		s.pathRes = append(s.pathRes, c.pathRe)
	}
	s.compiled = make([]compiledRule, len(s.ids))
	return s, nil
}

// chunk is what splitDefault needs of one rule's TOML text.
type chunk struct {
	id, keywords, regex, pathRe string
	path, table                 bool
}

// readChunk reads a rule's TOML text line by line, taking the first line that sets each key at
// the start of a line (as gitleaks' generator writes them): id = "...", keywords = [...] (up to
// the first ']'), regex = ”'...”', path = ...; table says whether a line opens a single-bracket
// table.
func readChunk(p string) chunk {
	var c chunk
	for off := 0; off < len(p); {
		line, _, _ := strings.Cut(p[off:], "\n")
		c.readLine(line, p[off:])
		off += len(line) + 1
	}
	return c
}

// readLine reads one line of a rule's text; rest is the text from that line on.
func (c *chunk) readLine(line, rest string) {
	if strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[[") {
		c.table = true
	}
	if _, ok := keyValue(line, "path"); ok {
		c.path = true
		if c.pathRe == "" {
			c.pathRe = delimited(line, rest, "path", "'''", "'''")
		}
	}
	if c.id == "" {
		c.id = delimited(line, rest, "id", `"`, `"`)
	}
	if c.keywords == "" {
		c.keywords = delimited(line, rest, "keywords", "[", "]")
	}
	if c.regex == "" {
		c.regex = delimited(line, rest, "regex", "'''", "'''")
	}
}

// delimited returns what a line setting key holds between open and the first close after it
// (which may be on a later line of rest), or "".
func delimited(line, rest, key, open, close string) string {
	v, ok := keyValue(line, key)
	if !ok || !strings.HasPrefix(v, open) {
		return ""
	}
	inner, _, ok := strings.Cut(rest[len(line)-len(v)+len(open):], close)
	if !ok {
		return ""
	}
	return inner
}

// keyValue returns what follows "key =" on a line that starts with key (spaces allowed around
// '='), and whether it does.
func keyValue(line, key string) (string, bool) {
	rest, ok := strings.CutPrefix(line, key)
	if !ok {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t")
	v, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return "", false
	}
	return strings.TrimLeft(v, " \t"), true
}

func (s *defaultSet) size() int               { return len(s.ids) }
func (s *defaultSet) id(i int) string         { return s.ids[i] }
func (s *defaultSet) keywords(i int) []string { return s.kws[i] }
func (s *defaultSet) regexSrc(i int) string   { return s.regexes[i] }
func (s *defaultSet) hasPath(i int) bool      { return s.paths[i] }
func (s *defaultSet) pathSrc(i int) string    { return s.pathRes[i] }

func (s *defaultSet) rule(i int) (config.Rule, error) {
	c := &s.compiled[i]
	c.once.Do(func() {
		text, words := deferStopwords(s.chunks[i])
		cfg, err := translateText(text)
		if err != nil {
			c.err = fmt.Errorf("gitleaks rule %s: %w", s.ids[i], err)
			return
		}
		r, ok := cfg.Rules[s.ids[i]]
		if !ok {
			c.err = fmt.Errorf("gitleaks rule %s did not compile", s.ids[i])
			return
		}
		if !restoreStopwords(&r, words) {
			c.err = fmt.Errorf("gitleaks rule %s: its allowlists did not line up with its stopwords", s.ids[i])
			return
		}
		c.rule = r
	})
	return c.rule, c.err
}

func (s *defaultSet) regex(i int) (*regexp.Regexp, error) {
	c := &s.compiled[i]
	c.reOnce.Do(func() {
		if s.regexes[i] == "" {
			return
		}
		c.re, c.reErr = regexp.Compile(s.regexes[i])
		if c.reErr != nil {
			c.reErr = fmt.Errorf("gitleaks rule %s: %w", s.ids[i], c.reErr)
		}
	})
	return c.re, c.reErr
}

func (s *defaultSet) globals() ([]*config.Allowlist, error) {
	s.gOnce.Do(func() {
		cfg, err := translateText(s.head)
		s.global, s.gErr = cfg.Allowlists, err
	})
	return s.global, s.gErr
}

// translateText compiles one TOML text with gitleaks' own code (serialised: it consults the
// package-global viper).
func translateText(text string) (config.Config, error) {
	viperMu.Lock()
	defer viperMu.Unlock()
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(bytes.NewReader([]byte(text))); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	return translate(vc)
}
