#!/usr/bin/env bash
# Measures the deterministic scanners on public corpora nobody here wrote: stages each corpus
# into a scratch repository (never this one), reviews it, prints per-corpus numbers and checks
# the goals. Usage: scripts/eval.sh [EVAL_DIR]   (default: ../shared/eval beside the checkout)
# With INJ_CLONES set to a folder of clones (owner+name, see scripts/eval-injection.sh), the
# prompt-injection sets are measured too. With CODE_CLONES set to a folder holding a clone of
# semgrep/semgrep-rules (semgrep+semgrep-rules, a work tree, a bare git dir or holding repo/),
# the insecure-code rules are measured on its rule test files (scripts/evalcode.go).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
eval_dir=${1:-${EVAL_DIR:-$root/../shared/eval}}
if [ ! -d "$eval_dir/leaky-repo" ] || [ ! -d "$eval_dir/trojan-source" ]; then
	echo "eval: no corpora at $eval_dir (pass the folder that holds leaky-repo/ and trojan-source/)" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-eval.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/tollgate" "$root/cmd/tollgate"
# Keep Go's caches where they are; give git and tollgate a pristine HOME.
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" NO_COLOR=1
mkdir -p "$HOME"

# stage NAME SRC: a fresh repository with SRC's files staged.
stage() {
	local repo="$work/$1"
	mkdir -p "$repo"
	git -C "$repo" init -q
	cp -R "$2/." "$repo/"
	rm -rf "$repo/.git.src"
	git -C "$repo" add -A
}

# review NAME: the JSON report of the staged set (exit 0 or 1 is a completed review).
review() {
	local status=0
	(cd "$work/$1" && "$work/tollgate" review --staged --format json --output "$work/$1.json" --fail-on critical) || status=$?
	if [ "$status" -gt 1 ]; then
		echo "eval: review of $1 exited $status" >&2
		exit 1
	fi
}

stage leaky "$eval_dir/leaky-repo"
rm -f "$work/leaky/LABELS.csv" "$work/leaky/LICENSE" "$work/leaky/README.md"
git -C "$work/leaky" add -A
review leaky

stage trojan "$eval_dir/trojan-source"
rm -f "$work/trojan/LICENSE"
git -C "$work/trojan" add -A
review trojan

stage nethttp "$(go env GOROOT)/src/net/http"
review nethttp

start=$(date +%s%N)
(cd "$work/nethttp" && "$work/tollgate" review --staged --format json --output /dev/null --fail-on critical) || true
echo "net/http review took $(( ($(date +%s%N) - start) / 1000000 )) ms"

go run "$root/scripts/evalreport.go" \
	-labels "$eval_dir/leaky-repo/LABELS.csv" -leaky "$work/leaky.json" \
	-trojan "$work/trojan.json" -trojan-files "$(git -C "$work/trojan" ls-files | wc -l)" \
	-nethttp "$work/nethttp.json"

if [ -n "${INJ_CLONES:-}" ]; then
	echo "prompt injection (scripts/eval-injection.sh $INJ_CLONES):"
	"$root/scripts/eval-injection.sh" "$INJ_CLONES" "$work/tollgate"
fi

# The insecure-code rules on another scanner's rule tests (issue 9: >= 60% of bad lines found per
# rule, <= 10% of good lines flagged), at a pinned commit of semgrep/semgrep-rules. For
# tollgate/world-writable the bad lines whose mode lets others write are also counted apart:
# semgrep's permission rules flag any mode beyond 0600/0644 (0o775, 0o654, "rw-rw-r--").
code_repo=semgrep+semgrep-rules
code_commit=157ae4706d7f54aa33647332f234dd68f30da195
if [ -n "${CODE_CLONES:-}" ]; then
	code_git=
	for c in "$CODE_CLONES/$code_repo/repo" "$CODE_CLONES/$code_repo"; do
		if [ -d "$c" ] && git -C "$c" rev-parse --git-dir >/dev/null 2>&1; then
			code_git=$c
			break
		fi
	done
	if [ -z "$code_git" ]; then
		echo "eval: no clone of $code_repo in $CODE_CLONES" >&2
		exit 2
	fi
	echo "insecure code (scripts/evalcode.go, $code_repo $code_commit):"
	go run "$root/scripts/evalcode.go" -git "$code_git" -commit "$code_commit" -tollgate "$work/tollgate"
fi
