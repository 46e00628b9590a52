package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Routes around the hooks (issue 27 §4): git plumbing that commits or pushes without the
// hooks, another repository's git dir, a clone of the project, another global configuration,
// a work tree inside .git, hook-skipping aliases. Each catch is denied; the leave-alones are the
// same commands doing what they normally do. The project is /home/u/project, home /home/u.
var routesTable = []tableRow{
	// plumbing that pushes or commits without the hooks
	{"D", `git send-pack origin main`},
	{"D", `git send-pack --all /srv/repo.git`},
	{"D", `git http-push https://example.invalid/r.git main`},
	{"D", `git commit-tree HEAD^{tree} -p HEAD -m x`},
	{"D", `c=$(git commit-tree HEAD^{tree} -m x) && git update-ref refs/heads/main $c && git push`},
	{"D", `git fast-import < stream.fi`},
	{"D", `git -c alias.sp=send-pack sp origin main`},
	{"A", `git update-ref refs/heads/main 1a2b3c4d`},
	{"A", `git update-ref --stdin < refs.txt`},
	{"A", `git update-ref HEAD 1a2b3c4d`},
	{"N", `git update-ref refs/tags/seen HEAD`},
	{"N", `git commit -m "never use git send-pack or git commit-tree"`},
	{"N", `echo 'git send-pack skips pre-push'`},
	// a clone of the project has none of its hooks
	{"D", `git clone . /tmp/x && cd /tmp/x && git push`},
	{"D", `git clone /home/u/project /tmp/x && git -C /tmp/x push origin main`},
	{"D", `git clone file:///home/u/project ../copy && cd ../copy && git commit -am x`},
	{"D", `git clone --depth 1 ./ /tmp/y && cd /tmp/y/sub && git commit -m x`},
	{"D", `git init /tmp/y && cd /tmp/y && git pull /home/u/project main && git push https://example.invalid/r.git`},
	{"D", `cd /tmp/y && git remote add p /home/u/project && git fetch p && git push origin p/main:main`},
	{"D", `HOME=/tmp/h bash -c 'git commit -m x'`},
	{"N", `cd /tmp/y && git pull https://example.invalid/r.git && git push`},
	{"N", `git pull /home/u/project main`},
	{"A", `cd "$X" && git commit -m x`},
	{"D", `cd "$X" && GIT_DIR=/tmp/c git push`},
	{"A", `git -C "$REPO" push`},
	{"N", `cd "$X" && git status`},
	{"N", `git clone . /tmp/x`},
	{"N", `git clone . /tmp/x && cd /tmp/x && git log --oneline`},
	{"N", `git clone https://github.com/o/r /tmp/r && cd /tmp/r && git push`},
	{"N", `git clone git@github.com:o/r.git && cd r && git commit -m x`},
	// another git dir: another repository's hooks, or none
	{"D", `GIT_DIR=/tmp/copy.git git push`},
	{"D", `export GIT_DIR=/tmp/copy; git commit -m x`},
	{"D", `env GIT_DIR=/tmp/copy git push origin main`},
	{"D", `git --git-dir=/tmp/copy.git push origin main`},
	{"D", `git --git-dir /tmp/copy.git --work-tree=. commit -m x`},
	{"D", `GIT_DIR="$(mktemp -d)" git commit -m x`},
	{"D", `GIT_COMMON_DIR=/tmp/c git commit -m x`},
	{"D", `cp -r .git /tmp/g && GIT_DIR=/tmp/g GIT_WORK_TREE=. git commit -m x`},
	{"N", `GIT_DIR=.git git commit -m x`},
	{"N", `git --git-dir=/home/u/project/.git push`},
	{"N", `git --git-dir=/tmp/other.git log --oneline`},
	{"N", `GIT_DIR=/tmp/other.git git status`},
	// writes into .git/hooks through git
	{"D", `git --work-tree=.git/hooks checkout-index -a`},
	{"D", `git --work-tree=.git/hooks checkout HEAD -- pre-commit`},
	{"D", `git --work-tree=.git checkout-index -f hooks/pre-commit`},
	{"D", `GIT_WORK_TREE=.git/hooks git checkout -f`},
	{"D", `git -c core.worktree=.git/hooks checkout .`},
	{"D", `git config core.worktree .git/hooks`},
	{"D", `git checkout-index --prefix=.git/hooks/ -a`},
	{"D", `git worktree add .git/hooks/w`},
	{"D", `git clone . .git/hooks/x`},
	{"D", `git archive -o .git/hooks/pre-commit HEAD`},
	{"D", `git diff --output=.git/hooks/pre-push HEAD`},
	{"D", `git format-patch -o .husky HEAD~1`},
	{"D", `git config -f .git/hooks/pre-commit core.x y`},
	{"D", `cd .git/hooks && git init`},
	{"A", `gh api -X PUT repos/o/r/contents/src/app.go -f message=x -f content=eA==`},
	{"A", `gh api repos/o/r/git/refs/heads/main -X PATCH -f sha=1a2b3c`},
	{"A", `gh api graphql -f query='mutation { createCommitOnBranch(input: {}) { commit { url } } }'`},
	{"N", `gh api repos/o/r/contents/README.md`},
	{"N", `gh api repos/o/r/pulls`},
	{"N", `git config -f .gitmodules submodule.x.url https://example.invalid/x`},
	{"N", `git config -f ~/.gitconfig user.name "A B"`},
	{"D", `git config -f ~/.gitconfig core.hooksPath /dev/null`},
	{"N", `git config --file .git/config user.email a@example.invalid`},
	{"N", `git init /tmp/fresh`},
	{"D", `ln -s .git/hooks h && cp /bin/true h/pre-commit`},
	{"D", `ln -s /home/u/project/.git/hooks/pre-commit x; echo 'exit 0' > x`},
	{"N", `ln -s .git/hooks h`},
	{"N", `ln -s ../README.md docs/readme.md && echo x > docs/readme.md`},
	{"N", `git checkout-index -a --prefix=/tmp/export/`},
	{"N", `git worktree add ../wt feature`},
	{"N", `git diff --output=/tmp/x.patch HEAD`},
	{"N", `git format-patch -o /tmp/patches HEAD~3`},
	{"N", `git archive -o /tmp/src.tar HEAD`},
	{"N", `git -c core.worktree=. status`},
	{"N", `git --work-tree=. status`},
	// another global or system configuration, where core.hooksPath can be set
	{"D", `HOME=/tmp/h git commit -m x`},
	{"D", `HOME=$(mktemp -d) git push`},
	{"D", `export HOME=/tmp/h; git commit -m x`},
	{"D", `export HOME=$(mktemp -d); git push`},
	{"D", `env HOME=/tmp/h git push`},
	{"D", `sudo HOME=/tmp/h git commit -m x`},
	{"D", `XDG_CONFIG_HOME=/tmp/c git commit -m x`},
	{"D", `GIT_CONFIG_SYSTEM=/tmp/g git commit -m x`},
	{"D", `export GIT_CONFIG_GLOBAL=/tmp/g; git commit -m x`},
	{"D", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0= git push`},
	{"D", `echo '[core] hooksPath = /dev/null' >> ~/.gitconfig`},
	{"D", `printf '[core]\n' > ~/.config/git/config`},
	{"N", `HOME=/home/u git commit -m x`},
	{"N", `HOME=/tmp/h npm test`},
	{"N", `HOME=/tmp/h git status`},
	{"N", `HOME=/tmp/h npm ci && git commit -m x`},
	{"N", `env HOME=/tmp/h npm test; git push`},
	{"N", `XDG_CONFIG_HOME=/home/u/.config git commit -m x`},
	{"N", `cat ~/.gitconfig`},
	{"N", `git config --global user.name "A B"`},
	// extensions.worktreeConfig and config.worktree
	{"D", `git config extensions.worktreeConfig true`},
	{"D", `git config set extensions.worktreeconfig true`},
	{"D", `git -c extensions.worktreeConfig=true commit -m x`},
	{"D", `echo '[core] hooksPath = /dev/null' > .git/config.worktree`},
	{"D", `echo x >> .git/worktrees/w/config.worktree`},
	{"N", `git config extensions.worktreeConfig`},
	{"N", `git config --get extensions.worktreeConfig`},
	// aliases whose body skips the hooks
	{"D", `git config alias.ci '!git commit --no-verify'`},
	{"D", `git config alias.ci 'commit -n'`},
	{"D", `git config --global alias.p 'push --no-verify'`},
	{"D", `git config --add alias.x '!sh -c "git commit -n -m x"'`},
	{"D", `git config alias.h '!git -c core.hooksPath=/dev/null commit'`},
	{"D", `git config set alias.y "!HUSKY=0 git commit"`},
	{"N", `git config alias.st status`},
	{"N", `git config alias.lg 'log --oneline --graph'`},
	{"N", `git config alias.ci 'commit -v'`},
	{"N", `git config alias.nuke 'reset --hard'`},
	{"N", `git config --get alias.ci`},
	// remote databases (issue 27 §7): a server that is not this machine is asked, whatever runs
	{"A", `psql -h prod -c 'select 1'`},
	{"A", `psql "$DATABASE_URL" -c 'select 1'`},
	{"A", `psql -h "$DBHOST" app`},
	{"A", `mysql --host=prod -e 'show tables'`},
	{"A", `mysql -h prod`},
	{"A", `pg_dump -h prod app > dump.sql`},
	{"A", `export PGHOST=prod; pg_dump app > dump.sql`},
	{"A", `redis-cli -h cache.example.com GET k`},
	{"A", `mongosh db.example.com/app`},
	{"N", `psql -U "$USER" -c 'select 1'`},
	{"N", `redis-cli -h localhost SET k "$V"`},
	{"N", `psql app -c "select $ID"`},
	{"N", `pg_dump app > dump.sql`},
	{"N", `redis-cli ping`},
	{"N", `mongosh app`},
	{"N", `mysql -h 127.0.0.1 -e 'select 1'`},
	{"N", `psql -h /var/run/postgresql app`},
	// long options abbreviated, as git's option parser accepts them
	{"A", `git push --forc origin main`},
	{"A", `git push --mir origin`},
	{"A", `git worktree remove --forc /tmp/wt`},
	{"A", `git reset --ha HEAD~1`},
	{"A", `git branch --del --forc feature`},
	{"A", `git switch --discard-ch main`},
	{"N", `git rm --ca .env`},
	{"N", `git push --dry origin main`},
}

func TestRoutesTable(t *testing.T) { checkRows(t, routesTable, testOptions(), "") }

// A clone of the project made in an earlier call is found by its config naming the project as
// a remote: a commit or push there skips the project's hooks.
func TestRoutesCloneOnDisk(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "project")
	clone := filepath.Join(root, "clone")
	other := filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(project, ".git"), filepath.Join(clone, ".git"), filepath.Join(clone, "sub"), filepath.Join(other, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(clone, ".git", "config"), "[remote \"origin\"]\n\turl = "+project+"\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n")
	write(filepath.Join(other, ".git", "config"), "[remote \"origin\"]\n\turl = https://example.invalid/o/r.git\n")
	o := Options{Project: project, Home: "/home/u", Temp: []string{"/tmp"}}
	for _, c := range []struct {
		want, cwd, cmd string
	}{
		{"D", clone, `git push`},
		{"D", filepath.Join(clone, "sub"), `git commit -m x`},
		{"D", project, `git -C ` + clone + ` push origin main`},
		{"D", project, `cd ` + clone + ` && git commit -am x`},
		{"N", clone, `git log --oneline`},
		{"N", other, `git push`},
		{"N", project, `git push`},
	} {
		ans := Decide(Call{Tool: "Bash", Kind: Shell, Command: c.cmd, Cwd: c.cwd}, o)
		if got := letter(ans.Verdict); got != c.want {
			t.Errorf("%s (in %s) want %s, got %s (%s: %s)", c.cmd, strings.TrimPrefix(c.cwd, root), c.want, got, ans.Rule, ans.Reason)
		}
	}
}

// git --config-env KEY=ENVVAR: the key is known, the value is not; an alias whose body is
// only known at run time is asked about when it is used.
var configEnvTable = []tableRow{
	{"N", `git --config-env submodule.recurse=RECURSE_SUBMODULES status`},
	{"D", `git --config-env core.hooksPath=X commit -m x`},
	{"D", `git --config-env=core.hooksPath=X commit -m x`},
	{"D", `git --config-env=include.path=X status`},
	{"D", `git --config-env`},
	{"D", `git --config-env "$PAIR" status`},
	{"A", `git --config-env core.editor=ED commit`},
	{"A", `git --config-env=alias.x=V x`},
	{"A", `git -c alias.x="$V" x`},
	{"N", `git -c alias.x="$V" status`},
}

func TestConfigEnvTable(t *testing.T) { checkRows(t, configEnvTable, testOptions(), "") }

// PATH in front of a hook-running git command: a directory an agent may write (the project,
// a temp dir) or one only known at run time asks; appending, system or user directories pass.
var hookPATHTable = []tableRow{
	{"A", `PATH=/tmp/b:$PATH git commit -m x`},
	{"A", `export PATH=/tmp/b:$PATH; git commit -m x`},
	{"A", `PATH=./node_modules/.bin:$PATH git commit -m x`},
	{"A", `PATH=/tmp/b git push`},
	{"A", `PATH=$X:$PATH git push`},
	{"N", `PATH=$PATH:/tmp/b git commit -m x`},
	{"N", `PATH=/usr/bin:/bin git commit -m x`},
	{"N", `export PATH=$HOME/go/bin:$PATH; go build ./... && git commit -m x`},
	{"N", `PATH=/tmp/b:$PATH git status`},
	{"N", `PATH=./node_modules/.bin:$PATH jest`},
}

func TestHookPATHTable(t *testing.T) { checkRows(t, hookPATHTable, testOptions(), "") }

// Commands git runs for a remote: an ext:: URL's command, --upload-pack, --receive-pack,
// --exec and remote.*.uploadpack are judged as the commands they are.
var remoteRunnerTable = []tableRow{
	{"A", `git clone 'ext::sh -c rm% -rf% ~' x`},
	{"D", `git remote add evil 'ext::sh -c git% commit% --no-verify'`},
	{"A", `git submodule add 'ext::sh -c rm% -rf% /' m`},
	{"D", `git -c protocol.ext.allow=always fetch 'ext::sh -c touch% .git/hooks/pre-commit'`},
	{"A", `git fetch --upload-pack='rm -rf ~' /srv/repo`},
	{"A", `git clone -u 'rm -rf ~' /srv/repo x`},
	{"A", `git ls-remote --upload-pack='rm -rf ~' /srv/repo`},
	{"A", `git push --receive-pack='rm -rf ~' origin`},
	{"A", `git config remote.origin.uploadpack 'rm -rf ~'`},
	{"N", `git clone https://github.com/a/b`},
	{"N", `git clone -u git-upload-pack /srv/repo x`},
	{"N", `git remote add origin git@github.com:a/b.git`},
}

func TestRemoteRunnerTable(t *testing.T) { checkRows(t, remoteRunnerTable, testOptions(), "") }
