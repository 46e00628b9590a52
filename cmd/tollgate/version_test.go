package main

import (
	"runtime/debug"
	"testing"
)

func TestReadBuild(t *testing.T) {
	gl := debug.Module{Path: "github.com/zricethezav/gitleaks/v8", Version: "v8.30.1"}
	for _, tt := range []struct {
		name string
		bi   debug.BuildInfo
		ok   bool
		want build
	}{
		{"no build info", debug.BuildInfo{}, false, build{gitleaks: "unknown"}},
		{"go build -buildvcs=false", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Deps: []*debug.Module{&gl}}, true,
			build{gitleaks: "v8.30.1"}},
		{"go install @v1.2.3", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true,
			build{version: "v1.2.3", gitleaks: "unknown"}},
		{"go install @commit: the pseudo-version names it", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261207143000-abcdef012345"}}, true,
			build{version: "v0.0.0-20261207143000-abcdef012345", commit: "abcdef012345", gitleaks: "unknown"}},
		{"a pseudo-version after a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.2.4-0.20261207143000-abcdef012345+dirty"}}, true,
			build{version: "v1.2.4-0.20261207143000-abcdef012345+dirty", commit: "abcdef012345", gitleaks: "unknown"}},
		{"go build in a checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "true"}}}, true,
			build{commit: "0123456789abcdef0123456789abcdef01234567", modified: true, gitleaks: "unknown"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bi := tt.bi
			if got := readBuild(&bi, tt.ok); got != tt.want {
				t.Errorf("readBuild = %+v, want %+v", got, tt.want)
			}
		})
	}
}
