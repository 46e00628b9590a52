package policy

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func repoLayer(data string) *Layer {
	return &Layer{Name: "/repo/.tollgate.toml", Data: []byte(data)}
}

func userLayer(data string) *Layer {
	return &Layer{Name: "/home/u/.config/tollgate/config.toml", Data: []byte(data), Trusted: true}
}

// configError asserts err is a *ConfigError naming key (in Key and in the message) and file.
func configError(t *testing.T, err error, key, file string) *ConfigError {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
	}
	if !strings.Contains(err.Error(), key) {
		t.Errorf("error %q does not name the key %q", err, key)
	}
	if ce.Key != "" && ce.Key != key {
		t.Errorf("ConfigError.Key = %q, want %q", ce.Key, key)
	}
	if file != "" && ce.File != file {
		t.Errorf("ConfigError.File = %q, want %q", ce.File, file)
	}
	return ce
}

func TestLoadDefaults(t *testing.T) {
	for name, layers := range map[string][]*Layer{
		"no layers":   nil,
		"nil layers":  {nil, nil},
		"empty files": {repoLayer(""), userLayer("# nothing\n")},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Load(layers...)
			if err != nil {
				t.Fatal(err)
			}
			want := Default()
			got.Files = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Load = %+v\nwant %+v", got, want)
			}
		})
	}
	// The documented defaults (docs/configuration.md's key table, held to the template by keys_test.go).
	d := Default()
	if d.FollowSymlinks || d.Context != (ContextLimits{20, 200000, 2}) || len(d.External) != 0 ||
		!d.BlockOnSecret || d.FailOn != Medium || d.MinConfidence != 0 || d.MaxFindings != 100 ||
		d.Egress || len(d.Connect) != 0 || d.Model.Configured() || d.Model.Timeout != 60*time.Second ||
		!d.Model.Verify || d.PolicyText != "" {
		t.Errorf("Default() does not match the documented defaults: %+v", d)
	}
}

func TestLoadLayering(t *testing.T) {
	repo := repoLayer(`
[review]
fail_on = "high"
max_findings = 5
[scanners]
external = ["gosec", "shellcheck", "gosec"]
[context]
max_files = 3
`)
	user := userLayer(`
[review]
fail_on = "low"
[context]
max_total_bytes = 1000
[egress]
enabled = true
[net]
connect = ["api.example.com:443", "[::1]:11434"]
[model]
provider = "openai"
name = "m"
base_url = "http://127.0.0.1:11434/v1"
api_key_env = "MY_KEY"
timeout = "5s"
verify = false
`)
	got, err := Load(repo, user)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.FailOn = Low // user wins
	want.MaxFindings = 5
	want.External = []string{"gosec", "shellcheck"}
	want.Context.MaxFiles = 3
	want.Context.MaxTotalBytes = 1000
	want.Egress = true
	want.Connect = []string{"api.example.com:443", "[::1]:11434"}
	want.Model = Model{Provider: "openai", Name: "m", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "MY_KEY", Timeout: 5 * time.Second, Args: []string{}, Audit: true}
	want.Files = []string{repo.Name, user.Name}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load =\n %+v\nwant\n %+v", got, want)
	}

	// A later layer overrides a key with its zero value too (pointers tell absent from zero).
	got, err = Load(userLayer("[redaction]\nblock_on_secret = false\n[review]\nmin_confidence = 0.5\n"),
		userLayer("[redaction]\nblock_on_secret = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.BlockOnSecret || got.MinConfidence != 0.5 {
		t.Errorf("BlockOnSecret = %v, MinConfidence = %v; want true (later layer) and 0.5 (earlier layer)", got.BlockOnSecret, got.MinConfidence)
	}
	got, err = Load(repoLayer("[scanners]\nexternal = [\"semgrep\"]\n"), userLayer("[scanners]\nexternal = []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.External) != 0 {
		t.Errorf("External = %v, want the user's empty list", got.External)
	}
}

func TestLoadUnknownKey(t *testing.T) {
	for _, tt := range []struct{ data, key string }{
		{"[review]\nfail_onn = \"high\"\n", "review.fail_onn"},
		{"[reviews]\nfail_on = \"high\"\n", "reviews"},
		{"top = 1\n", "top"},
		{"[context]\nmax_files = 1\nmax_filez = 2\n", "context.max_filez"},
	} {
		_, err := Load(repoLayer(tt.data))
		if err == nil {
			t.Errorf("Load(%q) succeeded, want an unknown key error", tt.data)
			continue
		}
		configError(t, err, tt.key, "/repo/.tollgate.toml")
		if !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("error %q does not say unknown key", err)
		}
	}
}

func TestLoadTypeError(t *testing.T) {
	for _, tt := range []struct{ data, key, words string }{
		{"[review]\nmax_findings = \"ten\"\n", "review.max_findings", "must be a whole number, not a string (line 2)"},
		{"[review]\nfail_on = 3\n", "review.fail_on", "must be a string, not a whole number (line 2)"},
		{"[scanners]\nexternal = \"gosec\"\n", "scanners.external", "must be a list"},
		{"[repository]\nfollow_symlinks = \"yes\"\n", "repository.follow_symlinks", "must be a boolean (true or false), not a string"},
		{"[review]\nmin_confidence = \"high\"\n", "review.min_confidence", "must be a number, not a string"},
		{"review = 3\n", "review", "must be a table, not a whole number (line 1)"},
	} {
		_, err := Load(repoLayer(tt.data))
		if err == nil {
			t.Errorf("Load(%q) succeeded, want a type error", tt.data)
			continue
		}
		configError(t, err, tt.key, "/repo/.tollgate.toml")
		// In words, never the decoder's Go types.
		if msg := err.Error(); !strings.Contains(msg, tt.words) || strings.Contains(msg, "incompatible") || strings.Contains(msg, "int64") {
			t.Errorf("Load(%q) = %q, want it to say %q", tt.data, msg, tt.words)
		}
	}
	// A TOML syntax error is a ConfigError too.
	_, err := Load(repoLayer("[review\n"))
	configError(t, err, "", "/repo/.tollgate.toml")
}

func TestLoadValidation(t *testing.T) {
	tests := []struct {
		name, data, key string
		trusted         bool
	}{
		{"fail_on unknown", `review.fail_on = "severe"`, "review.fail_on", false},
		{"fail_on empty", `review.fail_on = ""`, "review.fail_on", false},
		{"min_confidence below 0", `review.min_confidence = -0.1`, "review.min_confidence", false},
		{"min_confidence above 1", `review.min_confidence = 1.5`, "review.min_confidence", false},
		{"min_confidence nan", `review.min_confidence = nan`, "review.min_confidence", false},
		{"min_confidence inf", `review.min_confidence = inf`, "review.min_confidence", false},
		{"max_findings 0", `review.max_findings = 0`, "review.max_findings", false},
		{"max_findings negative", `review.max_findings = -3`, "review.max_findings", false},
		{"max_files negative", `context.max_files = -1`, "context.max_files", false},
		{"max_total_bytes negative", `context.max_total_bytes = -1`, "context.max_total_bytes", false},
		{"max_expansion_rounds negative", `context.max_expansion_rounds = -1`, "context.max_expansion_rounds", false},
		{"unknown scanner", `scanners.external = ["gosec", "trivy"]`, "scanners.external", false},
		{"scanner as a path", `scanners.external = ["/usr/bin/gosec"]`, "scanners.external", false},
		{"scanner as a relative path", `scanners.external = ["./gosec"]`, "scanners.external", false},
		{"scanner with arguments", `scanners.external = ["gosec -exclude=G101"]`, "scanners.external", false},
		{"unknown provider", `model.provider = "ollama"`, "model.provider", true},
		{"provider as a path", `model.provider = "/usr/bin/claude"`, "model.provider", true},
		{"timeout not a duration", `model.timeout = "soon"`, "model.timeout", true},
		{"timeout without unit", `model.timeout = "60"`, "model.timeout", true},
		{"timeout zero", `model.timeout = "0s"`, "model.timeout", true},
		{"timeout negative", `model.timeout = "-1s"`, "model.timeout", true},
		{"connect without port", `net.connect = ["api.example.com"]`, "net.connect", true},
		{"connect port 0", `net.connect = ["api.example.com:0"]`, "net.connect", true},
		{"connect port too large", `net.connect = ["api.example.com:65536"]`, "net.connect", true},
		{"connect port not a number", `net.connect = ["api.example.com:https"]`, "net.connect", true},
		{"connect empty host", `net.connect = [":443"]`, "net.connect", true},
		{"connect URL", `net.connect = ["https://api.example.com:443"]`, "net.connect", true},
		{"connect userinfo", `net.connect = ["user@api.example.com:443"]`, "net.connect", true},
		{"connect empty", `net.connect = [""]`, "net.connect", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := repoLayer(tt.data + "\n")
			if tt.trusted {
				l = userLayer(tt.data + "\n")
			}
			cfg, err := Load(l)
			if err == nil {
				t.Fatalf("Load(%q) = %+v, want an error naming %q", tt.data, cfg, tt.key)
			}
			ce := configError(t, err, tt.key, l.Name)
			if ce.Key != tt.key {
				t.Errorf("ConfigError.Key = %q, want %q", ce.Key, tt.key)
			}
		})
	}
	// The valid edges are accepted.
	cfg, err := Load(userLayer(`
review.min_confidence = 1.0
review.max_findings = 1
review.fail_on = "CRITICAL"
context.max_files = 0
scanners.external = ["gosec", "shellcheck", "bandit", "semgrep"]
model.provider = "anthropic"
model.timeout = "1m30s"
net.connect = ["localhost:1", "10.0.0.1:65535", "[2001:db8::1]:443"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinConfidence != 1 || cfg.MaxFindings != 1 || cfg.FailOn != Critical || cfg.Context.MaxFiles != 0 ||
		len(cfg.External) != 4 || cfg.Model.Provider != "anthropic" || cfg.Model.Timeout != 90*time.Second || len(cfg.Connect) != 3 {
		t.Errorf("valid edge values not applied: %+v", cfg)
	}
	for _, p := range Providers {
		if _, err := Load(userLayer(`model.provider = "` + p + `"`)); err != nil {
			t.Errorf("provider %q refused: %v", p, err)
		}
	}
	// An empty provider means no model.
	if cfg, err := Load(userLayer(`model.provider = ""`)); err != nil || cfg.Model.Configured() {
		t.Errorf("empty provider: cfg.Model=%+v err=%v", cfg.Model, err)
	}
}

// A bad value in the repository layer is blamed on the repository file even when a user layer
// follows.
func TestLoadErrorNamesTheFileHoldingTheKey(t *testing.T) {
	repo := repoLayer("[review]\nfail_on = \"severe\"\n")
	user := userLayer("[review]\nmax_findings = 10\n")
	_, err := Load(repo, user)
	configError(t, err, "review.fail_on", repo.Name)

	// A repository value overridden by a valid user value is still an error: the file is wrong.
	_, err = Load(repo, userLayer("[review]\nfail_on = \"high\"\n"))
	configError(t, err, "review.fail_on", repo.Name)
}

func TestLoadUntrustedKeys(t *testing.T) {
	tests := []struct{ data, key string }{
		{"[egress]\nenabled = true\n", "egress.enabled"},
		{"[egress]\nenabled = false\n", "egress.enabled"},
		{"[net]\nconnect = [\"evil.example.com:443\"]\n", "net.connect"},
		{"[model]\nprovider = \"openai\"\n", "model.provider"},
		{"[model]\nbase_url = \"https://evil.example.com\"\n", "model.base_url"},
		{"[model]\napi_key_env = \"AWS_SECRET_ACCESS_KEY\"\n", "model.api_key_env"},
		{"[model]\nname = \"x\"\n", "model.name"},
		{"[model]\ntimeout = \"1s\"\n", "model.timeout"},
		{"[model]\nverify = false\n", "model.verify"},
		{"model.provider = \"claude-cli\"\n", "model.provider"},
		{"[redaction]\nblock_on_secret = false\n", "redaction.block_on_secret"},
		{"[redaction]\nblock_on_secret = true\n", "redaction.block_on_secret"},
		{"[policy]\ntext = \"say nothing\"\n", "policy.text"},
		{"[review]\nfail_on = \"low\"\n[egress]\nenabled = true\n", "egress.enabled"},
		// an empty table header alone is refused too, and named
		{"[egress]\n", "egress"},
	}
	for _, tt := range tests {
		_, err := Load(repoLayer(tt.data))
		if err == nil {
			t.Errorf("repository layer %q accepted", tt.data)
			continue
		}
		ce := configError(t, err, tt.key, "/repo/.tollgate.toml")
		if ce.Key != tt.key {
			t.Errorf("%q: ConfigError.Key = %q, want %q", tt.data, ce.Key, tt.key)
		}
		// The same key is accepted from the user layer, after a repository layer.
		if _, err := Load(repoLayer(""), userLayer(tt.data)); err != nil {
			t.Errorf("user layer %q refused: %v", tt.data, err)
		}
	}
	// An untrusted layer after a trusted one is still refused (order does not grant trust).
	if _, err := Load(userLayer("egress.enabled = true\n"), repoLayer("egress.enabled = true\n")); err == nil {
		t.Error("untrusted layer accepted after a trusted one")
	}
	cfg, err := Load(userLayer("egress.enabled = true\n"), repoLayer("review.fail_on = \"high\"\n"))
	if err != nil || !cfg.Egress || cfg.FailOn != High {
		t.Errorf("Load = %+v, %v; want egress from the user layer and fail_on from the repository", cfg, err)
	}
}

func TestLoadKeysMatchExactly(t *testing.T) {
	tests := []struct{ data, key string }{
		{"[EGRESS]\nenabled = true\n", "EGRESS"},
		{"[egress]\nEnabled = true\n", "egress.Enabled"},
		{"[review]\nFail_On = \"critical\"\n", "review.Fail_On"},
		{"[Review]\nfail_on = \"critical\"\n", "Review"},
		{"Model.Provider = \"openai\"\n", "Model.Provider"},
	}
	for _, tt := range tests {
		for _, l := range []*Layer{repoLayer(tt.data), userLayer(tt.data)} {
			_, err := Load(l)
			ce := configError(t, err, tt.key, l.Name)
			if ce != nil && !strings.Contains(ce.Msg, "unknown key") {
				t.Errorf("%q: %v, want an unknown key error", tt.data, err)
			}
		}
	}
}

func TestInitTemplateIsDefault(t *testing.T) {
	got, err := Load(&Layer{Name: RepoConfigName, Data: []byte(InitTemplate)})
	if err != nil {
		t.Fatalf("the init template does not load as a repository layer: %v", err)
	}
	if !reflect.DeepEqual(got.Files, []string{RepoConfigName}) {
		t.Errorf("Files = %v", got.Files)
	}
	got.Files = nil
	if want := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("init template = %+v\nDefault()   = %+v", got, want)
	}
	// Every key it mentions commented out (the user-only ones) is checked by
	// TestTemplateValuesAreDefaults (keys_test.go).
}

func TestReadUserLayer(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if got := UserConfigPath(); got != dir+"/tollgate/config.toml" {
		t.Errorf("UserConfigPath = %q", got)
	}
	// No user file: no layer, no error.
	l, err := ReadUserLayer("")
	if err != nil || l != nil {
		t.Errorf("ReadUserLayer with no file = %v, %v", l, err)
	}
	// --config must exist.
	_, err = ReadUserLayer(dir + "/missing.toml")
	configError(t, err, "", dir+"/missing.toml")
	// A relative XDG_CONFIG_HOME is ignored (XDG spec).
	t.Setenv("XDG_CONFIG_HOME", "relative/dir")
	t.Setenv("HOME", dir)
	if got := UserConfigPath(); got != dir+"/.config/tollgate/config.toml" {
		t.Errorf("UserConfigPath with relative XDG_CONFIG_HOME = %q", got)
	}
}
