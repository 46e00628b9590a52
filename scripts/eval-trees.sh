#!/usr/bin/env bash
# Issue 30's goals on whole trees: "at medium and above, no more false findings than gitleaks'
# on the same trees; every true catch kept (gitleaks' own true findings included); tollgate's
# own rules right at least half the time they fire". It takes a folder of clones (each named
# owner+name, a work tree, a bare git dir or holding repo/), checks each repository below out
# at its pinned commit into a scratch clone (the clones are only read), runs
# `tollgate review --all` and `gitleaks dir` on that tree, matches every finding (tollgate's at
# medium or above, all of gitleaks') to the hand labels in scripts/trees-labels.tsv and prints
# per-tree counts side by side, the totals and the precision of tollgate's own rules per rule
# (scripts/treereport.go). A finding no label names is counted apart ("?"): label it (true: a
# real secret or a real risk as the rule describes it; false: a placeholder, a docs example, a
# test fixture, a fake key; always with a reason, never with a secret's value).
# Trees (repository, pinned commit; the numbers in the README's "Measured" section come from
# these): fastapi/fastapi c3f316b7e814, pallets/flask 2ac89889f4cc,
# django/djangoproject.com 68a439a59f56, spf13/cobra adbc8813901b, laravel/laravel 8a119d7f4461,
# laravel/framework bd71b45fbb7e, spring-projects/spring-petclinic edf4db28affc,
# docker/compose f72979427042, pyinvoke/invoke 6a71e680c535, tldr-pages/tldr 08e345f42639,
# prometheus-community/helm-charts cf408a290aec, Aider-AI/aider 5dc9490bb35f,
# expressjs/express a3714473feb3 (full ids below). The snapshots of laravel/framework and
# Aider-AI/aider lack a few large blobs (a binary, five .mp4 files): they are left out of the
# checkout and the report says when tollgate reviewed fewer than the readable files (at
# f116ee9 one missing object makes `review --all` review none of the tree).
# Usage: scripts/eval-trees.sh CLONES_DIR [TOLLGATE_BINARY]   (TREES_VERBOSE=1 lists every
# finding with its verdict, TREES_EMIT=1 prints a label line for each unlabelled one,
# TREES_KEEP=1 keeps the scratch clones and reports, TREES_ONLY='name ...' measures only those trees)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/eval-trees.sh CLONES_DIR [TOLLGATE_BINARY]}
gitleaks=$(command -v gitleaks || echo "$(go env GOPATH)/bin/gitleaks")
if [ ! -x "$gitleaks" ]; then
	echo "eval-trees: no gitleaks CLI on PATH or in \$GOPATH/bin (go install github.com/zricethezav/gitleaks/v8@v8.30.1)" >&2
	exit 2
fi
# shellcheck source=scripts/evallib.sh
. "$root/scripts/evallib.sh"
eval_setup evaltrees "${TREES_KEEP:-}" "${2:-}"

# name | repository | pinned commit
trees='fastapi|fastapi+fastapi|c3f316b7e814667e8ee81e03a7330d00ee61e45c
flask|pallets+flask|2ac89889f4cc330eabd50f295dcef02828522c69
djangoproject.com|django+djangoproject.com|68a439a59f5692e9d847f23318d7a8603fc33c72
cobra|spf13+cobra|adbc8813901bba65827259daa8e22ff94ec1f30e
laravel|laravel+laravel|8a119d7f4461c73b47197b80f4cecb3c97796919
laravel-framework|laravel+framework|bd71b45fbb7e672957bf6ff61baddefe15fbca6a
spring-petclinic|spring-projects+spring-petclinic|edf4db28affcc4741c79850a3d95bc3f177b5ff9
compose|docker+compose|f72979427042620a94dd52ce78b39c68cb02c085
invoke|pyinvoke+invoke|6a71e680c535ba6520e935c497099fbca011d03c
tldr|tldr-pages+tldr|08e345f42639f67d99282813247ac670dc6e87cb
helm-charts|prometheus-community+helm-charts|cf408a290aec489277a94450bb3511432477a53a
aider|Aider-AI+aider|5dc9490bb35f9729ef2c95d00a19ccd30c26339c
express|expressjs+express|a3714473feb3d2908add734d340e7755fd85e0a3'

: >"$work/trees.tsv"
while IFS='|' read -r name src commit; do
	case " ${TREES_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	dir=$(gitdir "$src") || exit 2
	if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "eval-trees: $src has no commit $commit (clone a newer snapshot)" >&2
		exit 2
	fi
	# A scratch clone borrowing the clone's objects (nothing is written into the clone), with
	# the pinned commit checked out: HEAD for tollgate, the files on disk for gitleaks. A
	# snapshot may lack some large blobs: those files are left out of the checkout (gitleaks
	# cannot read them either) and tollgate reports them as not run.
	tree="$work/trees/$name"
	git clone -q --shared --no-checkout "$dir" "$tree"
	gone=$(git -C "$tree" ls-tree -r "$commit" | awk '$2 == "blob" { print $3 }' |
		git -C "$tree" cat-file --batch-check | awk '$2 == "missing" { print $1 }')
	absent=
	[ -z "$gone" ] || absent=$(git -C "$tree" ls-tree -r "$commit" | grep -F -f <(echo "$gone") | cut -f2)
	if [ -n "$absent" ]; then
		echo "$name: the snapshot lacks $(wc -l <<<"$absent") blob(s), left out of the checkout: $(tr '\n' ' ' <<<"$absent")"
		git -C "$tree" config core.sparseCheckout true
		{
			echo '/*'
			sed 's/[][*?!#\\]/\\&/g; s|^|!/|' <<<"$absent"
		} >"$tree/.git/info/sparse-checkout"
	fi
	git -C "$tree" -c advice.detachedHead=false checkout -q --detach "$commit" 2>/dev/null
	files=$(git -C "$tree" ls-files | wc -l)
	status=0
	t0=$(date +%s%N)
	(cd "$tree" && "$bin" review --all --format json --output "$work/$name.tg.json" --fail-on critical 2>"$work/$name.tg.err") || status=$?
	if [ "$status" -gt 3 ] || [ "$status" -eq 2 ]; then
		echo "eval-trees: review of $name exited $status: $(head -c 2000 "$work/$name.tg.err")" >&2
		exit 1
	fi
	t1=$(date +%s%N)
	(cd "$tree" && "$gitleaks" dir --no-banner --log-level error --exit-code 0 \
		--report-format json --report-path "$work/$name.gl.json" . >/dev/null)
	t2=$(date +%s%N)
	tms=$(((t1 - t0) / 1000000)) gms=$(((t2 - t1) / 1000000))
	ttot=$((${ttot:-0} + tms)) gtot=$((${gtot:-0} + gms)) ftot=$((${ftot:-0} + files))
	echo "$name: $files files at ${commit:0:12}, tollgate exit $status, tollgate ${tms} ms, gitleaks ${gms} ms"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$src" "$commit" "$work/$name.tg.json" "$work/$name.gl.json" "$files" \
		"$(grep -c . <<<"$absent" || true)" >>"$work/trees.tsv"
	[ -n "${TREES_KEEP:-}" ] || rm -rf "$tree"
done <<<"$trees"

awk -v t="${ttot:-0}" -v g="${gtot:-0}" -v f="${ftot:-0}" 'BEGIN {printf "time: %d files, tollgate %d ms, gitleaks %d ms, ratio %.2f\n", f, t, g, (g > 0 ? t / g : 0)}'
go run "$root/scripts/treereport.go" "$root/scripts/labelmatch.go" -labels "$root/scripts/trees-labels.tsv" -trees "$work/trees.tsv" \
	${TREES_VERBOSE:+-v} ${TREES_EMIT:+-emit}
