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
)

// A rule set is what the engine needs to know about the rules before it compiles any: ids,
// keywords and the regex's source; each rule is compiled only when a change needs it.
type ruleSet interface {
	size() int
	id(i int) string
	keywords(i int) []string // lower-cased
	regexSrc(i int) string   // "" for a path-only rule
	hasPath(i int) bool
	rule(i int) (config.Rule, error)
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
	gOnce    sync.Once
	global   []*config.Allowlist
	gErr     error
	compiled []compiledRule
}

type compiledRule struct {
	once sync.Once
	rule config.Rule
	err  error
}

var (
	chunkID       = regexp.MustCompile(`(?m)^id\s*=\s*"([^"]+)"`)
	chunkKeywords = regexp.MustCompile(`(?ms)^keywords\s*=\s*\[(.*?)\]`)
	chunkQuoted   = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|'([^']*)'`)
	chunkRegex    = regexp.MustCompile(`(?ms)^regex\s*=\s*'''(.*?)'''`)
	chunkPath     = regexp.MustCompile(`(?m)^path\s*=`)
	chunkTable    = regexp.MustCompile(`(?m)^\[[^\[]`)
)

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

var globalPaths = regexp.MustCompile(`(?m)^(\[allowlist\]\n(?:[^\[\n].*\n)*?paths = \[\n)((?:[ \t]+.*\n)+)(\]\n)`)

// defaultConfigText is gitleaks' default configuration with tollgate's global path allowlist.
func defaultConfigText() (string, error) {
	text := config.DefaultConfig
	loc := globalPaths.FindStringSubmatchIndex(text)
	if loc == nil || !strings.Contains(text[loc[4]:loc[5]], "node_modules") {
		return "", fmt.Errorf("gitleaks' default config has no global path allowlist where tollgate expects it")
	}
	var b strings.Builder
	for _, p := range keptPaths {
		b.WriteString("    '''" + p + "''',\n")
	}
	return text[:loc[4]] + b.String() + text[loc[5]:], nil
}

func splitDefault(text string) (*defaultSet, error) {
	parts := strings.Split(text, "\n[[rules]]\n")
	s := &defaultSet{head: parts[0]}
	for _, p := range parts[1:] {
		// A top-level table after the rules (a global allowlist) would be swallowed by the
		// last rule: refuse to guess.
		if loc := chunkTable.FindStringIndex(p); loc != nil {
			return nil, fmt.Errorf("unexpected top-level table after the rules in gitleaks' default config")
		}
		m := chunkID.FindStringSubmatch(p)
		if m == nil {
			return nil, fmt.Errorf("a rule without an id in gitleaks' default config")
		}
		var kws []string
		if k := chunkKeywords.FindStringSubmatch(p); k != nil {
			for _, q := range chunkQuoted.FindAllStringSubmatch(k[1], -1) {
				kws = append(kws, strings.ToLower(q[1]+q[2]))
			}
		}
		re := ""
		if r := chunkRegex.FindStringSubmatch(p); r != nil {
			re = r[1]
		}
		s.chunks = append(s.chunks, "[[rules]]\n"+p)
		s.ids = append(s.ids, m[1])
		s.kws = append(s.kws, kws)
		s.regexes = append(s.regexes, re)
		s.paths = append(s.paths, chunkPath.MatchString(p))
	}
	s.compiled = make([]compiledRule, len(s.ids))
	return s, nil
}

func (s *defaultSet) size() int               { return len(s.ids) }
func (s *defaultSet) id(i int) string         { return s.ids[i] }
func (s *defaultSet) keywords(i int) []string { return s.kws[i] }
func (s *defaultSet) regexSrc(i int) string   { return s.regexes[i] }
func (s *defaultSet) hasPath(i int) bool      { return s.paths[i] }

func (s *defaultSet) rule(i int) (config.Rule, error) {
	c := &s.compiled[i]
	c.once.Do(func() {
		cfg, err := translateText(s.chunks[i])
		if err != nil {
			c.err = fmt.Errorf("gitleaks rule %s: %w", s.ids[i], err)
			return
		}
		r, ok := cfg.Rules[s.ids[i]]
		if !ok {
			c.err = fmt.Errorf("gitleaks rule %s did not compile", s.ids[i])
			return
		}
		c.rule = r
	})
	return c.rule, c.err
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
