package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// ExternalScanners is the fixed list of external scanners a config may enable by name: the
// tools of review/external, held equal to them by its TestPolicyNamesEveryTool.
var ExternalScanners = []string{"gosec", "shellcheck", "bandit", "semgrep"}

// Providers is the fixed list of model providers.
var Providers = []string{"openai", "anthropic", "claude-cli", "codex-cli", "gemini-cli"}

// RepoConfigName is the repository layer's file name, at the repository root.
const RepoConfigName = ".tollgate.toml"

// raw mirrors the TOML file. Pointers tell "absent" from "zero" so layers merge key by key.
type raw struct {
	Repository struct {
		FollowSymlinks *bool `toml:"follow_symlinks"`
	} `toml:"repository"`
	Context struct {
		MaxFiles           *int `toml:"max_files"`
		MaxTotalBytes      *int `toml:"max_total_bytes"`
		MaxExpansionRounds *int `toml:"max_expansion_rounds"`
	} `toml:"context"`
	Scanners struct {
		External *[]string `toml:"external"`
		Timeout  *string   `toml:"timeout"`
	} `toml:"scanners"`
	Redaction struct {
		BlockOnSecret *bool `toml:"block_on_secret"`
	} `toml:"redaction"`
	Review struct {
		FailOn        *string   `toml:"fail_on"`
		MinConfidence *float64  `toml:"min_confidence"`
		MaxFindings   *int      `toml:"max_findings"`
		Timeout       *string   `toml:"timeout"`
		Exclude       *[]string `toml:"exclude"`
	} `toml:"review"`
	Egress struct {
		Enabled *bool `toml:"enabled"`
	} `toml:"egress"`
	Net struct {
		Connect *[]string `toml:"connect"`
	} `toml:"net"`
	Model struct {
		Provider  *string   `toml:"provider"`
		Name      *string   `toml:"name"`
		BaseURL   *string   `toml:"base_url"`
		APIKeyEnv *string   `toml:"api_key_env"`
		Timeout   *string   `toml:"timeout"`
		Verify    *bool     `toml:"verify"`
		Args      *[]string `toml:"args"`
		AllowArgs *bool     `toml:"allow_unsafe_args"`
		Audit     *bool     `toml:"audit"`
	} `toml:"model"`
	Policy struct {
		Text *string `toml:"text"`
	} `toml:"policy"`
	Guard rawGuard `toml:"guard"`
}

// Config is the compiled, validated policy for one review.
type Config struct {
	FollowSymlinks bool
	Context        ContextLimits
	External       []string
	ScannerTimeout time.Duration
	BlockOnSecret  bool
	FailOn         Severity
	MinConfidence  float64
	MaxFindings    int
	// ReviewTimeout bounds the deterministic part of a review (review.timeout).
	ReviewTimeout time.Duration
	// Exclude are the paths tollgate does not review (review.exclude, every layer's patterns
	// in order, gitignore-style); nil when none.
	Exclude    *Globs
	Egress     bool
	Connect    []string
	Model      Model
	PolicyText string
	Guard      Guard // [guard]: the agent guard
	// Files lists the config files that applied, lowest layer first.
	Files []string
}

// ContextLimits bounds the context bundle sent to a model.
type ContextLimits struct {
	MaxFiles           int
	MaxTotalBytes      int
	MaxExpansionRounds int
}

// Model names the user's model, if any.
type Model struct {
	Provider  string
	Name      string
	BaseURL   string
	APIKeyEnv string
	Timeout   time.Duration
	Verify    bool
	// Args are extra arguments for an agent CLI provider; flags that widen its powers are
	// refused unless AllowUnsafeArgs.
	Args            []string
	AllowUnsafeArgs bool
	// Audit writes one JSONL line per model exchange under the user state dir.
	Audit bool
}

// Configured reports whether a model provider was named.
func (m Model) Configured() bool { return m.Provider != "" }

// Default returns the compiled defaults; every key of docs/configuration.md has its value here.
func Default() Config {
	return Config{
		Context:        ContextLimits{MaxFiles: 20, MaxTotalBytes: 200000, MaxExpansionRounds: 2},
		External:       []string{},
		ScannerTimeout: 2 * time.Minute,
		BlockOnSecret:  true,
		FailOn:         Medium,
		MaxFindings:    100,
		ReviewTimeout:  30 * time.Second,
		Connect:        []string{},
		Model:          Model{Timeout: 60 * time.Second, Verify: true, Audit: true, Args: []string{}},
		Guard:          defaultGuard(),
	}
}

// ConfigError is a configuration problem: the review cannot run (exit 2).
type ConfigError struct {
	File string // the file, or "" for flags
	Key  string // the TOML key, when one is to blame
	Msg  string
	// Suggest is the known key an unknown one is probably a typo of ("" when none is close).
	Suggest string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("invalid configuration")
	if e.File != "" {
		b.WriteString(" in " + e.File)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %q", safeKey(e.Key))
	}
	b.WriteString(": " + hideValues(e.Msg, false)) // never the value (errtext.go)
	return b.String()
}

// Layer is one config source.
type Layer struct {
	Name    string // path or label used in messages
	Data    []byte
	Trusted bool // the user layer: may set egress, net and model keys
}

// UserConfigPath returns $XDG_CONFIG_HOME/tollgate/config.toml or ~/.config/tollgate/config.toml.
func UserConfigPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tollgate", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "tollgate", "config.toml")
}

// ReadUserLayer reads the user layer: path from --config (must exist) or the default user path
// (may be absent). It returns nil when there is no user file.
func ReadUserLayer(flagPath string) (*Layer, error) {
	path := flagPath
	if path == "" {
		path = UserConfigPath()
		if path == "" {
			return nil, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if flagPath == "" && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, &ConfigError{File: path, Msg: fmt.Sprintf("failed to read: %v", err)}
	}
	return &Layer{Name: path, Data: data, Trusted: true}, nil
}

// Load compiles the defaults overlaid by each layer in order (repository first, then user).
func Load(layers ...*Layer) (Config, error) {
	cfg := Default()
	var merged raw
	for _, l := range layers {
		if l == nil {
			continue
		}
		var r raw
		md, err := toml.NewDecoder(bytes.NewReader(l.Data)).Decode(&r)
		if err != nil {
			return Config{}, decodeError(l.Name, err)
		}
		if key := inexactKey(md); key != "" {
			return Config{}, &ConfigError{File: l.Name, Key: key, Suggest: suggestKey(key), Msg: "unknown key (keys are matched exactly, in lower case; see `tollgate init` for every key)"}
		}
		if und := md.Undecoded(); len(und) > 0 {
			keys := make([]string, 0, len(und))
			for _, k := range und {
				keys = append(keys, k.String())
			}
			sort.Strings(keys)
			return Config{}, &ConfigError{File: l.Name, Key: keys[0], Suggest: suggestKey(keys[0]), Msg: "unknown key (see `tollgate init` for every key)"}
		}
		if !l.Trusted {
			if key := firstUntrustedKey(md); key != "" {
				return Config{}, &ConfigError{File: l.Name, Key: key, Msg: "not allowed in a repository's config: " +
					"only your user config (" + displayUserPath() + ") or flags may turn on egress, " +
					"name network destinations, configure a model, weaken what is filtered before a send or set the review policy text, " +
					"so a cloned repository can never make tollgate send anything or steer the reviewer"}
			}
			if err := untrustedGuard(l.Name, md); err != nil {
				return Config{}, err
			}
		}
		// Validate each layer on its own first, so an error names the file that holds the key.
		if err := compile(&Config{}, &r, []*Layer{l}); err != nil {
			return Config{}, err
		}
		overlay(&merged, &r, md)
		cfg.Files = append(cfg.Files, l.Name)
	}
	if err := compile(&cfg, &merged, layers); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func displayUserPath() string {
	if p := UserConfigPath(); p != "" {
		return p
	}
	return "~/.config/tollgate/config.toml"
}

func firstUntrustedKey(md toml.MetaData) string {
	table := ""
	for _, k := range md.Keys() {
		if len(k) == 0 {
			continue
		}
		switch k[0] {
		case "egress", "net", "model", "redaction", "policy":
			if len(k) > 1 {
				return k.String() // the key itself, rather than its [table] header
			}
			if table == "" {
				table = k.String()
			}
		}
	}
	return table
}

// knownKeys are every table and key of the raw struct, spelt exactly as its toml tags.
var knownKeys = func() map[string]bool {
	out := map[string]bool{}
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			key := prefix + name
			out[key] = true
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, key+".")
			}
		}
	}
	walk(reflect.TypeOf(raw{}), "")
	return out
}()

// Keys lists every key a config file may set (tables left out), sorted, spelt as in the file:
// the raw struct's toml tags.
func Keys() []string {
	var out []string
	for k := range knownKeys {
		if !knownTables[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// knownTables are the tables of knownKeys.
var knownTables = func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeOf(raw{})
	for i := 0; i < t.NumField(); i++ {
		out[strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]] = true
	}
	return out
}()

// suggestKey returns the known key an unknown one (dotted, as TOML names it) is probably meant
// to be: a typo of one (review.failon, [reveiw] fail_on), the same key in other letter case, or
// a known key's name written outside its table (fail_on at the top). "" when none is close.
func suggestKey(key string) string {
	key = strings.Trim(key, "[]")
	all := Keys()
	for _, k := range all {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	if s := Suggest(key, all); s != "" {
		return s
	}
	leaf := key[strings.LastIndexByte(key, '.')+1:]
	var same []string
	for _, k := range all {
		if kl := k[strings.LastIndexByte(k, '.')+1:]; strings.EqualFold(kl, leaf) || Suggest(leaf, []string{kl}) != "" {
			same = append(same, k)
		}
	}
	if len(same) == 1 {
		return same[0]
	}
	tables := make([]string, 0, len(knownTables))
	for t := range knownTables {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	if !strings.Contains(key, ".") {
		return Suggest(key, tables)
	}
	return ""
}

// inexactKey returns the first key of a file that is not spelt exactly as a known key. The TOML
// decoder matches keys to fields case-insensitively (so [EGRESS] would set egress.enabled, and
// Undecoded would not list it): keys are compared exactly here first.
func inexactKey(md toml.MetaData) string {
	for _, k := range md.Keys() {
		if !knownKeys[strings.Join(k, ".")] {
			return k.String()
		}
	}
	return ""
}

func decodeError(file string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := hideValues(pe.Message, true)
		if pe.Position.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", pe.Position.Line, msg)
		}
		return &ConfigError{File: file, Key: pe.LastKey, Msg: msg}
	}
	if ce := typeError(file, err); ce != nil {
		return ce
	}
	return &ConfigError{File: file, Msg: hideValues(err.Error(), true)}
}

// tomlTypeError is the TOML decoder's message for a value of the wrong type (got, want),
// tomlTableError its message for a value where a table belongs (want, got). Both compile on
// first use: only a config with an error needs them, and every hook run pays for init.
var (
	tomlTypeError = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]+)"\): incompatible types: TOML value has type (\S+); destination has type (.+)$`)
	})
	tomlTableError = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]+)"\): type mismatch for .*: expected (\w+) but found (\S+)$`)
	})
)

// typeError turns the decoder's "incompatible types" into words that name the key:
// key "review.fail_on": must be a string, not a whole number (line 2). nil for any other error.
func typeError(file string, err error) *ConfigError {
	m := tomlTypeError().FindStringSubmatch(err.Error())
	if m == nil {
		if m = tomlTableError().FindStringSubmatch(err.Error()); m == nil {
			return nil
		}
		m[3], m[4] = m[4], m[3]
	}
	msg := fmt.Sprintf("must be %s, not %s", typeWords(m[4]), typeWords(m[3]))
	if m[1] != "" {
		msg += " (line " + m[1] + ")"
	}
	return &ConfigError{File: file, Key: m[2], Msg: msg}
}

// typeWords names a TOML or Go type as a person would.
func typeWords(t string) string {
	switch {
	case t == "string":
		return "a string"
	case t == "int64" || t == "integer":
		return "a whole number"
	case t == "float64" || t == "float":
		return "a number"
	case t == "bool" || t == "boolean":
		return "a boolean (true or false)"
	case t == "[]string":
		return "a list of strings"
	case strings.HasPrefix(t, "[]"), t == "slice", t == "array":
		return "a list"
	case strings.HasPrefix(t, "map"), t == "struct", t == "table":
		return "a table"
	case strings.Contains(t, "time") || strings.Contains(t, "Time"):
		return "a date or time"
	}
	return t
}

// addsUp are the keys whose lists add up across layers (a repository's restrictions survive a
// user file); every other key a layer sets replaces the value below it.
var addsUp = map[string]bool{"guard.protect": true, "guard.deny": true, "review.exclude": true}

// overlay copies every key set in src onto dst (the keys of addsUp are appended).
func overlay(dst, src *raw, md toml.MetaData) {
	overlayTable(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem(), md, nil)
}

// overlayTable overlays one table of raw: its keys are the toml tags of its fields (as
// knownKeys spells them), a struct field is a table of its own.
func overlayTable(dst, src reflect.Value, md toml.MetaData, table []string) {
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		key := append(slices.Clip(table), name)
		switch {
		case t.Field(i).Type.Kind() == reflect.Struct:
			overlayTable(dst.Field(i), src.Field(i), md, key)
		case !md.IsDefined(key...):
		case addsUp[strings.Join(key, ".")]:
			dst.Field(i).Set(reflect.ValueOf(appendList(dst.Field(i).Interface().(*[]string), src.Field(i).Interface().(*[]string))))
		default:
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// badKey reports a bad value of a key.
type badKey func(key, msg string) error

// compile validates the merged raw config and writes it onto cfg. The parts are checked in
// the order of the file, so the first bad key is the one reported.
func compile(cfg *Config, r *raw, layers []*Layer) error {
	file := ""
	for _, l := range layers {
		if l != nil {
			file = l.Name
		}
	}
	bad := func(key, msg string) error { return &ConfigError{File: file, Key: key, Msg: msg} }
	set(&cfg.FollowSymlinks, r.Repository.FollowSymlinks)
	for _, part := range []func(*Config, *raw, badKey) error{compileLimits, compileScanners, compileReview, compileNet, compileModel} {
		if err := part(cfg, r, bad); err != nil {
			return err
		}
	}
	set(&cfg.PolicyText, r.Policy.Text)
	return compileGuard(&cfg.Guard, &r.Guard, bad)
}

// set copies *src onto *dst when the key was given.
func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// setDuration parses a positive duration onto dst when the key was given; example is shown
// with a bad one.
func setDuration(dst *time.Duration, src *string, key, example string, bad badKey) error {
	if src == nil {
		return nil
	}
	d, err := time.ParseDuration(*src)
	if err != nil || d <= 0 {
		return bad(key, fmt.Sprintf("%q is not a positive duration such as \"%s\"", *src, example))
	}
	*dst = d
	return nil
}

// compileLimits: [context] and review.max_findings.
func compileLimits(cfg *Config, r *raw, bad badKey) error {
	ints := []struct {
		key string
		src *int
		dst *int
		min int
	}{
		{"context.max_files", r.Context.MaxFiles, &cfg.Context.MaxFiles, 0},
		{"context.max_total_bytes", r.Context.MaxTotalBytes, &cfg.Context.MaxTotalBytes, 0},
		{"context.max_expansion_rounds", r.Context.MaxExpansionRounds, &cfg.Context.MaxExpansionRounds, 0},
		{"review.max_findings", r.Review.MaxFindings, &cfg.MaxFindings, 1},
	}
	for _, n := range ints {
		if n.src == nil {
			continue
		}
		if *n.src < n.min {
			return bad(n.key, fmt.Sprintf("must be at least %d, got %d", n.min, *n.src))
		}
		*n.dst = *n.src
	}
	return nil
}

// compileScanners: [scanners] and redaction.block_on_secret.
func compileScanners(cfg *Config, r *raw, bad badKey) error {
	if v := r.Scanners.External; v != nil {
		seen := map[string]bool{}
		for _, name := range *v {
			if !slices.Contains(ExternalScanners, name) {
				return bad("scanners.external", fmt.Sprintf("unknown scanner %q: only names from the fixed list (%s) are allowed, never paths or arguments",
					name, strings.Join(ExternalScanners, ", ")))
			}
			if !seen[name] {
				seen[name] = true
				cfg.External = append(cfg.External, name)
			}
		}
	}
	if err := setDuration(&cfg.ScannerTimeout, r.Scanners.Timeout, "scanners.timeout", "120s", bad); err != nil {
		return err
	}
	set(&cfg.BlockOnSecret, r.Redaction.BlockOnSecret)
	return nil
}

// compileReview: [review] (but max_findings) and egress.enabled.
func compileReview(cfg *Config, r *raw, bad badKey) error {
	if v := r.Review.FailOn; v != nil {
		sev, err := ParseSeverity(*v)
		if err != nil {
			return bad("review.fail_on", err.Error())
		}
		cfg.FailOn = sev
	}
	if v := r.Review.MinConfidence; v != nil {
		if !(*v >= 0 && *v <= 1) { // NaN included
			return bad("review.min_confidence", fmt.Sprintf("must be between 0 and 1, got %v", *v))
		}
		cfg.MinConfidence = *v
	}
	if err := setDuration(&cfg.ReviewTimeout, r.Review.Timeout, "review.timeout", "30s", bad); err != nil {
		return err
	}
	if v := r.Review.Exclude; v != nil && len(*v) > 0 {
		g, err := CompileGlobs(*v)
		if err != nil {
			return bad("review.exclude", err.Error())
		}
		cfg.Exclude = g
	}
	set(&cfg.Egress, r.Egress.Enabled)
	return nil
}

// compileNet: net.connect, host:port each.
func compileNet(cfg *Config, r *raw, bad badKey) error {
	if r.Net.Connect == nil {
		return nil
	}
	for _, hp := range *r.Net.Connect {
		i := strings.LastIndexByte(hp, ':')
		host, port := "", ""
		if i > 0 {
			host, port = strings.Trim(hp[:i], "[]"), hp[i+1:]
		}
		if host == "" || strings.ContainsAny(host, "/ @") {
			return bad("net.connect", fmt.Sprintf("%q is not host:port", hp))
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return bad("net.connect", fmt.Sprintf("%q has no valid port", hp))
		}
		cfg.Connect = append(cfg.Connect, hp)
	}
	return nil
}

// compileModel: [model].
func compileModel(cfg *Config, r *raw, bad badKey) error {
	m := r.Model
	if m.Provider != nil {
		if *m.Provider != "" && !slices.Contains(Providers, *m.Provider) {
			return bad("model.provider", fmt.Sprintf("unknown provider %q (want one of %s)", *m.Provider, strings.Join(Providers, ", ")))
		}
		cfg.Model.Provider = *m.Provider
	}
	set(&cfg.Model.Name, m.Name)
	set(&cfg.Model.BaseURL, m.BaseURL)
	set(&cfg.Model.APIKeyEnv, m.APIKeyEnv)
	if err := setDuration(&cfg.Model.Timeout, m.Timeout, "model.timeout", "60s", bad); err != nil {
		return err
	}
	set(&cfg.Model.Verify, m.Verify)
	if m.Args != nil {
		cfg.Model.Args = append([]string{}, *m.Args...)
	}
	set(&cfg.Model.AllowUnsafeArgs, m.AllowArgs)
	set(&cfg.Model.Audit, m.Audit)
	return nil
}
