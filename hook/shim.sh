#!/bin/sh
# >>> tollgate managed hook: do not edit; `tollgate uninstall` removes it <<<
# tollgate reviews what this {{HOOK}} is about to let out of this machine.
# Skip once, loudly: TOLLGATE=0 git ...
hook_name='{{HOOK}}'
# shellcheck disable=SC2016 # the path is quoted literally on purpose
tollgate_bin={{BIN}}
installed_bin=$tollgate_bin
hook_dir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd) || exit 1
chained="$hook_dir/$hook_name.tollgate-chained"

# The recursion guard names this repository and this operation (for a push, the remote and
# its URL): a hook that runs git into the very same hook again skips the chained hook there,
# which breaks the loop, while a push to another remote or a commit in another repository
# runs in full. tollgate's own review always runs.
here=$(pwd -P) || { echo "tollgate: error: cannot tell which repository this $hook_name runs in; blocking it" >&2; exit 1; }
guard_key="<$hook_name:$here:$*>"
nested=
# set here, never taken from the environment: git's stdin is replayed only when read below
replay=
have_replay=
case "${TOLLGATE_HOOK_ACTIVE:-}" in
*"$guard_key"*) nested=1 ;;
esac
TOLLGATE_HOOK_ACTIVE="${TOLLGATE_HOOK_ACTIVE:-}$guard_key"
export TOLLGATE_HOOK_ACTIVE

{{STDIN}}
# The kept hook: before the review where it may change what is reviewed (a pre-commit hook
# that formats and stages), after a passed review where it sends data (git-lfs's pre-push
# uploads objects: a blocked push must upload nothing).
review_first={{REVIEW_FIRST}}
run_chained() {
	[ -x "$chained" ] || return 0
	if [ -n "$nested" ]; then
		echo "tollgate: warning: nested $hook_name in the same repository (a hook ran git inside a hook): the existing hook is not run again; tollgate still reviews" >&2
	elif [ -n "$have_replay" ]; then
		printf '%s' "$replay" | "$chained" "$@" || { status=$?; echo "tollgate: the existing $hook_name hook failed (exit $status)" >&2; exit "$status"; }
	else
		"$chained" "$@" || { status=$?; echo "tollgate: the existing $hook_name hook failed (exit $status)" >&2; exit "$status"; }
	fi
}
[ -n "$review_first" ] || run_chained "$@"

if [ "${TOLLGATE:-}" = "0" ]; then
	echo "tollgate: warning: TOLLGATE=0 set: the $hook_name review was SKIPPED, nothing was checked" >&2
	[ -z "$review_first" ] || run_chained "$@"
	exit 0
fi

if [ ! -x "$tollgate_bin" ]; then
	tollgate_bin=$(command -v tollgate 2>/dev/null) || tollgate_bin=
fi
if [ -z "$tollgate_bin" ]; then
	echo "tollgate: error: the tollgate binary was not found (not at $installed_bin nor on PATH); blocking this $hook_name so nothing leaves unreviewed" >&2
	echo "tollgate: hint: reinstall tollgate and run 'tollgate install', or skip once with TOLLGATE=0" >&2
	exit 1
fi

# --shim: git's own hook, where the pre-commit framework's variables decide nothing.
if [ -n "$have_replay" ]; then
	printf '%s' "$replay" | "$tollgate_bin" hook "$hook_name" --shim "$@" || exit
else
	"$tollgate_bin" hook "$hook_name" --shim "$@" || exit
fi
[ -z "$review_first" ] || run_chained "$@"
