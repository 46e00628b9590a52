#!/usr/bin/env bash
# Times `tollgate review --staged` (no model) against gitleaks' own staged scan of the same
# version the module uses, alternately, on three scratch repositories: one small staged file,
# Go's net/http sources, 1 MB of random base64. Prints medians, the median ratio
# tollgate/gitleaks per workload, peak memory (RSS), and the overhead of tollgate's hook on
# `git commit` against a plain shell hook. Then, once each, peak memory on two large staged
# files (10 million empty lines; 20 MB of ordinary text) against the goal of at most twice the
# staged size plus a constant.
# Usage: scripts/bench.sh [RUNS]   (default 7; BENCH_MEMORY=0 skips the memory workloads)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-7}
work=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

version=$(cd "$root" && go list -m -f '{{.Version}}' github.com/zricethezav/gitleaks/v8)
echo "building tollgate and gitleaks $version ..."
(cd "$root" && go build -o "$work/bin/tollgate" ./cmd/tollgate && go build -o "$work/bin/tollgate-guard" ./cmd/tollgate-guard)
GOBIN="$work/bin" GOFLAGS=-mod=mod go install "github.com/zricethezav/gitleaks/v8@$version"
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" NO_COLOR=1
mkdir -p "$HOME"
git config --global user.name bench
git config --global user.email bench@tollgate.invalid
git config --global init.defaultBranch main

newrepo() { mkdir -p "$work/$1" && git -C "$work/$1" init -q; }

newrepo small
cat >"$work/small/handler.go" <<'GO'
package handler

import "net/http"

// Hello answers every request.
func Hello(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("hello"))
}
GO
git -C "$work/small" add -A

newrepo sources
cp -R "$(go env GOROOT)/src/net/http/." "$work/sources/"
git -C "$work/sources" add -A

newrepo base64
head -c 786432 /dev/urandom | base64 >"$work/base64/blob.b64"
git -C "$work/base64" add -A

# ms CMD...: wall time of one run in milliseconds (the exit status is ignored).
ms() {
	local start end
	start=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	end=$(date +%s%N)
	echo $(((end - start) / 1000000))
}

# rss DIR CMD...: peak resident memory in KiB of CMD run in DIR.
rss() {
	local dir=$1
	shift
	# the command's own exit status (findings: 1) is not the measurement's
	(cd "$dir" && { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null || true; } | tail -n 1)
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

tg() { (cd "$1" && "$work/bin/tollgate" review --staged --format json --fail-on critical); }
gl() { (cd "$1" && "$work/bin/gitleaks" git --pre-commit --staged --no-banner --log-level error); }

printf '\n%-10s %8s %8s %7s %10s %10s %6s\n' workload tollgate gitleaks ratio tg-rss-KiB gl-rss-KiB goal
for w in small sources base64; do
	dir="$work/$w"
	tg "$dir" >/dev/null 2>&1 || true # warm the file cache
	gl "$dir" >/dev/null 2>&1 || true
	t=() g=()
	for _ in $(seq "$runs"); do
		t+=("$(ms tg "$dir")")
		g+=("$(ms gl "$dir")")
	done
	tm=$(echo "${t[*]}" | median)
	gm=$(echo "${g[*]}" | median)
	ratio=$(awk -v a="$tm" -v b="$gm" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')
	tr_=$(rss "$dir" "$work/bin/tollgate" review --staged --format json --fail-on critical)
	gr_=$(rss "$dir" "$work/bin/gitleaks" git --pre-commit --staged --no-banner --log-level error)
	case $w in small) goal=0.5 ;; sources) goal=0.3 ;; base64) goal=0.05 ;; esac
	printf '%-10s %6sms %6sms %7s %10s %10s %6s\n' "$w" "$tm" "$gm" "$ratio" "$tr_" "$gr_" "<=$goal"
done

# Hook overhead: `git commit` of a one-file change with tollgate's hook against a plain sh hook.
newrepo hooks
cd "$work/hooks"
echo base >f.txt && git add f.txt && git commit -q -m base
commit_ms() {
	local total=() i
	for i in $(seq "$runs"); do
		echo "change $i" >>f.txt
		git add f.txt
		total+=("$(ms git commit -q -m "c$i")")
	done
	echo "${total[*]}" | median
}
printf '#!/bin/sh\nexit 0\n' >.git/hooks/pre-commit
chmod 755 .git/hooks/pre-commit
plain=$(commit_ms)
rm .git/hooks/pre-commit
"$work/bin/tollgate" install --hooks pre-commit >/dev/null
hooked=$(commit_ms)
printf '\ngit commit: plain sh hook %sms, tollgate hook %sms, overhead %sms (goal <= 40ms)\n' "$plain" "$hooked" "$((hooked - plain))"

# Agent guard: the command `tollgate install --agent` writes runs tollgate-guard (the lean
# binary, which hands content to scan to tollgate beside it) for every tool, in every agent.
# Per call, process start included:
# a Bash call (goal: median <= 15 ms) and a Write of 100 KB (goal <= 40 ms), through
# tollgate-guard and through `tollgate guard` directly; `tollgate version` as the full binary's
# floor. BENCH_CC_SAFETY_NET=1 also times cc-safety-net (npm install -g cc-safety-net) on the
# same Bash call.
newrepo guard
guard_dir="$work/guard"
export XDG_STATE_HOME="$work/state"
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git add -A && git commit -m \\"fix: parser\\" && git push origin main"}}\n' "$guard_dir" >"$work/guard-bash.json"
# 100 KB of real Go source (net/http/server.go), JSON-escaped
guard_src=$(head -c 100000 "$(go env GOROOT)/src/net/http/server.go" |
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r//g' | awk '{printf "%s\\n", $0}')
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"%s/server.go","content":"%s"}}\n' \
	"$guard_dir" "$guard_dir" "$guard_src" >"$work/guard-write.json"
guard_call() { (cd "$guard_dir" && "$work/bin/tollgate" guard --agent claude <"$1"); }
lean_call() { (cd "$guard_dir" && "$work/bin/tollgate-guard" --agent claude <"$1"); }
true_call() { (cd "$guard_dir" && /bin/true <"$1"); }
guard_runs=$((runs * 3))
gb=() gw=() gv=() lb=() lw=() gt=()
for _ in $(seq "$guard_runs"); do
	gt+=("$(ms true_call "$work/guard-bash.json")")
	lb+=("$(ms lean_call "$work/guard-bash.json")")
	lw+=("$(ms lean_call "$work/guard-write.json")")
	gb+=("$(ms guard_call "$work/guard-bash.json")")
	gw+=("$(ms guard_call "$work/guard-write.json")")
	gv+=("$(ms "$work/bin/tollgate" version)")
done
printf '\nguard (the installed hooks): Bash call through tollgate-guard %sms (goal <= 15ms); Write 100 KB through tollgate-guard'"'"'s hand-over %sms (goal <= 40ms; what every installed hook runs), through tollgate guard directly %sms; %d runs each\n' \
	"$(echo "${lb[*]}" | median)" "$(echo "${lw[*]}" | median)" "$(echo "${gw[*]}" | median)" "$guard_runs"
printf 'guard: Bash call through tollgate guard %sms; tollgate version %sms (the full binary'"'"'s process floor); /bin/true timed the same way %sms (the measurement'"'"'s own floor)\n' \
	"$(echo "${gb[*]}" | median)" "$(echo "${gv[*]}" | median)" "$(echo "${gt[*]}" | median)"
# CPU time (user+sys, the full binary's included): on a busy machine the wall times above grow
# toward it times the contention.
cpu_ms() {
	local TIMEFORMAT='%3U %3S' t
	t=$({ time "$@" >/dev/null 2>&1 || true; } 2>&1)
	awk -v u="${t% *}" -v s="${t#* }" 'BEGIN {printf "%d", (u + s) * 1000 + 0.5}'
}
lbc=() lwc=()
for _ in $(seq "$guard_runs"); do
	lbc+=("$(cpu_ms lean_call "$work/guard-bash.json")")
	lwc+=("$(cpu_ms lean_call "$work/guard-write.json")")
done
printf 'guard CPU (user+sys): Bash call through tollgate-guard %sms, Write 100 KB through its hand-over %sms\n' \
	"$(echo "${lbc[*]}" | median)" "$(echo "${lwc[*]}" | median)"
if [ "${BENCH_CC_SAFETY_NET:-}" = 1 ] && command -v cc-safety-net >/dev/null; then
	cc=()
	for _ in $(seq "$guard_runs"); do
		cc+=("$(ms sh -c "cd '$guard_dir' && cc-safety-net hook --claude-code <'$work/guard-bash.json'")")
	done
	printf 'guard: cc-safety-net on the same Bash call %sms\n' "$(echo "${cc[*]}" | median)"
fi

# History: `review --range ROOT..HEAD` against `gitleaks git --log-opts=ROOT..HEAD` over whole
# histories (goal: at most 0.5x gitleaks' time, peak memory no more than gitleaks'). Clones of
# other repositories can be named in BENCH_RANGE_REPOS (space-separated paths); by default
# this repository's own history. Each runs once per tool per round, alternately.
range_repos=${BENCH_RANGE_REPOS:-$root}
printf '\n%-16s %7s %9s %9s %7s %10s %10s\n' history commits tollgate gitleaks ratio tg-rss-KiB gl-rss-KiB
for src in $range_repos; do
	name=$(basename "$src")
	dir="$work/range-$name"
	git clone -q --no-local "$src" "$dir"
	head=$(git -C "$dir" rev-parse HEAD)
	rootc=$(git -C "$dir" rev-list --max-parents=0 HEAD | tail -n 1)
	commits=$(git -C "$dir" rev-list --count HEAD)
	rt() { (cd "$dir" && "$work/bin/tollgate" review --range "$rootc..$head" --format json --fail-on critical); }
	rg() { (cd "$dir" && "$work/bin/gitleaks" git --log-opts="$rootc..$head" --no-banner --log-level error); }
	t=() g=()
	for _ in $(seq "$(((runs + 1) / 2))"); do
		t+=("$(ms rt)")
		g+=("$(ms rg)")
	done
	tm=$(echo "${t[*]}" | median)
	gm=$(echo "${g[*]}" | median)
	ratio=$(awk -v a="$tm" -v b="$gm" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')
	tr_=$(rss "$dir" "$work/bin/tollgate" review --range "$rootc..$head" --format json --fail-on critical)
	gr_=$(rss "$dir" "$work/bin/gitleaks" git --log-opts="$rootc..$head" --no-banner --log-level error)
	printf '%-16s %7s %7sms %7sms %7s %10s %10s\n' "$name" "$commits" "$tm" "$gm" "$ratio" "$tr_" "$gr_"
done

# Memory: peak RSS of one review of a large staged file (slow: run once, not timed).
[ "${BENCH_MEMORY:-1}" = 0 ] && exit 0
newrepo empty
head -c 10000000 /dev/zero | tr '\0' '\n' >"$work/empty/empty.txt"
git -C "$work/empty" add -A
newrepo text
(cd "$root" && git ls-files -z -- '*.go' | xargs -0 cat) >"$work/one.txt"
while [ "$(wc -c 2>/dev/null <"$work/text/big.txt" || echo 0)" -lt 20971520 ]; do
	cat "$work/one.txt" >>"$work/text/big.txt"
done
head -c 20971520 "$work/text/big.txt" >"$work/one.txt" && mv "$work/one.txt" "$work/text/big.txt"
git -C "$work/text" add -A
# The constant: the binary's own peak on the one-file change.
base=$(rss "$work/small" "$work/bin/tollgate" review --staged --format json --fail-on critical)
printf '\n%-10s %10s %10s %10s %10s %6s\n' memory staged-KiB tg-rss-KiB gl-rss-KiB goal-KiB met
for w in empty text; do
	dir="$work/$w"
	staged=$(($(cat "$dir"/*.txt | wc -c) / 1024))
	tr_=$(rss "$dir" "$work/bin/tollgate" review --staged --format json --fail-on critical)
	gr_=$(rss "$dir" "$work/bin/gitleaks" git --pre-commit --staged --no-banner --log-level error)
	goal=$((2 * staged + base))
	met=no
	if [ "$tr_" -le "$goal" ]; then met=yes; fi
	printf '%-10s %10s %10s %10s %10s %6s\n' "$w" "$staged" "$tr_" "$gr_" "$goal" "$met"
done
