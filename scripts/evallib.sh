# shellcheck shell=bash disable=SC2154 # root and clones are set by the script that sources this
# What the eval scripts share (sourced, not run): a scratch folder, the tollgate binary, a
# pristine HOME with a user config that sets no cap on findings, and finding clones.

# eval_setup NAME KEEP BIN: sets work (a new scratch folder, removed at exit unless KEEP is
# non-empty) and bin (BIN, or tollgate built from this checkout into work). Needs root.
eval_setup() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-$1.XXXXXX")
	[ -n "$2" ] || trap 'rm -rf "$work"' EXIT
	bin=$3
	if [ -z "$bin" ]; then
		bin="$work/tollgate"
		go build -o "$bin" "$root/cmd/tollgate"
	fi
	# Keep Go's caches where they are; give git and tollgate a pristine HOME.
	GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
	export GOMODCACHE GOCACHE GOPATH GIT_CONFIG_NOSYSTEM=1 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" NO_COLOR=1
	mkdir -p "$HOME/.config/tollgate"
	# Thousands of files or commits: no cap on findings, time enough for every scanner.
	printf '[review]\nmax_findings = 1000000\ntimeout = "900s"\n' >"$HOME/.config/tollgate/config.toml"
}

# gitdir NAME: the clone of owner+name inside the folder $clones (holding repo/, or itself a
# work tree or a bare git dir).
gitdir() {
	local d="$clones/$1"
	for c in "$d/repo" "$d"; do
		if [ -d "$c" ] && git -C "$c" rev-parse --git-dir >/dev/null 2>&1; then
			echo "$c"
			return
		fi
	done
	echo "$(basename "$0"): no clone of $1 in $clones" >&2
	return 1
}
