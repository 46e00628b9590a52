#!/usr/bin/env bash
# Runs the README's CI adoption recipe on a scratch clone of a repository (default: this
# checkout at HEAD): `tollgate baseline --all-history`, commit it, then `review --all-history`
# and `review --all`, and prints each exit code and summary line with the commit they are of.
# With the old recipe (RECIPE=all: `baseline --all`) the history review still reports what is
# only in the history (deleted files, edited lines).
# Usage: scripts/ci-recipe.sh [REPO]   (RECIPE=all|all-history, CONFIG=FILE passed as --config)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repo=${1:-$root}
recipe=${RECIPE:-all-history}
work=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-recipe.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/tollgate" ./cmd/tollgate) || exit 2
git clone -q "$repo" "$work/clone" || exit 2
cd "$work/clone" || exit 2
cfg=()
[ -n "${CONFIG:-}" ] && cfg=(--config "$CONFIG")
echo "repository: $repo at $(git rev-parse HEAD); recipe: baseline --$recipe"
"$work/tollgate" baseline "--$recipe" "${cfg[@]}" | head -1
git -c user.name=recipe -c user.email=recipe@tollgate.invalid commit -q --no-verify -m "baseline --$recipe" -- .tollgate-baseline.json
for sel in --all-history --all; do
	"$work/tollgate" review "$sel" "${cfg[@]}" >"$work/out" 2>&1
	echo "review $sel: exit $? :: $(grep '^tollgate: ' "$work/out" | grep -v 'hint:' | tail -1)"
	grep '^not run: ' "$work/out"
done
