package guard

import "testing"

// Issue 27, the second pass: calls other guards' public suites showed the guard let through
// without understanding them. Our own spellings of each class. D = deny, A = ask, N = no
// objection; the project is /home/u/project (not on disk).
var guard2Table = []tableRow{
	// xargs options that take a value (-J, -R, -S) and --replace= with an empty value
	{"A", `echo / | xargs --replace= bash -c 'rm -rf {}'`},
	{"A", `echo / | xargs -J {} rm -rf {}`},
	{"A", `echo ok | xargs -R 2 python -c 'import os; os.system("rm -rf /")'`},
	{"A", `echo ok | xargs -S 4096 awk 'BEGIN { system("rm -rf /") }'`},
	{"N", `echo a b | xargs -n1 echo`},
	{"N", `find . -name '*.go' | xargs wc -l`},
	{"N", `echo a.txt | xargs -J % cp % backup/`},
	{"N", `ls | xargs -S 1024 -R 3 -I{} echo {}`},
	// env - (an empty environment, as -i) and BSD env -P PATH before the command
	{"A", `env - git reset --hard`},
	{"A", `env -P /usr/bin git reset --hard`},
	{"A", `env -i git reset --hard`},
	{"N", `env - PATH=/bin ls`},
	{"N", `env -P /usr/bin git status`},
	// parallel's command read both as joined (its default) and with each word kept whole (-q)
	{"A", `parallel bash -c 'rm -rf {}' ::: /`},
	{"A", `parallel bash -c 'rm -rf {}' ::: build /`},
	{"A", `parallel sh -c 'git reset --hard' ::: ok`},
	{"A", `echo / | parallel bash -c 'rm -rf {}'`},
	{"N", `parallel gzip ::: a.log b.log`},
	{"N", `parallel bash -c 'echo {}' ::: a b`},
	{"N", `echo x | parallel sh -c 'wc -l {}'`},
	// node -pe (print and eval in one cluster) carries the program
	{"A", `node -pe 'require("child_process").execSync("rm -rf /")'`},
	{"N", `node -pe '1+1'`},
}

func TestGuard2Table(t *testing.T) { checkRows(t, guard2Table, testOptions(), "") }
