#!/usr/bin/env bash
# Labelled secret corpora, tollgate and the gitleaks CLI side by side (issue 29): each corpus is
# staged at a pinned commit into a scratch repository (never this one) and committed, then
# `tollgate review --all --format json` and `gitleaks dir` read the same files. Printed per
# corpus (scripts/secretreport.go): labelled items found (at any severity and at medium or
# above) and clean files flagged (files with no label). Goal: >= 60% found at medium or above,
# clean files blocked <= gitleaks' clean files flagged.
# Usage: scripts/eval-secrets.sh CLONES [TOLLGATE]   (CLONES holds owner+name clones as fetched;
# KEEP=1 keeps the scratch folder; VERBOSE=1 lists what each tool flags and misses)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/eval-secrets.sh CLONES [TOLLGATE]}
# shellcheck source=scripts/evallib.sh
. "$root/scripts/evallib.sh"
eval_setup secrets "${KEEP:-}" "${2:-}"
gitleaks_bin=${GITLEAKS:-$(command -v gitleaks || echo "$GOPATH/bin/gitleaks")}

# name owner+name commit folder-in-repo label-file-in-repo label-kind deeper-label-file|- [stage-under]
# - Samsung/CredSweeper: tests/samples, expected findings in tests/data/output.json (577
#   candidates); the 73 sample files with no candidate are its negative samples. Its deep scan's
#   findings (tests/data/depth_3_pedantic.json: archives and documents opened) name the samples
#   that are negative only because the default run does not open them; printed apart.
# - UD-X-Lab/SecretScout (the paper "SecretScout: Effective Hard-coded Secrets Detection in CI
#   Configuration Files"): its evaluation set, 1,000 CI configuration files in a tarball, labels
#   per file and line in a CSV. (globalbusinessadvisors/SecretScout and the other repositories of
#   that name are unrelated scanners without a labelled set.) Staged twice: flat, and under
#   .github/workflows/ as a repository holds its CI configs, where tollgate reports a CI
#   service's throwaway password (MYSQL_ROOT_PASSWORD: root) low, as it does in a real
#   repository. Its labels count such throwaways as secrets in some files and not in others.
# - FuzzingLabs/fuzzforge_ai: test_projects/secret_detection_benchmark, 32 secrets listed in
#   backend/benchmarks/by_category/secret_detection/secret_detection_benchmark_GROUND_TRUTH.json.
#   (The other fuzzforge repositories are forks or unrelated.)
corpora=(
	"credsweeper Samsung+CredSweeper 1ed2ca5cdd480667b938024464a37589b9af8564 tests/samples tests/data/output.json credsweeper tests/data/depth_3_pedantic.json"
	"secretscout UD-X-Lab+SecretScout 0d534a9e4ea5ae334ef31af2b94caa10ff0c3216 data/evaluation/evaluation-dataset.tar.gz data/evaluation/evaluation-dataset-labels.csv secretscout -"
	"secretscout-ci UD-X-Lab+SecretScout 0d534a9e4ea5ae334ef31af2b94caa10ff0c3216 data/evaluation/evaluation-dataset.tar.gz data/evaluation/evaluation-dataset-labels.csv secretscout - .github/workflows"
	"fuzzforge FuzzingLabs+fuzzforge_ai f200cb6fb7d1228bb7ac962341384ff3c57fd133 test_projects/secret_detection_benchmark backend/benchmarks/by_category/secret_detection/secret_detection_benchmark_GROUND_TRUTH.json fuzzforge -"
)
failed=0
for entry in "${corpora[@]}"; do
	read -r name repo commit folder labels kind deep under <<<"$entry"
	src=$(gitdir "$repo")
	dir="$work/$name"
	files_dir="$dir${under:+/$under}"
	mkdir -p "$files_dir"
	case "$folder" in
	*.tar.gz) git -C "$src" show "$commit:$folder" | tar -xz --no-same-owner -C "$files_dir" ;;
	*) git -C "$src" archive "$commit:$folder" | tar -x --no-same-owner -C "$files_dir" ;;
	esac
	# Not samples: the benchmark's own findings database, README and checker.
	rm -rf "$files_dir/.fuzzforge" "$files_dir/README.md" "$files_dir/validate_ground_truth.py" "$files_dir/__init__.py"
	git -C "$src" show "$commit:$labels" >"$work/$name.labels"
	report_flags=()
	if [ "$deep" != "-" ]; then
		git -C "$src" show "$commit:$deep" >"$work/$name.deep"
		report_flags=(-deep "$work/$name.deep")
	fi
	git -C "$dir" init -q
	git -C "$dir" add -A
	git -C "$dir" -c user.name=eval -c user.email=eval@example.invalid -c commit.gpgsign=false commit -q -m corpus --no-verify
	git -C "$dir" ls-files >"$work/$name.files"
	[ -z "$under" ] || report_flags+=(-under "$under/")
	status=0
	(cd "$dir" && "$bin" review --all --format json --output "$work/$name.json" --fail-on critical) || status=$?
	[ "$status" -le 1 ] || { echo "eval-secrets: review of $name exited $status" >&2; exit 1; }
	status=0
	(cd "$dir" && "$gitleaks_bin" dir --no-banner --log-level error --report-format json \
		--report-path "$work/$name.gitleaks.json" --exit-code 1 .) || status=$?
	[ "$status" -le 1 ] || { echo "eval-secrets: gitleaks on $name exited $status" >&2; exit 1; }
	go run "$root/scripts/secretreport.go" -corpus "$name ($repo@${commit:0:12})" -kind "$kind" \
		-labels "$work/$name.labels" -files "$work/$name.files" -tollgate "$work/$name.json" \
		-gitleaks "$work/$name.gitleaks.json" -root "$files_dir" -goal 60 "${report_flags[@]}" ${VERBOSE:+-v} || failed=1
done
[ -z "${KEEP:-}" ] || echo "eval-secrets: kept $work"
exit "$failed"
