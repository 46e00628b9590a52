#!/usr/bin/env bash
# Fits the prompt-injection signal scorer (docs/injection.md) on the tuning sets of
# scripts/eval-injection.sh, read at their pinned commits from a folder of clones, and writes
# review/injection/signal_weights.json (committed: the detector embeds it). Held-out sets are
# staged but never read by the fit (scripts/injfit.go keeps split "tune" only).
# Usage: scripts/fit-injection.sh CLONES_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/fit-injection.sh CLONES_DIR}
work=$(INJ_KEEP=1 INJ_STAGE_ONLY=1 "$root/scripts/eval-injection.sh" "$clones" | tail -n 1)
trap 'rm -rf "$work"' EXIT
commit=$(git -C "$root" rev-parse --short HEAD)
(cd "$root" && go run scripts/injfit.go -sets "$work/sets.tsv" -root "$work/corpus" -commit "$commit") >"$root/review/injection/signal_weights.json.new"
mv "$root/review/injection/signal_weights.json.new" "$root/review/injection/signal_weights.json"
echo "fit-injection: wrote review/injection/signal_weights.json" >&2
