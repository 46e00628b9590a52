package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Package scripts: npm test, npm run build, yarn build, pnpm lint, bun run dev run a command line
// from package.json. The nearest package.json from the working directory is read (bounded) and
// the script, with its pre and post scripts, is judged as a script on disk: the project's own
// code, judged by what it visibly does.

// npmScriptSubs are the npm subcommands that run a package script: the script named by the
// next word (run and its aliases), or the one named by the subcommand itself.
var npmScriptSubs = map[string]string{
	"run": "", "run-script": "", "rum": "", "urn": "",
	"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop", "restart": "restart",
}

// packageScript judges the package script a package manager call runs, if it runs one.
func (j *judge) packageScript(name string, args []arg) {
	k := firstOperandIndex(args, npmValues)
	if k < 0 || args[k].dyn {
		return
	}
	sub, script := args[k].s, ""
	if fixed, ok := npmScriptSubs[sub]; ok {
		script = fixed
		if fixed == "" {
			if k+1 >= len(args) || args[k+1].dyn {
				return
			}
			script = args[k+1].s
		}
	} else if name == "npm" {
		return // any other npm subcommand is npm's own
	} else {
		script = sub // yarn build, pnpm lint: a script when package.json has one by that name
	}
	scripts, where := j.packageScripts()
	body, ok := scripts[script]
	if !ok {
		return
	}
	j.onDisk++
	defer func() { j.onDisk-- }()
	before := j.best
	for _, s := range []string{scripts["pre"+script], body, scripts["post"+script]} {
		if s != "" {
			j.script(s)
		}
	}
	if j.best != before {
		j.best.Reason = where + " script " + script + " runs: " + j.best.Reason
	}
}

// packageScripts reads the scripts of the nearest package.json up from the working directory.
func (j *judge) packageScripts() (map[string]string, string) {
	dir := j.cwd
	for i := 0; i < 32 && dir != ""; i++ {
		p := filepath.Join(dir, "package.json")
		if _, err := os.Stat(p); err == nil {
			text, err := readBounded(p)
			if err != nil {
				return nil, ""
			}
			var pkg struct {
				Scripts map[string]string `json:"scripts"`
			}
			if json.Unmarshal([]byte(text), &pkg) != nil {
				return nil, ""
			}
			return pkg.Scripts, "package.json"
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return nil, ""
}
