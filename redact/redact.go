// Package redact is tollgate's secret detector and masker, built on the gitleaks/v8 library.
//
// Rules and guarantees:
//   - This is the only package that imports gitleaks. Everything else sees Secret values and
//     masked strings.
//   - The rules are gitleaks' defaults, or the repository's own .gitleaks.toml with gitleaks'
//     [extend] semantics (useDefault, disabledRules). An [extend] path or URL is refused: it would
//     read outside the repository or reach the network.
//   - The outgoing Filter (what a model may be sent) always runs gitleaks' default rules and
//     tollgate's credential rules; a repository's config can add rules to it, never remove any.
//   - Mask never returns a string that still contains a detected secret: after replacing every
//     occurrence it re-checks, and masks the whole line if any part of the secret survived.
//   - Scan finds what gitleaks' own detector finds on the same text (the parity tests and a
//     fuzzer compare them): each rule runs on the lines its matches can reach from a keyword,
//     as read from its regex, or on the whole text. ScanContext stops once its context ends.
//   - gitleaks' global path allowlist is narrowed to lock files and go.sum: node_modules/,
//     vendor/, images, binaries and gitleaks.toml are scanned. A repository's own allowlists
//     apply as written.
//   - Evidence masks every secret the detector finds on a whole line (a decoded one in its
//     encoded form) before it cuts the line to a window, and shows invisible and control
//     characters as <U+XXXX>: no part of a secret survives at the window's edge. A secret that
//     is a URL keeps its scheme, host and path words, only its secret parts masked
//     (lite.ShapeOf); the final checks and Scrub test each hidden part.
//   - gitleaks' setup goes through its package-global viper; every use of it here is serialised.
//   - LooksLikeSample and GenericNotSecret (sample.go) say what a found value is (a sample, an
//     RFC's example, a name made of words) for the review's severity only: Scan, Mask and the
//     outgoing Filter never use them, so nothing they judge is left unmasked. EncryptedKey
//     (an encrypted private key) likewise only lowers a severity.
//   - FindTokens (tokens.go, providers.go) finds self-identifying secrets with no keyword: bot
//     tokens, webhooks, password hashes and provider tokens of a provider-specific shape; the
//     outgoing Filter replaces every one of them. Each provider shape's literal is implied by
//     its expression (a test holds it), so the cheap prefilter never hides a match.
package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/tollgate-dev/tollgate/redact/lite"
)

// viperMu serialises every use of gitleaks' package-global viper.
var viperMu sync.Mutex

// Options selects the rules.
type Options struct {
	// RepoConfig is the content of the repository's .gitleaks.toml (nil: none).
	RepoConfig []byte
	// RepoConfigName names it in messages.
	RepoConfigName string
	// Ignore is the content of the repository's .gitleaksignore (nil: none).
	Ignore []byte
	// IgnoreName names the ignore file: its entries never apply to it ("" is .gitleaksignore).
	IgnoreName string
}

// Detector finds secrets in text. It is safe for concurrent use after New returns.
type Detector struct {
	cfg      *config.Config // the compiled rule set, nil for the (lazily compiled) defaults
	e        *engine        // the rules one by one, where their keywords are
	ignore   map[string]bool
	warnings []string
	// pathAllow are the repository config's own global allowlists that a path alone satisfies
	// ([allowlist] paths): tollgate's own rules honour them too (ExcludedPath).
	pathAllow []*config.Allowlist
	// own names the files the repository's configuration came from: their allowlists never
	// apply to them (self.go).
	own ownFiles
	// unallowed is the repository's rules without its own allowlists (nil: it has none), to
	// count what they drop (Allowlisted).
	unallowed *Detector
	fullOnce  sync.Once // gitleaks' own detector over the whole rule set (tests only)
	fullDet   *detect.Detector
	fullErr   error
}

// Secret is one detected secret (the type lives in redact/lite so code that links no
// gitleaks can hold it).
type Secret = lite.Secret

var (
	defaultOnce sync.Once
	defaultCfg  config.Config
	defaultErr  error
)

func loadDefault() (config.Config, error) {
	defaultOnce.Do(func() {
		viperMu.Lock()
		defer viperMu.Unlock()
		text, err := defaultConfigText()
		if err != nil {
			defaultErr = err
			return
		}
		vc, err := decode([]byte(text))
		if err != nil {
			defaultErr = err
			return
		}
		defaultCfg, defaultErr = translate(vc)
	})
	return defaultCfg, defaultErr
}

// decode parses a gitleaks TOML config with a private viper (never the global one's file
// lookup).
func decode(data []byte) (config.ViperConfig, error) {
	v := viper.New()
	v.SetConfigType("toml")
	var vc config.ViperConfig
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return vc, err
	}
	if err := v.Unmarshal(&vc); err != nil {
		return vc, err
	}
	return vc, nil
}

// translate compiles a decoded config with [extend] cleared, so gitleaks never reads another
// file. The caller holds viperMu (Translate consults the global viper).
func translate(vc config.ViperConfig) (cfg config.Config, err error) {
	defer func() {
		// gitleaks compiles user regexes with MustCompile: a bad one panics.
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	vc.Extend = config.Extend{}
	return vc.Translate()
}

// New builds a detector with the default rules or the repository's config.
func New(opts Options) (*Detector, error) {
	det := &Detector{ignore: map[string]bool{}}
	det.own.ignore = opts.IgnoreName
	if det.own.ignore == "" {
		det.own.ignore = ".gitleaksignore"
	}
	det.parseIgnore(opts.Ignore)
	if opts.RepoConfig == nil {
		set, err := loadDefaultSet()
		if err != nil {
			return nil, fmt.Errorf("failed to load gitleaks default rules: %w", err)
		}
		det.e = newEngine(set)
		return det, nil
	}
	def, err := loadDefault()
	if err != nil {
		return nil, fmt.Errorf("failed to load gitleaks default rules: %w", err)
	}
	name := opts.RepoConfigName
	if name == "" {
		name = ".gitleaks.toml"
	}
	cfg, warnings, own, err := repoConfig(opts.RepoConfig, name, def, false)
	if err != nil {
		return nil, err
	}
	if det.unallowed, err = unallowedDetector(opts.RepoConfig, name, def); err != nil {
		return nil, err
	}
	det.cfg, det.warnings, det.e = &cfg, warnings, newEngine(newCompiledSet(cfg))
	det.own.config = name
	for _, a := range own {
		// A list that a path alone satisfies: OR, or AND with nothing but paths.
		if len(a.Paths) > 0 && (a.MatchCondition == config.AllowlistMatchOr || len(a.Commits)+len(a.Regexes)+len(a.StopWords) == 0) {
			det.pathAllow = append(det.pathAllow, a)
		}
	}
	return det, nil
}

// ExcludedPath reports whether the repository's .gitleaks.toml allowlists path as a whole
// (a global [allowlist] whose paths alone decide), so tollgate's own rules skip it too. The
// rule file itself is never excluded.
func (d *Detector) ExcludedPath(path string) bool {
	if d.definesRules(path) {
		return false
	}
	for _, a := range d.pathAllow {
		if a.PathAllowed(path) {
			return true
		}
	}
	return false
}

// Warnings are notes about the rule set (e.g. a repository config that drops the defaults).
func (d *Detector) Warnings() []string { return d.warnings }

// repoConfig compiles a repository's .gitleaks.toml (strip: without its own allowlists).
func repoConfig(data []byte, name string, def config.Config, strip bool) (_ config.Config, _ []string, ownLists []*config.Allowlist, _ error) {
	viperMu.Lock()
	defer viperMu.Unlock()
	fail := func(err error) (config.Config, []string, []*config.Allowlist, error) {
		return config.Config{}, nil, nil, fmt.Errorf("failed to load %s: %w", name, err)
	}
	vc, err := decode(data)
	if err != nil {
		return fail(err)
	}
	if strip {
		withoutAllowlists(&vc)
	}
	ext := vc.Extend
	if ext.Path != "" || ext.URL != "" {
		return fail(errors.New("[extend] path and url are not supported (they would read outside the repository or reach the network); use useDefault = true"))
	}
	if ext.UseDefault {
		withDefaultPatterns(&vc, def)
	}
	later, err := splitAllowlists(&vc)
	if err != nil {
		return fail(err)
	}
	cfg, err := translate(vc)
	if err != nil {
		return fail(err)
	}
	// The file's own global allowlists, before the defaults' are merged in (the defaults'
	// lock-file paths are gitleaks' checksum noise, not the team's choice).
	ownLists = cfg.Allowlists
	var warnings []string
	if ext.UseDefault {
		cfg = merge(cfg, def, ext.DisabledRules)
	} else {
		warnings = append(warnings, name+" does not extend gitleaks' default rules ([extend] useDefault = true): only its own rules run")
	}
	if err := attachTargeted(&cfg, later); err != nil {
		return fail(err)
	}
	if len(cfg.Rules) == 0 {
		return fail(errors.New("it defines no rules, so no secret could ever be found"))
	}
	return cfg, warnings, ownLists, nil
}

// withDefaultPatterns gives a rule that extends a default one with only an id and an
// allowlist the default's patterns, so it compiles; the merge keeps them anyway.
func withDefaultPatterns(vc *config.ViperConfig, def config.Config) {
	for i := range vc.Rules {
		r := &vc.Rules[i]
		if b, ok := def.Rules[r.ID]; ok && r.Regex == "" && r.Path == "" {
			if b.Regex != nil {
				r.Regex = b.Regex.String()
			}
			if b.Path != nil {
				r.Path = b.Path.String()
			}
		}
	}
}

// targeted is an allowlist for rules the file does not define (default rules), compiled on
// its own and attached after the merge.
type targeted struct {
	rules []string
	list  *config.Allowlist
}

// splitAllowlists takes the allowlists targeting rules vc does not define out of vc and
// compiles them on their own.
func splitAllowlists(vc *config.ViperConfig) ([]targeted, error) {
	own := map[string]bool{}
	for _, r := range vc.Rules {
		own[r.ID] = true
	}
	var later []targeted
	kept := vc.Allowlists[:0:0]
	for _, a := range vc.Allowlists {
		foreign := false
		for _, id := range a.TargetRules {
			foreign = foreign || !own[id]
		}
		if !foreign {
			kept = append(kept, a)
			continue
		}
		one := config.ViperConfig{}
		cp := *a
		cp.TargetRules = nil
		one.Allowlists = append(one.Allowlists, &cp)
		c, err := translate(one)
		if err != nil {
			return nil, fmt.Errorf("[[allowlists]] %w", err)
		}
		later = append(later, targeted{rules: a.TargetRules, list: c.Allowlists[0]})
	}
	vc.Allowlists = kept
	return later, nil
}

// attachTargeted adds each targeted allowlist to its rules in cfg.
func attachTargeted(cfg *config.Config, later []targeted) error {
	for _, t := range later {
		for _, id := range t.rules {
			r, ok := cfg.Rules[id]
			if !ok {
				return fmt.Errorf("[[allowlists]] target rule ID %q does not exist", id)
			}
			r.Allowlists = append(append([]*config.Allowlist{}, r.Allowlists...), t.list)
			cfg.Rules[id] = r
		}
	}
	return nil
}

// merge applies gitleaks' [extend] semantics: every default rule not disabled is added; a rule
// the repository also defines is merged, the repository's fields winning.
func merge(cfg, base config.Config, disabled []string) config.Config {
	off := map[string]bool{}
	for _, id := range disabled {
		off[id] = true
	}
	out := config.Config{
		Title:       cfg.Title,
		Description: cfg.Description,
		Path:        cfg.Path,
		Rules:       map[string]config.Rule{},
		Keywords:    map[string]struct{}{},
		Allowlists:  append(append([]*config.Allowlist{}, cfg.Allowlists...), base.Allowlists...),
	}
	for id, r := range cfg.Rules {
		out.Rules[id] = r
	}
	for k := range cfg.Keywords {
		out.Keywords[k] = struct{}{}
	}
	out.OrderedRules = append(out.OrderedRules, cfg.OrderedRules...)
	for id, b := range base.Rules {
		if off[id] {
			continue
		}
		cur, ok := out.Rules[id]
		if !ok {
			out.Rules[id] = b
			out.OrderedRules = append(out.OrderedRules, id)
			for _, k := range b.Keywords {
				out.Keywords[k] = struct{}{}
			}
			continue
		}
		if cur.Description != "" {
			b.Description = cur.Description
		}
		if cur.Entropy != 0 {
			b.Entropy = cur.Entropy
		}
		if cur.SecretGroup != 0 {
			b.SecretGroup = cur.SecretGroup
		}
		if cur.Regex != nil {
			b.Regex = cur.Regex
		}
		if cur.Path != nil {
			b.Path = cur.Path
		}
		b.Tags = append(append([]string{}, b.Tags...), cur.Tags...)
		b.Keywords = append(append([]string{}, b.Keywords...), cur.Keywords...)
		b.Allowlists = append(append([]*config.Allowlist{}, b.Allowlists...), cur.Allowlists...)
		for _, k := range b.Keywords {
			out.Keywords[k] = struct{}{}
		}
		out.Rules[id] = b
	}
	return out
}

func (d *Detector) parseIgnore(data []byte) {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d.ignore[strings.ReplaceAll(line, `\`, "/")] = true
	}
}

// Ignored reports whether a .gitleaksignore entry names this finding: either
// "path:rule:line" or "commit:path:rule:line". No entry applies to the ignore file itself.
func (d *Detector) Ignored(commit, path, rule string, line int) bool {
	if len(d.ignore) == 0 || path == d.own.ignore {
		return false
	}
	global := fmt.Sprintf("%s:%s:%d", path, rule, line)
	if d.ignore[global] {
		return true
	}
	return commit != "" && d.ignore[commit+":"+global]
}

// Scan finds secrets in text, whose first line is numbered startLine. path is the file's
// repository path (rules and allowlists match on it). Path-only rules are not run here: see
// ScanPath.
func (d *Detector) Scan(path, text string, startLine int) ([]Secret, error) {
	return d.ScanContext(context.Background(), path, text, startLine)
}

// syncScanBytes is the most text ScanContext scans in the calling goroutine. A review scans
// most added lines in blocks of a few lines (flask's history: ~28,000 blocks), where a goroutine,
// a channel and the wake-up of the caller cost more than the scan; a single regexp call over a
// text this size (linear in it) ends within milliseconds.
const syncScanBytes = 64 << 10

// ScanContext is Scan bounded by ctx: once ctx ends it returns ctx's error within a moment
// (the scan left behind stops at its next rule or window), never a partial result. The
// repository's rule file is scanned with gitleaks' defaults (see self.go).
func (d *Detector) ScanContext(ctx context.Context, path, text string, startLine int) ([]Secret, error) {
	if text == "" {
		return nil, ctx.Err()
	}
	if d.definesRules(path) {
		plain, err := d.forPath(path)
		if err != nil {
			return nil, err
		}
		return plain.ScanContext(ctx, path, text, startLine)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n" // every line ends in a newline, as the detector sees it
	}
	if ctx.Done() == nil {
		return d.e.scan(ctx, path, text, startLine)
	}
	if len(text) <= syncScanBytes {
		// No step of the scan of so little text lasts more than a moment, and it checks ctx
		// between its steps: it runs here, without a goroutine and a channel of its own.
		s, err := d.e.scan(ctx, path, text, startLine)
		if err == nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return s, err
	}
	type result struct {
		secrets []Secret
		err     error
	}
	done := make(chan result, 1)
	go func() {
		s, err := d.e.scan(ctx, path, text, startLine)
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return r.secrets, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// scanWhole is gitleaks' own way: every rule whose keyword appears anywhere runs over the whole
// text. Tests compare Scan with it.
func (d *Detector) scanWhole(path, text string, startLine int) []Secret {
	if text == "" {
		return nil
	}
	// gitleaks mislocates a match on a last line without a newline (Line then starts at the
	// top of the fragment): every line handed to it ends in one.
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	full, err := d.full()
	if err != nil {
		panic(err) // scanWhole is for tests only
	}
	return dedupSecrets(detectText(full, path, text, startLine))
}

// ScanPath runs the path-only rules (e.g. key stores by extension) on a file name.
func (d *Detector) ScanPath(path string) ([]Secret, error) {
	det, err := d.forPath(path)
	if err != nil {
		return nil, err
	}
	return det.e.scanPath(path)
}

// full is gitleaks' own detector over the whole rule set (tests compare the engine with it).
func (d *Detector) full() (*detect.Detector, error) {
	d.fullOnce.Do(func() {
		cfg := d.cfg
		if cfg == nil {
			def, err := loadDefault()
			if err != nil {
				d.fullErr = err
				return
			}
			cfg = &def
		}
		d.fullDet = detect.NewDetector(*cfg)
		d.fullDet.MaxDecodeDepth = 5
		d.fullDet.IgnoreGitleaksAllow = true
	})
	return d.fullDet, d.fullErr
}

func fromFinding(f report.Finding) Secret {
	return Secret{
		RuleID: f.RuleID, Description: f.Description,
		Line: f.StartLine, EndLine: f.EndLine, StartColumn: f.StartColumn, EndColumn: f.EndColumn,
		// gitleaks' Line starts at the newline before the match line.
		Value: f.Secret, Match: f.Match, LineText: strings.TrimLeft(f.Line, "\r\n"),
	}
}
