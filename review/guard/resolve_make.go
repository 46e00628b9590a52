package guard

import (
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Makefiles: a Makefile this call writes and then runs with make is judged by the recipes of
// the targets make runs (the first one when none is named; prerequisites too), each line as
// shell. A Makefile already on disk is the project's own build and is not read; one this call
// writes with content tollgate cannot know asks.

var makeValues = set("-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir", "-j", "--jobs", "-l", "-o", "-W", "--what-if")

func hMake(j *judge, name string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, makeValues)
	dir := ""
	if d, ok := optValue(opts, "-C", "--directory"); ok {
		dir = d
	}
	files := []string{"GNUmakefile", "makefile", "Makefile"}
	if f, ok := optValue(opts, "-f", "--file"); ok {
		files = []string{f}
	}
	for _, f := range files {
		p, ok := j.abs(filepath.Join(dir, f))
		if !ok {
			continue
		}
		w := j.written[p]
		if w == nil {
			continue // on disk, or not there: make's own business
		}
		if !w.known {
			j.add(Ask, "guard/unread-script", name+" runs "+f+", which this command writes with content tollgate cannot read; a person must check it")
			return
		}
		var targets []string
		for _, a := range ops {
			if !a.dyn && !strings.Contains(a.s, "=") {
				targets = append(targets, a.s)
			}
		}
		before := j.best
		for _, line := range recipes(w.text, targets) {
			j.script(line)
		}
		if j.best != before {
			j.best.Reason = f + " runs: " + j.best.Reason
		}
		return
	}
}

var (
	makeRule = lazyre.New(`^([^\s:=#][^:=#]*?)\s*::?(?:[^=]|$)(.*)$`)
	makeVar  = lazyre.New(`\$[({][A-Za-z_][A-Za-z0-9_.]*[)}]`)
)

// recipes returns the recipe lines make runs for targets (the first target when none), their
// prerequisites' first, make's variables left unknown, $$ as $.
func recipes(text string, targets []string) []string {
	rules := map[string][]string{}
	prereqs := map[string][]string{}
	first, cur := "", []string(nil)
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\t") && cur != nil {
			cmd := strings.TrimLeft(strings.TrimSpace(line), "@-+")
			cmd = makeVar.ReplaceAllStringFunc(cmd, func(v string) string { return "${MAKE_" + strings.Trim(v[2:len(v)-1], ".") + "}" })
			cmd = strings.ReplaceAll(cmd, "$$", "$")
			for _, t := range cur {
				rules[t] = append(rules[t], cmd)
			}
			continue
		}
		cur = nil
		m := makeRule.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		names := strings.Fields(m[1])
		for _, t := range names {
			if first == "" && !strings.HasPrefix(t, ".") {
				first = t
			}
			prereqs[t] = append(prereqs[t], strings.Fields(strings.SplitN(m[2], ";", 2)[0])...)
		}
		cur = names
	}
	if len(targets) == 0 && first != "" {
		targets = []string{first}
	}
	var out []string
	seen := map[string]bool{}
	var visit func(t string, depth int)
	visit = func(t string, depth int) {
		if seen[t] || depth > 16 || len(out) > maxCommands {
			return
		}
		seen[t] = true
		for _, p := range prereqs[t] {
			visit(p, depth+1)
		}
		out = append(out, rules[t]...)
	}
	for _, t := range targets {
		visit(t, 0)
	}
	return out
}
