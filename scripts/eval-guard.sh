#!/usr/bin/env bash
# Measures the agent guard on other guards' public test suites (scripts/guardsuites.go: the
# suites, their pinned commits and how each case is read): risky calls stopped (deny or ask),
# safe calls untouched (no objection) and hook bypasses denied, each goal printed beside its
# count. Every case is sent as a Claude Code Bash call to tollgate-guard (what the installed
# hook runs), in a scratch repository (never this one), with a pristine HOME.
# Usage: scripts/eval-guard.sh CLONES_DIR   (a folder of clones named owner+name, as the fetch
# tool writes them; GUARD_VERBOSE=1 lists every miss)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/eval-guard.sh CLONES_DIR}
# Not under /tmp: the guard lets writes into the temp dir pass, and the scratch HOME and
# repository must look like a real home and project.
cache=${XDG_CACHE_HOME:-$HOME/.cache}
mkdir -p "$cache"
work=$(mktemp -d "$cache/tollgate-eval-guard.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/bin/tollgate" "$root/cmd/tollgate"
go build -o "$work/bin/tollgate-guard" "$root/cmd/tollgate-guard"
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" NO_COLOR=1
mkdir -p "$HOME" "$work/repo"
verbose=()
if [ "${GUARD_VERBOSE:-}" = 1 ]; then
	verbose=(-v)
fi
cd "$root"
go run scripts/guardsuites.go -clones "$clones" -guard "$work/bin/tollgate-guard" -work "$work/repo" "${verbose[@]}"
