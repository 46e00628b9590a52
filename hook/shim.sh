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

if [ "${TOLLGATE_HOOK_ACTIVE:-}" = "$hook_name" ]; then
	echo "tollgate: warning: nested $hook_name hook (a hook ran git inside a hook); not reviewing it twice" >&2
	exit 0
fi
TOLLGATE_HOOK_ACTIVE=$hook_name
export TOLLGATE_HOOK_ACTIVE

{{STDIN}}
if [ -x "$chained" ]; then
	if [ -n "${input:-}" ]; then
		"$chained" "$@" <"$input" || { status=$?; echo "tollgate: the existing $hook_name hook failed (exit $status)" >&2; exit "$status"; }
	else
		"$chained" "$@" || { status=$?; echo "tollgate: the existing $hook_name hook failed (exit $status)" >&2; exit "$status"; }
	fi
fi

if [ "${TOLLGATE:-}" = "0" ]; then
	echo "tollgate: warning: TOLLGATE=0 set: the $hook_name review was SKIPPED, nothing was checked" >&2
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

if [ -n "${input:-}" ]; then
	"$tollgate_bin" hook "$hook_name" "$@" <"$input"
else
	"$tollgate_bin" hook "$hook_name" "$@"
fi
