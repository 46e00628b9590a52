package guard

import "testing"

// suitesTable holds the classes the public guard suites measured by scripts/eval-guard.sh
// showed tollgate judging wrong, each with a catch and a leave-alone. The cases are our own
// spellings of each class, not the suites' strings. D = deny, A = ask, N = no objection; the
// project is /home/u/project.
var suitesTable = []tableRow{
	// a usage request runs nothing: git prints the usage (-h, --help anywhere before "--")
	{"N", `git restore --help`},
	{"N", `git checkout src/a.go -h`},
	{"N", `git reset --hard --help`},
	{"A", `git restore src/a.go`},
	{"A", `git checkout -- -h`},
	{"D", `git commit --no-verify -h`},
	{"A", `git bisect run rm -rf /home/u -h`},
	{"A", `git bisect run sh -c 'rm -rf /home/u'`},
	{"N", `git bisect run make test`},
	{"D", `git submodule foreach git commit -n -m sync`},
	{"D", `git submodule foreach --recursive sh -c 'git push --no-verify'`},
	{"N", `git submodule foreach --recursive git status`},
	{"N", `git submodule foreach`},
	{"A", `git submodule foreach 'rm -rf /home/u'`},

	// git restore writes the work tree only with paths, and the last of each switch pair counts
	{"N", `git restore`},
	{"N", `git restore --worktree`},
	{"N", `git restore --no-worktree src/a.go`},
	{"N", `git restore -W --no-worktree src/a.go`},
	{"N", `git restore --staged src/a.go`},
	{"N", `git restore -p --no-patch`},
	{"N", `git restore --no-staged src/a.go`},
	{"N", `git restore -S --no-staged src/a.go`},
	{"A", `git restore --no-staged -W src/a.go`},
	{"A", `git restore --staged --worktree src/a.go`},
	{"A", `git restore -SW src/a.go`},
	{"A", `git restore --no-worktree --worktree src/a.go`},
	{"A", `git restore -p`},
	{"A", `git restore --pathspec-from-file=list.txt`},
	// -U/--unified and --inter-hunk-context take a value (the next word)
	{"N", `git checkout --unified 5 feature`},
	{"N", `git checkout -U 5 feature`},
	{"A", `git restore --inter-hunk-context --staged src/a.go`},
	{"A", `git checkout --unified 5 feature src/a.go`},

	// git checkout: a list of paths overwrites them; making a branch refuses paths
	{"A", `git checkout HEAD~1 --pathspec-from-file=list.txt`},
	{"A", `git checkout --pathspec-from-fi list.txt`},
	{"N", `git checkout -b topic start more words`},
	{"N", `git checkout --track upstream extra`},
	{"N", `git checkout --orphan fresh`},
	{"A", `git checkout -B topic -f`},
	{"A", `git checkout v1.0 docs`},

	// reset --merge and the --abort of a merge, rebase, cherry-pick, revert or am discard work
	{"A", `git reset --merge HEAD~2`},
	{"A", `git reset --me`},
	{"N", `git reset --keep HEAD~1`},
	{"N", `git reset HEAD src/a.go`},
	{"A", `git merge --abort`},
	{"A", `git rebase --abo`},
	{"A", `git cherry-pick --abort`},
	{"A", `git revert --abort`},
	{"A", `git am --abort`},
	{"N", `git merge --continue`},
	{"N", `git rebase --continue`},
	{"N", `git revert HEAD`},
	{"N", `git merge --no-ff topic`},

	// deleting a tag
	{"A", `git tag -d v2.0`},
	{"A", `git tag --delete v2.0 v2.1`},
	{"N", `git tag -a v2.0 -m release`},
	{"N", `git tag -l 'v*'`},
	{"N", `git tag -m -d v2.0`},

	// a recursive deletion reaching the whole project (or a whole temp dir) is asked; a part
	// of it, or a glob naming some entries only, stays no objection
	{"A", `find . -delete`},
	{"A", `find -type f -delete`},
	{"A", `find . ! -name keep.txt -delete`},
	{"A", `find . -name '*' -delete`},
	{"A", `find . -name x -o -type f -delete`},
	{"A", `find "$DIR" -delete`},
	{"A", `find . -exec rm -r {} +`},
	{"A", `find /home/u/project -mindepth 1 -exec rm -rf {} \;`},
	{"A", `rm -rf ./*`},
	{"A", `rm -rf /tmp`},
	{"A", `rm -rf /tmp/*`},
	{"A", `cd /tmp && rm -rf *`},
	{"A", `find /tmp -depth -delete`},
	{"N", `find build -delete`},
	{"N", `find . -name '*.pyc' -delete`},
	{"N", `find . -type d -name __pycache__ -exec rm -rf {} +`},
	{"N", `find dist -exec rm -rf {} +`},
	{"N", `find . -type f -exec grep -l TODO {} +`},
	{"N", `rm -rf build*`},
	{"N", `rm -rf ./*.egg-info`},
	{"N", `rm -rf /tmp/session-*`},
	// an ssh command is judged only for a git call that may start ssh
	{"N", `GIT_SSH_COMMAND=./helper git status`},
	{"N", `GIT_SSH_COMMAND=./helper git archive HEAD`},
	{"N", `git -c core.sshCommand=./helper status`},
	{"N", `git -c core.sshCommand="rm -rf /" log`},
	{"A", `GIT_SSH_COMMAND=./helper git fetch`},
	{"A", `GIT_SSH_COMMAND=./helper git archive --remote=origin HEAD`},
	{"A", `git -c core.sshCommand="rm -rf /" push`},
	{"A", `GIT_SSH_COMMAND="rm -rf /" git lfs push`},
	{"A", `GIT_SSH_COMMAND="rm -rf /" git my-alias`},
	{"A", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0="rm -rf /" git pull`},
	{"A", `git config core.sshCommand "rm -rf /"`},
	// GIT_CONFIG_COUNT pairs on git's own prefix are read as git -c pairs
	{"N", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status git st`},
	{"N", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0=ssh git status`},
	{"D", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x`},
	{"D", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.c GIT_CONFIG_VALUE_0="commit --no-verify" git c -m x`},
	{"D", `GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status GIT_CONFIG_KEY_1=include.path GIT_CONFIG_VALUE_1=x git st`},
	{"D", `GIT_CONFIG_COUNT=$N GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status git st`},
	{"D", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=$K GIT_CONFIG_VALUE_0=x git st`},
	{"D", `export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status`},
	{"D", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status sh -c 'git st'`},
	{"A", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="!rm -rf /" git x`},
	// a subcommand's --version is an unknown option: git prints the usage and runs nothing
	{"N", `git restore file.txt --version`},
	{"N", `git reset --hard --version`},
	{"A", `git reset --hard -- --version`},
	// shred and srm exist so nothing can recover a file: asked, even in the project
	{"A", `shred -u secret.txt`},
	{"A", `eval "shred secret"`},
	{"A", `srm notes.txt`},
	{"N", `shred --help`},
	// a stray word where the command should be runs nothing; the rest is what the agent means
	{"A", `1A=2 git reset --hard`},
	{"A", `A-B=2 git reset --hard`},
	{"A", `=2 git reset --hard`},
	{"D", `--no-verify git commit -m 'message'`},
	{"N", `A-B=2 ls`},
	{"N", `"x=1" git status`},
	// a temp dir variable defaulting to a temp dir names a temp dir, set or not
	{"N", `rm -rf ${TMPDIR:-/tmp}/build`},
	{"N", `rm -rf "${TMP-/tmp}/x"`},
	{"A", `rm -rf ${TMPDIR:-/tmp}`},
	{"A", `rm -rf ${TMPDIR:-/home/u}/build`},
	{"A", `rm -rf ${FOO:-/tmp}/build`},
	{"N", `find /tmp/work -delete`},
	{"A", `find . -type f -exec shred -u {} +`},
	{"A", `find -type f -exec /bin/rm -f {} \;`},
	{"N", `find build -type f -exec rm -f {} +`},
	{"N", `find . -name '*.orig' -exec rm -f {} +`},
	{"N", `find . -type f -exec chmod 644 {} +`},
	// a primary's value is not an action: -uid -delete is a uid named "-delete"
	{"N", `find . -uid -delete -print`},
	{"N", `find . -path -delete`},
	{"A", `find . -fprintf list.txt '%p' -delete`},
	{"A", `find . -newermt 2024-01-01 -delete`},
	{"A", `find . -size +1M -delete`},

	// a disk tool given only image files writes those files; a device or an unknown word asks
	{"N", `mkfs.ext4 build/disk.img`},
	{"N", `mkfs.vfat -C fs.img 1440`},
	{"N", `wipefs -a scratch.raw`},
	{"A", `mkfs.ext4 /dev/sdb1`},
	{"A", `mkfs.ext4 -L data /dev/nvme0n1p2`},
	{"A", `mkfs -t ext4 "$DEVICE"`},
	{"A", `mkfs.ext4 /home/u/disk.img`},
	{"A", `sfdisk /dev/sda`},
	{"D", `mkfs.ext4 .git/hooks/pre-push`},
}

func TestSuitesTable(t *testing.T) { checkRows(t, suitesTable, testOptions(), "") }
