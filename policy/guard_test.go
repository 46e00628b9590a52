package policy

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestGuardConfig(t *testing.T) {
	def, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if def.Guard.Timeout != 20*time.Second || def.Guard.MaxDenials != 3 || def.Guard.AutoAllow || def.Guard.Model {
		t.Errorf("defaults: %+v", def.Guard)
	}
	repo := &Layer{Name: ".tollgate.toml", Data: []byte("[guard]\nprotect = [\"deploy/keys\"]\ndeny = [\"npm publish\"]\n")}
	user := &Layer{Name: "user.toml", Trusted: true, Data: []byte("[guard]\ndeny = [\"terraform apply\"]\nauto_allow = true\nallowed_dirs = [\"~/scratch\"]\nmodel = true\ntimeout = \"5s\"\nmax_denials = 2\n")}
	cfg, err := Load(repo, user)
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Guard
	if !slices.Equal(g.Deny, []string{"npm publish", "terraform apply"}) || !slices.Equal(g.Protect, []string{"deploy/keys"}) {
		t.Errorf("protect/deny must add up across layers: %+v", g)
	}
	if !g.AutoAllow || !g.Model || g.Timeout != 5*time.Second || g.MaxDenials != 2 || !slices.Equal(g.AllowedDirs, []string{"~/scratch"}) {
		t.Errorf("user keys: %+v", g)
	}
	for _, bad := range []struct{ data, key string }{
		{"[guard]\nauto_allow = true\n", "guard.auto_allow"},
		{"[guard]\nallowed_dirs = [\"/\"]\n", "guard.allowed_dirs"},
		{"[guard]\nmodel = true\n", "guard.model"},
		{"[guard]\ntimeout = \"1h\"\n", "guard.timeout"},
		{"[guard]\nmax_denials = 100\n", "guard.max_denials"},
	} {
		_, err := Load(&Layer{Name: ".tollgate.toml", Data: []byte(bad.data)})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Key != bad.key {
			t.Errorf("repository %q: got %v, want an error naming %s", bad.data, err, bad.key)
		}
	}
	for _, bad := range []struct{ data, key string }{
		{"[guard]\ntimeout = \"soon\"\n", "guard.timeout"},
		{"[guard]\nmax_denials = 0\n", "guard.max_denials"},
		{"[guard]\nallowed_dirs = [\"relative\"]\n", "guard.allowed_dirs"},
		{"[guard]\nprotect = [\"/etc\"]\n", "guard.protect"},
		{"[guard]\ndeny = [\"\"]\n", "guard.deny"},
	} {
		_, err := Load(&Layer{Name: "user.toml", Trusted: true, Data: []byte(bad.data)})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Key != bad.key {
			t.Errorf("user %q: got %v, want an error naming %s", bad.data, err, bad.key)
		}
	}
}
