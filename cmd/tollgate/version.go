package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Set with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = ""
	commit  = ""
)

// pseudoVersion is a Go pseudo-version (go install ...@<commit>): its last part is the commit.
var pseudoVersion = lazyre.New(`-(?:0\.)?\d{14}-([0-9a-f]{12})(?:\+.*)?$`)

// build is what a binary knows of its own build.
type build struct {
	version  string // the module version, "" when unknown
	commit   string // the full or 12-digit revision, "" when unknown
	modified bool   // built from a work tree with uncommitted changes
	gitleaks string // gitleaks' module version
}

// readBuild reads the version the linker was given, else the build info Go stamps: the module
// version (`go install ...@v1.2.3`, or a pseudo-version naming the commit for @<commit>) and
// the VCS settings (a `go build` inside a git checkout).
func readBuild(bi *debug.BuildInfo, ok bool) build {
	b := build{version: version, commit: commit, gitleaks: "unknown"}
	if !ok {
		return b
	}
	if b.version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if b.commit == "" {
				b.commit = s.Value
			}
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	if m := pseudoVersion.FindStringSubmatch(b.version); m != nil && b.commit == "" {
		b.commit = m[1]
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/zricethezav/gitleaks/v8" {
			b.gitleaks = d.Version
		}
	}
	return b
}

// buildVersion returns the version, the commit and the gitleaks version the binary was built
// with; "dev" and "unknown" when the build recorded none.
func buildVersion() (ver, rev, gitleaks string) {
	b := readBuild(debug.ReadBuildInfo())
	ver, rev = b.version, b.commit
	if ver == "" {
		ver = "dev"
	}
	if rev == "" {
		rev = "unknown"
	} else if b.modified {
		rev += "+dirty" // as Go marks such a version
	}
	return ver, rev, b.gitleaks
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, commit and Go version",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return printVersion(c.App.Writer)
		},
	}
}

// printVersion writes the version, commit, Go version and platform, and gitleaks' version.
// A build that recorded neither version nor commit says how to get one.
func printVersion(w io.Writer) error {
	ver, rev, gl := buildVersion()
	_, err := fmt.Fprintf(w, "tollgate %s\ncommit %s\n%s %s/%s\ngitleaks %s\n", ver, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH, gl)
	if err == nil && ver == "dev" && rev == "unknown" {
		_, err = fmt.Fprintln(w, "note: this build recorded no version: install with `go install github.com/tollgate-dev/tollgate/cmd/...@<version or commit>`, or build inside a git checkout (without -buildvcs=false)")
	}
	return err
}
