package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// rawGuard mirrors the [guard] table.
type rawGuard struct {
	Protect     *[]string `toml:"protect"`
	Deny        *[]string `toml:"deny"`
	AutoAllow   *bool     `toml:"auto_allow"`
	AllowedDirs *[]string `toml:"allowed_dirs"`
	Model       *bool     `toml:"model"`
	Timeout     *string   `toml:"timeout"`
	MaxDenials  *int      `toml:"max_denials"`
}

// Guard is the agent guard's compiled policy.
type Guard struct {
	Protect     []string // extra protected paths (repository and user layers add up)
	Deny        []string // extra denied command prefixes (repository and user layers add up)
	AutoAllow   bool     // user layer only
	AllowedDirs []string // user layer only: writable directories outside the project
	Model       bool     // user layer only
	Timeout     time.Duration
	MaxDenials  int
}

// guardWidening are the [guard] keys only the user layer may set: they widen what an agent may do.
var guardWidening = []string{"auto_allow", "allowed_dirs", "model", "timeout", "max_denials"}

func defaultGuard() Guard {
	return Guard{Protect: []string{}, Deny: []string{}, AllowedDirs: []string{}, Timeout: 20 * time.Second, MaxDenials: 3}
}

// untrustedGuard refuses a widening [guard] key in a repository's file.
func untrustedGuard(file string, md toml.MetaData) error {
	for _, k := range md.Keys() {
		if len(k) > 1 && k[0] == "guard" && slices.Contains(guardWidening, k[1]) {
			return &ConfigError{File: file, Key: k.String(), Msg: "not allowed in a repository's config: only your user config (" +
				displayUserPath() + ") may widen what the agent guard lets an agent do; a repository may only add " +
				"guard.protect paths and guard.deny prefixes"}
		}
	}
	return nil
}

func appendList(a, b *[]string) *[]string {
	var out []string
	if a != nil {
		out = append(out, *a...)
	}
	if b != nil {
		out = append(out, *b...)
	}
	return &out
}

// compileGuard validates [guard] onto g.
func compileGuard(g *Guard, r *rawGuard, bad badKey) error {
	checks := []struct {
		key   string
		src   *[]string
		dst   *[]string
		check func(string) string // why an entry is bad ("" if it is not)
	}{
		{"guard.protect", r.Protect, &g.Protect, func(p string) string {
			if strings.TrimSpace(p) == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
				return fmt.Sprintf("%q is not a path inside the project (relative, such as \"deploy/keys\", or a file name)", p)
			}
			return ""
		}},
		{"guard.deny", r.Deny, &g.Deny, func(d string) string {
			if strings.TrimSpace(d) == "" {
				return "an entry is empty (want a command prefix such as \"npm publish\")"
			}
			return ""
		}},
		{"guard.allowed_dirs", r.AllowedDirs, &g.AllowedDirs, func(d string) string {
			if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~/") {
				return fmt.Sprintf("%q is not an absolute path (or ~/...)", d)
			}
			return ""
		}},
	}
	for _, c := range checks {
		if err := compileList(c.key, c.src, c.dst, c.check, bad); err != nil {
			return err
		}
	}
	set(&g.AutoAllow, r.AutoAllow)
	set(&g.Model, r.Model)
	if err := setDuration(&g.Timeout, r.Timeout, "guard.timeout", "20s", bad); err != nil {
		return err
	}
	if r.MaxDenials != nil {
		if *r.MaxDenials < 1 {
			return bad("guard.max_denials", fmt.Sprintf("must be at least 1, got %d", *r.MaxDenials))
		}
		g.MaxDenials = *r.MaxDenials
	}
	return nil
}

// compileList copies a list whose every entry passes check onto dst, when the key was given.
func compileList(key string, src, dst *[]string, check func(string) string, bad badKey) error {
	if src == nil {
		return nil
	}
	for _, e := range *src {
		if why := check(e); why != "" {
			return bad(key, why)
		}
	}
	*dst = append([]string{}, *src...)
	return nil
}
