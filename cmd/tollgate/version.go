package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// Set with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = ""
	commit  = ""
)

// buildVersion returns the version, the commit and the gitleaks version the binary was built with.
func buildVersion() (ver, rev, gitleaks string) {
	ver, rev, gitleaks = version, commit, "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if ver == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			ver = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && rev == "" {
				rev = s.Value
			}
		}
		for _, d := range bi.Deps {
			if d.Path == "github.com/zricethezav/gitleaks/v8" {
				gitleaks = d.Version
			}
		}
	}
	if ver == "" {
		ver = "dev"
	}
	if rev == "" {
		rev = "unknown"
	}
	return ver, rev, gitleaks
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
func printVersion(w io.Writer) error {
	ver, rev, gl := buildVersion()
	_, err := fmt.Fprintf(w, "tollgate %s\ncommit %s\n%s %s/%s\ngitleaks %s\n", ver, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH, gl)
	return err
}
