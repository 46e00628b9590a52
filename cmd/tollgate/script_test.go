package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds the real tollgate binary, built once for every script: the shims that
// `tollgate install` writes name it by absolute path, as they would for a user.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "tollgate-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "tollgate"), ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "failed to build tollgate:", err)
		return 2
	}
	binDir = dir
	return m.Run()
}

// scriptEnv pins git's identity, dates, config and HOME so scripts are reproducible and never
// read the developer's own git config.
func scriptEnv(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o755); err != nil {
		return err
	}
	gitconfig := "[init]\n\tdefaultBranch = main\n[user]\n\tname = Tollgate Test\n\temail = test@tollgate.invalid\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"PATH":                binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"XDG_CACHE_HOME":      filepath.Join(home, ".cache"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Tollgate Test",
		"GIT_AUTHOR_EMAIL":    "test@tollgate.invalid",
		"GIT_AUTHOR_DATE":     "2026-01-02T03:04:05Z",
		"GIT_COMMITTER_NAME":  "Tollgate Test",
		"GIT_COMMITTER_EMAIL": "test@tollgate.invalid",
		"GIT_COMMITTER_DATE":  "2026-01-02T03:04:05Z",
		"TOLLGATE_BIN":        filepath.Join(binDir, "tollgate"),
		"GOFLAGS":             os.Getenv("GOFLAGS"),
		"GOPATH":              os.Getenv("GOPATH"),
		"GOCACHE":             os.Getenv("GOCACHE"),
		"GOMODCACHE":          os.Getenv("GOMODCACHE"),
		"GOPROXY":             os.Getenv("GOPROXY"),
	} {
		env.Setenv(k, v)
	}
	return nil
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		Setup:               scriptEnv,
		RequireExplicitExec: true,
	})
}
