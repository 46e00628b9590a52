package guard

import (
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Routes around the hooks: git commands that skip or replace the project's hooks without any
// --no-verify (plumbing that commits or pushes, another repository's git dir, a clone of the
// project, another global configuration, a work tree inside .git). Each is denied.

// routeState is what one call has done so far that later commands in it depend on.
type routeState struct {
	env    map[string]string       // every variable assigned in the call (values as rendered)
	clones []string                // clones of the project made in the call (absolute)
	piped  map[*syntax.Word]bool   // words of commands whose output goes into a pipe
	prefix map[*syntax.Assign]bool // assignments in front of a command (for it only)
}

func (j *judge) state() *routeState {
	if j.routes == nil {
		j.routes = &routeState{}
	}
	return j.routes
}

// notePrefix marks the assignments in front of a command (HOME=x git ...): they hold for that
// command only (judge.cmdEnv), not for the rest of the call.
func (j *judge) notePrefix(ce *syntax.CallExpr) {
	if len(ce.Args) == 0 || len(ce.Assigns) == 0 {
		return
	}
	s := j.state()
	if s.prefix == nil {
		s.prefix = map[*syntax.Assign]bool{}
	}
	for _, as := range ce.Assigns {
		s.prefix[as] = true
	}
}

// noteAssign remembers an assignment that holds for the rest of the call (VAR=x, export VAR=x;
// a dynamic value as rendered).
func (j *judge) noteAssign(as *syntax.Assign, val string) {
	if j.routes != nil && j.routes.prefix[as] {
		return
	}
	s := j.state()
	if s.env == nil {
		s.env = map[string]string{}
	}
	s.env[as.Name.Value] = val
}

// inherit is the environment of a command run inside another's payload (bash -c, env, xargs):
// the outer command's, with its own assignments over it.
func inherit(outer, own map[string]string) map[string]string {
	if len(outer) == 0 {
		return own
	}
	env := make(map[string]string, len(outer)+len(own))
	for k, v := range outer {
		env[k] = v
	}
	for k, v := range own {
		env[k] = v
	}
	return env
}

// setCmdEnv sets a variable for the command being judged (sudo VAR=value cmd).
func (j *judge) setCmdEnv(name, val string) {
	env := make(map[string]string, len(j.cmdEnv)+1)
	for k, v := range j.cmdEnv {
		env[k] = v
	}
	env[name] = val
	j.cmdEnv = env
}

// envSetting is a variable set on this command or earlier in the call, and whether it is.
func (j *judge) envSetting(name string) (string, bool) {
	if v, ok := j.cmdEnv[name]; ok {
		return v, true
	}
	if j.routes != nil {
		if v, ok := j.routes.env[name]; ok {
			return v, true
		}
	}
	return "", false
}

// hookSubs run hooks (or make what a hook would review): in another repository, with another
// configuration, they run other hooks or none.
var hookSubs = set("commit", "push", "merge", "am", "rebase", "pull", "cherry-pick", "revert", "send-email")

// plumbing makes commits or pushes without the hooks git runs for commit and push.
var plumbing = map[string]string{
	"send-pack":   "pushes without the pre-push hook; push with git push",
	"http-push":   "pushes without the pre-push hook; push with git push",
	"commit-tree": "makes a commit without the commit hooks; commit with git commit",
	"fast-import": "writes commits without the commit hooks; commit with git commit",
}

// gitWhere is where a git command works: its directory (cwd and -C), and the git dir and work
// tree given by options.
type gitWhere struct {
	dir      string // "" when unknown
	gitDir   *arg   // --git-dir
	workTree *arg   // --work-tree
}

// gitPlace reads git's own options (the words before the subcommand).
func (j *judge) gitPlace(globals []arg) gitWhere {
	w := gitWhere{dir: j.cwd}
	for i := 0; i < len(globals); i++ {
		s := globals[i].s
		name, val, hasVal := strings.Cut(s, "=")
		var v arg
		switch {
		case hasVal && (name == "--git-dir" || name == "--work-tree"):
			v = arg{s: val, dyn: globals[i].dyn}
		case (s == "--git-dir" || s == "--work-tree" || s == "-C") && i+1 < len(globals):
			i++
			v = globals[i]
		case s == "-c" || gitGlobalValues[s]:
			i++
			continue
		default:
			continue
		}
		switch name {
		case "--git-dir":
			w.gitDir = &v
		case "--work-tree":
			w.workTree = &v
		case "-C":
			w.dir = j.chdir(w.dir, v)
		}
	}
	return w
}

// chdir is dir after cd to a ("" when unknown).
func (j *judge) chdir(dir string, a arg) string {
	if a.dyn || dir == "" && !filepath.IsAbs(j.expandHome(a.s)) {
		return ""
	}
	p := j.expandHome(a.s)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// in resolves p against dir (false when either is unknown).
func (j *judge) in(dir string, a arg) (string, bool) {
	if a.dyn {
		return "", false
	}
	p := j.expandHome(a.s)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if dir == "" {
		return "", false
	}
	return filepath.Join(dir, p), true
}

// gitRoutes denies the routes around the hooks one git subcommand takes; it reports whether
// the call is denied.
func (j *judge) gitRoutes(sub string, rest []arg, w gitWhere) bool {
	if why := plumbing[sub]; why != "" {
		j.add(Deny, "guard/hook-bypass", "git "+sub+" "+why)
		return true
	}
	if why := j.workTreeInGit(w); why != "" {
		j.add(Deny, "guard/hook-bypass", why+"; hooks and git's own files are changed by a person, not by an agent")
		return true
	}
	if hookSubs[sub] {
		if why := j.otherConfig(); why != "" {
			j.add(Deny, "guard/hook-bypass", "git "+sub+" with "+why+", where core.hooksPath can point away from tollgate's hooks; let the hooks run")
			return true
		}
		if why := j.otherRepo(w); why != "" {
			j.add(Deny, "guard/hook-bypass", "git "+sub+" "+why+"; commit and push in the project, where its hooks run")
			return true
		}
		if w.dir == "" {
			j.add(Ask, "guard/dynamic", "git "+sub+" runs in a directory only known at run time, which could be a copy of the project without its hooks; a person must check it")
		}
	}
	j.gitWrites(sub, rest, w)
	j.gitReads(sub, rest, w)
	return j.best.Verdict == Deny
}

// otherConfig says which variable set for a git command makes it read another global or
// system configuration ("" if none).
func (j *judge) otherConfig() string {
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME"} {
		v, ok := j.envSetting(name)
		if !ok {
			continue
		}
		if name == "HOME" && (v == "$HOME" || v == "~" || filepath.Clean(j.expandHome(v)) == filepath.Clean(j.o.Home)) {
			continue
		}
		if name == "XDG_CONFIG_HOME" && j.o.Home != "" && filepath.Clean(j.expandHome(v)) == filepath.Join(j.o.Home, ".config") {
			continue
		}
		return name + "=" + shorten(v, 40) + " (another global configuration)"
	}
	return ""
}

// otherRepo says how a hook-running git command works in a repository that is not the
// project's ("" if it does not): another git dir, or a clone of the project.
func (j *judge) otherRepo(w gitWhere) string {
	for _, gd := range j.gitDirs(w) {
		if gd.what == "" {
			continue
		}
		if gd.dyn {
			return "with " + gd.what + " only known at run time (another repository's hooks, or none)"
		}
		if !j.isProjectGitDir(gd.path) {
			return "with " + gd.what + " (another repository, whose hooks are not tollgate's)"
		}
	}
	if w.dir == "" {
		return ""
	}
	if j.routes != nil {
		for _, c := range j.routes.clones {
			if under(w.dir, c) {
				return "in " + c + ", a copy of the project made in this command (clone, fetch or remote add), which has none of its hooks"
			}
		}
	}
	if !under(w.dir, j.o.Project) && cloneOfProject(w.dir, j.o.Project) {
		return "in " + w.dir + ", a clone of the project, which has none of its hooks"
	}
	return ""
}

type gitDirSetting struct {
	what string // e.g. "--git-dir=/tmp/x" ("" when not set)
	path string
	dyn  bool
}

// gitDirs are the git dirs a command is pointed at: --git-dir, GIT_DIR, GIT_COMMON_DIR.
func (j *judge) gitDirs(w gitWhere) []gitDirSetting {
	var out []gitDirSetting
	add := func(what string, a arg) {
		p, ok := j.in(w.dir, a)
		out = append(out, gitDirSetting{what: what + "=" + shorten(a.s, 40), path: p, dyn: !ok})
	}
	if w.gitDir != nil {
		add("--git-dir", *w.gitDir)
	}
	for _, name := range []string{"GIT_DIR", "GIT_COMMON_DIR"} {
		if v, ok := j.envSetting(name); ok {
			add(name, arg{s: v, dyn: strings.Contains(v, "$")})
		}
	}
	return out
}

func (j *judge) isProjectGitDir(p string) bool {
	own := filepath.Join(j.o.Project, ".git")
	return p == own || resolve(p) == resolve(own)
}

// workTreeInGit says how a git command's work tree lies inside .git or a protected path (its
// checkout would write git's own files, the hooks among them); "" if it does not.
func (j *judge) workTreeInGit(w gitWhere) string {
	var trees []arg
	if w.workTree != nil {
		trees = append(trees, *w.workTree)
	}
	if v, ok := j.envSetting("GIT_WORK_TREE"); ok {
		trees = append(trees, arg{s: v, dyn: strings.Contains(v, "$")})
	}
	for _, t := range trees {
		p, ok := j.in(w.dir, t)
		if !ok {
			return "git with a work tree only known at run time (" + shorten(t.s, 40) + ") may write into .git/hooks"
		}
		if why := j.insideGit(p); why != "" {
			return "git with the work tree " + t.s + " writes its files into " + why
		}
	}
	return ""
}

// insideGit says why writing files under directory p writes git's own files or protected ones
// ("" if it does not).
func (j *judge) insideGit(p string) string {
	for _, q := range []string{p, resolve(p)} {
		for _, c := range components(fold(q)) {
			if c == ".git" {
				return "git's own directory (.git)"
			}
		}
		if why := j.protectedWhy(q); why != "" {
			return why
		}
	}
	return ""
}

// gitWrites judges the files git subcommands write by name: outputs, checkout-index's prefix,
// and the directories clone, init and worktree add create (a clone of the project is
// remembered, so a push from it is denied).
func (j *judge) gitWrites(sub string, rest []arg, w gitWhere) {
	if !gitWriters[sub] {
		return
	}
	opts, ops := operands(rest, gitWriteValues)
	j.gitOutputs(sub, opts, w.dir)
	switch sub {
	case "bundle":
		if len(ops) > 1 && ops[0].s == "create" {
			j.gitWrite(w.dir, ops[1].s, "git bundle create")
		}
	case "init":
		target := arg{s: "."}
		if len(ops) > 0 {
			target = ops[0]
		}
		j.gitCreates(w.dir, target, "git init")
	case "worktree":
		if len(ops) > 1 && ops[0].s == "add" {
			j.gitCreates(w.dir, ops[1], "git worktree add")
		}
	case "clone":
		j.gitClone(w.dir, ops)
	case "fetch", "pull":
		if len(ops) > 0 && !ops[0].dyn {
			j.copiesProject(w.dir, ops[0].s)
		}
	case "remote":
		if len(ops) > 2 && (ops[0].s == "add" || ops[0].s == "set-url") && !ops[2].dyn {
			j.copiesProject(w.dir, ops[2].s)
		}
	}
}

// gitOutputs judges the files git writes where its options say: --output, format-patch's and
// archive's -o, checkout-index's --prefix.
func (j *judge) gitOutputs(sub string, opts []string, dir string) {
	if v, ok := optValue(opts, "", "--output"); ok {
		j.gitWrite(dir, v, "git "+sub+" writing")
	}
	switch sub {
	case "format-patch":
		if v, ok := optValue(opts, "-o", "--output-directory"); ok {
			j.gitWrite(dir, v+"/x", "git format-patch writing into")
		}
	case "archive":
		if v, ok := optValue(opts, "-o", ""); ok {
			j.gitWrite(dir, v, "git archive writing")
		}
	case "checkout-index":
		if v, ok := optValue(opts, "", "--prefix"); ok {
			j.gitWrite(dir, v+"x", "git checkout-index --prefix")
		}
	}
}

// copiesProject remembers a repository outside the project that fetches from it (git fetch,
// pull or remote add naming the project): like a clone, it has none of the project's hooks.
func (j *judge) copiesProject(dir, src string) {
	if dir == "" || under(dir, j.o.Project) || !j.isProject(dir, src) {
		return
	}
	s := j.state()
	s.clones = append(s.clones, dir)
}

// gitWriters are the subcommands gitWrites reads.
var gitWriters = set("diff", "log", "show", "format-patch", "archive", "checkout-index", "bundle", "init", "worktree",
	"clone", "fetch", "pull", "remote", "range-diff", "whatchanged", "diff-tree", "diff-index", "diff-files")

// gitWriteValues are the options of the subcommands gitWrites reads that take the next word.
var gitWriteValues = set("-o", "--output", "--output-directory", "-b", "--branch", "--origin", "-u", "--upload-pack",
	"--reference", "--reference-if-able", "--separate-git-dir", "--depth", "-c", "--config", "--template", "-j", "--jobs",
	"--filter", "--shallow-since", "--shallow-exclude", "--bundle-uri", "--server-option", "--ref-format", "--format",
	"--prefix", "--remote", "--exec", "--reason", "-B", "--orphan", "--object-format")

// gitWrite judges a file git writes at a path given by name.
func (j *judge) gitWrite(dir, path, verb string) {
	p, ok := j.in(dir, arg{s: path})
	if !ok {
		p = path
	}
	j.writePath(p, verb, false)
}

// gitCreates denies a directory git creates inside .git or a protected path.
func (j *judge) gitCreates(dir string, a arg, verb string) {
	p, ok := j.in(dir, a)
	if !ok {
		return
	}
	if why := j.insideGit(p); why != "" {
		j.add(Deny, "guard/protected-file", verb+" "+a.s+" is not allowed: it writes into "+why)
	}
}

// gitClone judges git clone SOURCE [DEST] and remembers a clone of the project.
func (j *judge) gitClone(dir string, ops []arg) {
	if len(ops) == 0 || ops[0].dyn {
		return
	}
	src := ops[0].s
	var dest arg
	if len(ops) > 1 {
		dest = ops[1]
	} else {
		base := strings.TrimSuffix(filepath.Base(strings.TrimRight(strings.TrimPrefix(src, "file://"), "/")), ".git")
		if base == "." || base == "" || base == "/" {
			return
		}
		dest = arg{s: base}
	}
	j.gitCreates(dir, dest, "git clone into")
	p, ok := j.in(dir, dest)
	if !ok || !j.isProject(dir, src) {
		return
	}
	s := j.state()
	s.clones = append(s.clones, p)
}

// isProject reports whether a clone source names the project (a path or a file:// URL).
func (j *judge) isProject(dir, src string) bool {
	src = strings.TrimPrefix(src, "file://")
	if strings.Contains(src, "://") || (strings.Contains(src, ":") && !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".")) {
		return false // a remote URL or host:path
	}
	p, ok := j.in(dir, arg{s: src})
	if !ok {
		return false
	}
	p = strings.TrimSuffix(p, "/.git")
	return p == j.o.Project || resolve(p) == resolve(j.o.Project)
}

// cloneOfProject reports whether the repository holding dir (outside the project) names the
// project as a remote in its config: a clone of it, with none of its hooks. Only that one
// config file is read, and at most 64 KB of it.
func cloneOfProject(dir, project string) bool {
	for d, i := dir, 0; i < 64; d, i = filepath.Dir(d), i+1 {
		cfg := filepath.Join(d, ".git", "config")
		if data, err := readSmall(cfg, 64<<10); err == nil {
			return configNames(string(data), project)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return false
}

func readSmall(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, limit)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// configNames reports whether a git config's url = lines name the project.
func configNames(cfg, project string) bool {
	for _, line := range strings.Split(cfg, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "url") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		v = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(v, "file://"), "/"), "/.git")
		if filepath.IsAbs(v) && (filepath.Clean(v) == project || resolve(filepath.Clean(v)) == resolve(project)) {
			return true
		}
	}
	return false
}

// gitConfigFile says why p (folded) is a git configuration file where core.hooksPath can be set
// ("" if it is not): the user's and the system's, and config.worktree in a git dir.
func (j *judge) gitConfigFile(p string, parts []string) string {
	if n := len(parts); n > 1 && parts[n-1] == "config.worktree" {
		for _, c := range parts[:n-1] {
			if c == ".git" {
				return "config.worktree configures git (core.hooksPath can be set there)"
			}
		}
	}
	files := []string{"/etc/gitconfig"}
	if h := j.o.Home; h != "" {
		files = append(files, filepath.Join(h, ".gitconfig"), filepath.Join(h, ".config", "git", "config"))
	}
	for _, f := range files {
		if p == fold(f) {
			return f + " configures git for every repository (core.hooksPath can be set there)"
		}
	}
	return ""
}

// aliasBypass denies a git alias definition whose body skips the hooks (the alias used later
// runs it): its body is judged as the command it runs, and only a denial is kept.
func (j *judge) aliasBypass(name string, body arg) {
	if body.dyn {
		j.add(Deny, "guard/hook-bypass", "git alias "+name+" gets a body only known at run time, which could skip the hooks")
		return
	}
	src := "git " + body.s
	if strings.HasPrefix(body.s, "!") {
		src = body.s[1:]
	}
	sub := &judge{o: j.o, cwd: j.cwd, deadline: j.deadline, depth: j.depth}
	sub.script(src)
	if sub.best.Verdict == Deny {
		j.add(Deny, "guard/hook-bypass", "git alias "+name+" = "+shorten(body.s, 60)+" is denied when run ("+sub.best.Reason+"); it is denied as an alias too")
	}
}

// hookPATH asks about a hook-running git command whose PATH this call puts a directory in
// front of that an agent may write without a person (the project, a temp dir, allowed dirs,
// or one only known at run time): husky, lefthook and the pre-commit framework find tollgate
// (and themselves) on PATH, so a program of that name there would run in place of the review.
// Appending to PATH, or putting the system's or the user's own directories first
// (~/go/bin), changes no program an agent could have planted.
func (j *judge) hookPATH(sub string) {
	path, ok := j.cmdEnv["PATH"]
	if !ok {
		path, ok = j.pathSet, j.pathSet != ""
	}
	if !ok {
		return
	}
	for _, dir := range strings.Split(path, ":") {
		switch {
		case dir == "$PATH" || dir == "${PATH}":
			return // what follows comes after the programs the hooks found before
		case systemBinDirs[strings.TrimSuffix(dir, "/")]:
			continue
		}
		if p, ok := j.abs(strings.Replace(dir, "$HOME", j.o.Home, 1)); ok && !strings.Contains(p, "$") && !j.writable(resolve(p)) {
			continue
		}
		j.add(Ask, "guard/hook-bypass", "git "+sub+" runs its hooks with "+shorten(dir, 60)+" first on PATH, where a program named tollgate, husky or pre-commit would run in place of the review; a person must check it")
		return
	}
}

var systemBinDirs = set("/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin", "/opt/homebrew/bin")
