#!/usr/bin/env bash
# Measures the deterministic scanners on public corpora nobody here wrote: stages each corpus
# into a scratch repository (never this one), reviews it, prints per-corpus numbers and checks
# the goals. Usage: scripts/eval.sh [EVAL_DIR]   (default: ../shared/eval beside the checkout)
# With INJ_CLONES set to a folder of clones (owner+name, see scripts/eval-injection.sh), the
# prompt-injection sets are measured too. With CODE_CLONES set to a folder holding a clone of
# semgrep/semgrep-rules (semgrep+semgrep-rules, a work tree, a bare git dir or holding repo/),
# the insecure-code rules are measured on its rule test files (scripts/evalcode.go). With
# SECRET_CLONES set to a folder of clones of gitleaks/fake-leaks and trufflesecurity/test_keys,
# the files each of tollgate and gitleaks flags there are printed side by side.
# With LABELLED_SECRET_CLONES set to a folder of clones of Samsung/CredSweeper,
# UD-X-Lab/SecretScout and FuzzingLabs/fuzzforge_ai, their labelled secrets are measured
# (scripts/eval-secrets.sh: labelled lines found, clean files flagged, tollgate and gitleaks).
# leaky-repo is measured against the gitleaks CLI of the version tollgate links, side by side.
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
# The peer: the gitleaks CLI of the version tollgate links (side by side on the secret corpora).
gl_version=$(cd "$root" && go list -m -f '{{.Version}}' github.com/zricethezav/gitleaks/v8)
GOBIN="$work/bin" GOFLAGS=-mod=mod go install "github.com/zricethezav/gitleaks/v8@$gl_version"
# Keep Go's caches where they are; give git and tollgate a pristine HOME.
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" NO_COLOR=1
mkdir -p "$HOME"
# Every finding counts: no cap on the report.
printf '[review]\nmax_findings = 1000000\n' >"$work/eval.toml"

# stage NAME SRC: a fresh repository with SRC's files staged.
stage() {
	local repo="$work/$1"
	mkdir -p "$repo"
	git -C "$repo" init -q
	cp -R "$2/." "$repo/"
	rm -rf "$repo/.git.src"
	git -C "$repo" add -A
}

# gitleaks_staged NAME: gitleaks' JSON report of the staged set (exit 0 or 1 is a completed scan).
gitleaks_staged() {
	local status=0
	(cd "$work/$1" && "$work/bin/gitleaks" git --pre-commit --staged --no-banner --log-level error \
		--report-format json --report-path "$work/$1.gitleaks.json" --exit-code 1 .) || status=$?
	if [ "$status" -gt 1 ]; then
		echo "eval: gitleaks on $1 exited $status" >&2
		exit 1
	fi
}

# review NAME: the JSON report of the staged set (exit 0 or 1 is a completed review).
review() {
	local status=0
	(cd "$work/$1" && "$work/tollgate" review --staged --format json --output "$work/$1.json" --fail-on critical \
		--config "$work/eval.toml") || status=$?
	if [ "$status" -gt 1 ]; then
		echo "eval: review of $1 exited $status" >&2
		exit 1
	fi
}

stage leaky "$eval_dir/leaky-repo"
rm -f "$work/leaky/LABELS.csv" "$work/leaky/LICENSE" "$work/leaky/README.md"
git -C "$work/leaky" add -A
review leaky
gitleaks_staged leaky

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
	-labels "$eval_dir/leaky-repo/LABELS.csv" -leaky "$work/leaky.json" -leaky-gitleaks "$work/leaky.gitleaks.json" \
	-trojan "$work/trojan.json" -trojan-files "$(git -C "$work/trojan" ls-files | wc -l)" \
	-nethttp "$work/nethttp.json"

# find_clone DIR NAME: the git directory of NAME's clone in DIR (DIR/NAME/repo as fetched, or
# DIR/NAME, a work tree or a bare git dir); exits 2 when there is none.
find_clone() {
	local c
	for c in "$1/$2/repo" "$1/$2"; do
		if [ -d "$c" ] && git -C "$c" rev-parse --git-dir >/dev/null 2>&1; then
			echo "$c"
			return
		fi
	done
	echo "eval: no clone of $2 in $1" >&2
	exit 2
}

# Secret corpora kept as clones (SECRET_CLONES, a folder of owner+name clones as fetched:
# owner+name/repo or owner+name), staged at pinned commits. They carry no line labels: the
# files each tool flags are printed side by side, no goal.
secret_corpora=(
	"gitleaks+fake-leaks 49094f8a254b9ad51d88362af7c9d1d82af3ae54"
	"trufflesecurity+test_keys 0416560b1330d8ac42045813251d85c688717eaf"
)
if [ -n "${SECRET_CLONES:-}" ]; then
	for entry in "${secret_corpora[@]}"; do
		read -r name commit <<<"$entry"
		src=$(find_clone "$SECRET_CLONES" "$name")
		mkdir -p "$work/$name.src"
		git -C "$src" archive "$commit" | tar -x -C "$work/$name.src"
		# The corpus's own scanner configs are not samples; both tools run their defaults.
		rm -f "$work/$name.src/.gitleaks.toml" "$work/$name.src/.secrets.baseline" "$work/$name.src/.gitleaksignore"
		stage "$name" "$work/$name.src"
		review "$name"
		gitleaks_staged "$name"
		go run "$root/scripts/evalreport.go" -corpus "$name@${commit:0:12}" \
			-tollgate "$work/$name.json" -gitleaks "$work/$name.gitleaks.json"
	done
fi

secret_goals=0
if [ -n "${LABELLED_SECRET_CLONES:-}" ]; then
	echo "labelled secret corpora (scripts/eval-secrets.sh $LABELLED_SECRET_CLONES):"
	"$root/scripts/eval-secrets.sh" "$LABELLED_SECRET_CLONES" "$work/tollgate" || secret_goals=$?
fi

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
	code_git=$(find_clone "$CODE_CLONES" "$code_repo")
	echo "insecure code (scripts/evalcode.go, $code_repo $code_commit):"
	go run "$root/scripts/evalcode.go" -git "$code_git" -commit "$code_commit" -tollgate "$work/tollgate"
fi
if [ "$secret_goals" -ne 0 ]; then
	echo "eval: a labelled secret corpus missed its goal (scripts/eval-secrets.sh exited $secret_goals)" >&2
	exit 1
fi
