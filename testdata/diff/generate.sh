#!/bin/sh
# Regenerates the diff fixtures in this directory with the real git binary, using the flags
# tollgate passes (hook/git.go: hardening and diffFlags). Run from this directory:
#   sh generate.sh
# The review package's tests read the *.diff files; they never run git themselves.
set -eu
out=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home" LC_ALL=C
mkdir -p "$HOME"
G() {
	git -c color.ui=never -c color.diff=never -c core.quotepath=off -c core.pager=cat \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.relative=false \
		-c diff.external= -c diff.renames=true -c diff.ignoreSubmodules=none \
		-c protocol.file.allow=always --no-pager --no-replace-objects "$@"
}
FLAGS="--no-color --no-ext-diff --no-textconv --src-prefix=a/ --dst-prefix=b/ --no-relative --ignore-submodules=none --diff-algorithm=myers --inter-hunk-context=0 --indent-heuristic"
# staged NAME [extra flags]: the staged change as tollgate reads it (-U0 unless overridden).
staged() {
	name=$1
	shift
	# shellcheck disable=SC2086
	G diff-index --cached -r -M -p -U0 $FLAGS "$@" --end-of-options HEAD >"$out/$name.diff"
}
commit() {
	G add -A
	G commit -q -m "$1"
}
fresh() {
	rm -rf "$tmp/r"
	G init -q "$tmp/r"
	cd "$tmp/r"
	echo seed >seed.txt
	commit seed
}

# added.diff: a new three-line file.
fresh
printf 'one\ntwo\nthree\n' >new.txt
G add -A
staged added

# deleted.diff: a deleted two-line file.
fresh
printf 'alpha\nbeta\n' >gone.txt
commit base
G rm -q gone.txt
staged deleted

# rename.diff: a pure rename (100% similar).
fresh
printf 'a\nb\nc\nd\ne\nf\ng\nh\n' >old.txt
commit base
G mv old.txt new.txt
staged rename

# rename_change.diff: a rename with one line changed.
fresh
printf 'a\nb\nc\nd\ne\nf\ng\nh\n' >old.txt
commit base
G mv old.txt new.txt
printf 'a\nb\nc\nD\ne\nf\ng\nh\n' >new.txt
G add -A
staged rename_change

# copy.diff: a copy with one appended line (-C --find-copies-harder).
fresh
printf 'a\nb\nc\nd\ne\nf\ng\nh\n' >orig.txt
commit base
cp orig.txt copy.txt
echo i >>copy.txt
G add -A
staged copy -C --find-copies-harder

# mode.diff: a mode-only change.
fresh
printf '#!/bin/sh\necho hi\n' >run.sh
commit base
chmod +x run.sh
G add -A
staged mode

# binary.diff: a new binary file, and a changed one.
fresh
printf 'GIF89a\000\001\002' >img.gif
commit base
printf 'GIF89a\000\003\004' >img.gif
printf '\000\001binary' >blob.bin
G add -A
staged binary

# nonewline.diff: the last line loses, gains, or keeps no final newline.
fresh
printf 'keep\nlast' >gain.txt
printf 'keep\nlast\n' >lose.txt
printf 'x\nold' >both.txt
commit base
printf 'keep\nlast\n' >gain.txt
printf 'keep\nlast' >lose.txt
printf 'x\nnew' >both.txt
printf 'only' >fresh.txt
G add -A
staged nonewline

# hunks.diff: several hunks in one file, each kind of change.
fresh
seq 1 30 >nums.txt
commit base
seq 1 30 | sed -e 's/^3$/three/' -e '/^10$/d' -e 's/^20$/20\nadded-after-20/' -e '/^25$/d' -e 's/^26$/twenty-six/' >nums.txt
echo 31 >>nums.txt
G add -A
staged hunks

# context.diff: -U3 output whose context holds empty lines.
fresh
printf 'first\n\nsecond\n\nthird\n\n\nfourth\n' >gaps.txt
commit base
printf 'first\n\nsecond\n\nTHIRD\n\n\nfourth\n' >gaps.txt
G add -A
staged context -U3

# quoted.diff: names git quotes (tab, newline, double quote, backslash) and a non-ASCII one
# (not quoted under core.quotepath=off; quoted_octal.diff has it under git's default quotepath=on),
# added; then one of them renamed and another deleted (quoted_rename.diff).
fresh
printf 'tab\n' >"$(printf 'a\tb.txt')"
printf 'nl\n' >"$(printf 'new\nline.txt')"
printf 'quote\n' >'say "hi".txt'
printf 'bs\n' >'back\slash.txt'
printf 'utf\n' >'café ü.txt'
G add -A
staged quoted
G -c core.quotepath=on diff-index --cached -r -M -p -U0 $FLAGS --end-of-options HEAD -- 'café ü.txt' >"$out/quoted_octal.diff"
commit names
G mv 'say "hi".txt' "$(printf 'moved\tto "x".txt')"
G rm -q "$(printf 'new\nline.txt')"
staged quoted_rename

# submodule.diff: a gitlink added, then moved to another commit (diff-tree output).
fresh
G init -q "$tmp/sub"
(cd "$tmp/sub" && echo s >s && G add -A && G commit -q -m s && echo t >t && G add -A && G commit -q -m t)
G submodule --quiet add "$tmp/sub" lib >/dev/null 2>&1
(cd lib && G checkout -q HEAD~1)
commit sub
(cd lib && G checkout -q master 2>/dev/null || G checkout -q main)
commit bump
# shellcheck disable=SC2086
G diff-tree -r -M -p -U0 $FLAGS --end-of-options HEAD~2 HEAD~1 | sed "s#$tmp/sub#/tmp/sub#" >"$out/submodule_add.diff"
# shellcheck disable=SC2086
G diff-tree -r -M -p -U0 $FLAGS --end-of-options HEAD~1 HEAD >"$out/submodule.diff"

# commit.diff: diff-tree -p of a commit touching two files (one modified, one added).
fresh
printf 'line1\nline2\nline3\n' >a.txt
commit base
printf 'line1\nchanged\nline3\nline4\n' >a.txt
printf 'z\n' >z.txt
commit change
# shellcheck disable=SC2086
G diff-tree -r -M -p -U0 $FLAGS --end-of-options HEAD~1 HEAD >"$out/commit.diff"
