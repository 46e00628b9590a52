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

// overlayGuard merges [guard]: protect and deny add up across layers (a repository's
// restrictions survive a user file), the other keys are replaced.
func overlayGuard(dst, src *rawGuard, md toml.MetaData) {
	set := func(key string) bool { return md.IsDefined("guard", key) }
	if set("protect") {
		dst.Protect = appendList(dst.Protect, src.Protect)
	}
	if set("deny") {
		dst.Deny = appendList(dst.Deny, src.Deny)
	}
	if set("auto_allow") {
		dst.AutoAllow = src.AutoAllow
	}
	if set("allowed_dirs") {
		dst.AllowedDirs = src.AllowedDirs
	}
	if set("model") {
		dst.Model = src.Model
	}
	if set("timeout") {
		dst.Timeout = src.Timeout
	}
	if set("max_denials") {
		dst.MaxDenials = src.MaxDenials
	}
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
func compileGuard(g *Guard, r *rawGuard, bad func(key, msg string) error) error {
	if r.Protect != nil {
		for _, p := range *r.Protect {
			if strings.TrimSpace(p) == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
				return bad("guard.protect", fmt.Sprintf("%q is not a path inside the project (relative, such as \"deploy/keys\", or a file name)", p))
			}
		}
		g.Protect = append([]string{}, *r.Protect...)
	}
	if r.Deny != nil {
		for _, d := range *r.Deny {
			if strings.TrimSpace(d) == "" {
				return bad("guard.deny", "an entry is empty (want a command prefix such as \"npm publish\")")
			}
		}
		g.Deny = append([]string{}, *r.Deny...)
	}
	if r.AutoAllow != nil {
		g.AutoAllow = *r.AutoAllow
	}
	if r.AllowedDirs != nil {
		for _, d := range *r.AllowedDirs {
			if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~/") {
				return bad("guard.allowed_dirs", fmt.Sprintf("%q is not an absolute path (or ~/...)", d))
			}
		}
		g.AllowedDirs = append([]string{}, *r.AllowedDirs...)
	}
	if r.Model != nil {
		g.Model = *r.Model
	}
	if r.Timeout != nil {
		d, err := time.ParseDuration(*r.Timeout)
		if err != nil || d <= 0 {
			return bad("guard.timeout", fmt.Sprintf("%q is not a positive duration such as \"20s\"", *r.Timeout))
		}
		g.Timeout = d
	}
	if r.MaxDenials != nil {
		if *r.MaxDenials < 1 {
			return bad("guard.max_denials", fmt.Sprintf("must be at least 1, got %d", *r.MaxDenials))
		}
		g.MaxDenials = *r.MaxDenials
	}
	return nil
}
