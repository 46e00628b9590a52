package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds the real tollgate binaries, built once for every script: the shims that
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
	// tollgate and, beside it, the lean guard binary (as `go install ./cmd/...` puts them)
	for name, pkg := range map[string]string{"tollgate": ".", "tollgate-guard": "../tollgate-guard"} {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "failed to build "+name+":", err)
			return 2
		}
	}
	binDir = dir
	return m.Run()
}

// scriptEnv pins git's identity, dates, config and HOME so scripts are reproducible and never
// read the developer's own git config.
func scriptEnv(env *testscript.Env) error {
	vars, err := pinnedEnv(filepath.Join(env.WorkDir, "home"))
	if err != nil {
		return err
	}
	for k, v := range vars {
		env.Setenv(k, v)
	}
	return nil
}

// pinnedEnv makes home (with a .gitconfig) and returns the environment every end-to-end test
// runs in: the built binaries first on PATH, HOME and the XDG dirs in home, git's identity,
// dates and config pinned, and go's own settings passed through.
func pinnedEnv(home string) (map[string]string, error) {
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o755); err != nil {
		return nil, err
	}
	gitconfig := "[init]\n\tdefaultBranch = main\n[user]\n\tname = Tollgate Test\n\temail = test@tollgate.invalid\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		return nil, err
	}
	return map[string]string{
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
		"TOLLGATE_GUARD_BIN":  filepath.Join(binDir, "tollgate-guard"),
		"GOFLAGS":             os.Getenv("GOFLAGS"),
		"GOPATH":              os.Getenv("GOPATH"),
		"GOCACHE":             os.Getenv("GOCACHE"),
		"GOMODCACHE":          os.Getenv("GOMODCACHE"),
		"GOPROXY":             os.Getenv("GOPROXY"),
	}, nil
}

func TestScripts(t *testing.T) {
	t.Parallel() // beside TestPreCommitFramework, whose time is mostly the framework's own waits
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		Setup:               scriptEnv,
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"snapshot":     cmdSnapshot,
			"unchanged":    cmdUnchanged,
			"modelserver":  cmdModelServer,
			"modelcount":   cmdModelCount,
			"modelfixture": cmdModelFixture,
			"expandenv":    cmdExpandEnv,
			"guardfixture": cmdGuardFixture,
			"guardhook":    cmdGuardHook,
		},
	})
}

// snapshots holds `snapshot NAME DIR` results per script (keyed by $WORK and NAME).
var (
	snapshotsMu sync.Mutex
	snapshots   = map[string]map[string]string{}
)

// fileState records everything about every file under dir, .git included: kind, mode, size,
// modification time and content hash. Equal states mean nothing was written.
func fileState(dir string) (map[string]string, error) {
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		desc := fmt.Sprintf("%s %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(data))
		} else if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			desc += " -> " + target
		}
		state[rel] = desc
		return nil
	})
	return state, err
}

// cmdSnapshot: snapshot NAME DIR records the state of every file under DIR.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot NAME DIR")
	}
	state, err := fileState(ts.MkAbs(args[1]))
	ts.Check(err)
	snapshotsMu.Lock()
	defer snapshotsMu.Unlock()
	snapshots[ts.Getenv("WORK")+"\x00"+args[0]] = state
}

// cmdUnchanged: unchanged NAME DIR fails if any file under DIR (index, refs, objects, config,
// work tree) was added, removed or touched since snapshot NAME.
func cmdUnchanged(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: [!] unchanged NAME DIR")
	}
	snapshotsMu.Lock()
	before, ok := snapshots[ts.Getenv("WORK")+"\x00"+args[0]]
	snapshotsMu.Unlock()
	if !ok {
		ts.Fatalf("no snapshot %q", args[0])
	}
	after, err := fileState(ts.MkAbs(args[1]))
	ts.Check(err)
	var diffs []string
	for p, d := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, "removed: "+p)
		} else if a != d {
			diffs = append(diffs, "changed: "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "added: "+p)
		}
	}
	if neg {
		if len(diffs) == 0 {
			ts.Fatalf("%s is unchanged since snapshot %s", args[1], args[0])
		}
		return
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		ts.Fatalf("%s changed since snapshot %s:\n%s", args[1], args[0], strings.Join(diffs, "\n"))
	}
}
