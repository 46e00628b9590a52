package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// The resolution step sits between the parser and the command tables: it turns each command's
// words into the argv the command receives, as the shell would build it before running it.
//   - brace expansion: git commit {--no-verify,-m,x} is four words, .git/{hooks,info} two;
//   - field splitting of unquoted expansions whose value is known (X='-m x --no-verify');
//   - pathname expansion (globs) against the real file system from the call's working
//     directory, bounded; a pattern that matches nothing stays literal, as in bash, and is
//     asked about when it could name a protected path once the command runs;
//   - command substitutions whose output tollgate can know without running anything:
//     echo/printf of literal words, pwd, realpath/readlink -f, dirname, basename and
//     git rev-parse --show-toplevel/--git-dir/--git-common-dir/--git-path;
//   - symbolic and hard links made earlier in the same call (ln -s .git/hooks h).
//
// What it cannot resolve stays marked: arg.dyn (part of the word is only known at run time) and
// arg.opt (that part may also make it an option or more words, so a table that cares what
// options a command gets asks).

// Bounds of the resolution step (all within the decision's time budget).
const (
	maxFields     = 256  // words one word may expand to (braces, globs, splitting)
	maxDirReads   = 64   // directories one call's globs may read
	maxArgv       = 4096 // words one command may get from expansion
	maxDirEntries = 4096 // entries read from one directory
)

// fields resolves one command word into the words the command receives.
func (j *judge) fields(w *syntax.Word) []arg {
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(lit.Value, "{*?[") {
			return []arg{{s: unescape(lit.Value, false), w: w}} // the common case: a plain word
		}
		if ps, ok := j.quotedAll(w.Parts[0]); ok {
			return ps // "$@" in a script run with literal words
		}
		switch p := w.Parts[0].(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted: // one quoted part: no braces, splitting or globs
			a := j.word(w)
			a.opt = a.dyn && !knownStart(p)
			return []arg{a}
		}
	}
	words, ok := j.braces(w)
	if !ok {
		a := j.word(w)
		return []arg{{s: a.s, dyn: true, opt: true, w: w}}
	}
	var out []arg
	for _, bw := range words {
		for _, f := range j.split(bw, w) {
			out = append(out, j.glob(f)...)
		}
		if len(out) > maxFields {
			break
		}
	}
	return out
}

// quotedAll expands "$@" to a script's positional parameters, each one word, when all are
// literal.
func (j *judge) quotedAll(p syntax.WordPart) ([]arg, bool) {
	dq, ok := p.(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 || j.params == nil {
		return nil, false
	}
	pe, ok := dq.Parts[0].(*syntax.ParamExp)
	if !ok {
		return nil, false
	}
	if name, simple := simpleParam(pe); !simple || name != "@" {
		return nil, false
	}
	return append([]arg{}, j.params...), true
}

// braces performs brace expansion on a copy of w (the parsed tree is shared and stays
// untouched); false when the expansion is larger than maxFields.
func (j *judge) braces(w *syntax.Word) ([]*syntax.Word, bool) {
	hasBrace := false
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.Contains(lit.Value, "{") {
			hasBrace = true
		}
	}
	if !hasBrace {
		return []*syntax.Word{w}, true
	}
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{w}, true
	}
	var out []*syntax.Word
	if !expandBraces(cp.Parts, nil, &out) {
		return nil, false
	}
	return out, true
}

func expandBraces(parts, prefix []syntax.WordPart, out *[]*syntax.Word) bool {
	for i, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		head := append(append([]syntax.WordPart(nil), prefix...), parts[:i]...)
		elems, ok := braceElems(br)
		if !ok {
			return false
		}
		for _, elem := range elems {
			if len(*out) > maxFields {
				return false
			}
			next := append(append([]syntax.WordPart(nil), elem...), parts[i+1:]...)
			if !expandBraces(next, head, out) {
				return false
			}
		}
		return true
	}
	*out = append(*out, &syntax.Word{Parts: append(append([]syntax.WordPart(nil), prefix...), parts...)})
	return true
}

// braceElems lists what one brace expression stands for: its comma elements, or the values of a
// sequence {1..5}, {a..e}, {0..10..2}.
func braceElems(br *syntax.BraceExp) ([][]syntax.WordPart, bool) {
	if !br.Sequence {
		elems := make([][]syntax.WordPart, len(br.Elems))
		for i, e := range br.Elems {
			elems[i] = e.Parts
		}
		return elems, true
	}
	if len(br.Elems) < 2 {
		return nil, false
	}
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	a, err1 := strconv.Atoi(from)
	b, err2 := strconv.Atoi(to)
	chars := err1 != nil || err2 != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, b = int(from[0]), int(to[0])
	}
	step := 1
	if len(br.Elems) > 2 {
		if n, err := strconv.Atoi(br.Elems[2].Lit()); err == nil && n != 0 {
			step = max(n, -n)
		}
	}
	if (max(a, b)-min(a, b))/step > maxFields {
		return nil, false
	}
	if a > b {
		step = -step
	}
	var elems [][]syntax.WordPart
	for n := a; (step > 0 && n <= b) || (step < 0 && n >= b); n += step {
		v := strconv.Itoa(n)
		if chars {
			v = string(rune(n))
		}
		elems = append(elems, []syntax.WordPart{&syntax.Lit{Value: v}})
	}
	return elems, true
}

// field is one word being built by split: its text, its glob pattern (quoted parts escaped)
// and what is unknown about it.
type field struct {
	b, pat   strings.Builder
	dyn, opt bool
	glob     bool
	started  bool
}

// split renders a brace-expanded word into fields: unquoted expansions with a known value are
// split at blanks (the default IFS), and their glob characters stay active.
func (j *judge) split(w, orig *syntax.Word) []arg {
	var out []arg
	cur := &field{}
	flush := func() {
		if cur.started {
			out = append(out, arg{s: cur.b.String(), dyn: cur.dyn, opt: cur.opt, w: orig, glob: cur.glob, pat: cur.pat.String()})
		}
		cur = &field{}
	}
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			cur.b.WriteString(unescape(p.Value, false))
			cur.pat.WriteString(p.Value)
			cur.glob = cur.glob || pattern.HasMeta(p.Value, 0)
			cur.started = true
		case *syntax.SglQuoted, *syntax.DblQuoted:
			var b strings.Builder
			dyn := false
			j.wordPart(&b, p, &dyn, false)
			if dyn && cur.b.Len() == 0 && !knownStart(p) {
				cur.opt = true // "$X" at the start of a word may be an option
			}
			cur.dyn = cur.dyn || dyn
			cur.b.WriteString(b.String())
			cur.pat.WriteString(pattern.QuoteMeta(b.String(), 0))
			cur.started = true
		case *syntax.ParamExp, *syntax.CmdSubst:
			var b strings.Builder
			dyn := false
			j.wordPart(&b, p, &dyn, false)
			if dyn {
				cur.dyn = true
				cur.opt = cur.opt || !safeSubst(p)
				cur.b.WriteString(b.String())
				cur.pat.WriteString(pattern.QuoteMeta(b.String(), 0))
				cur.started = true
				continue
			}
			text := b.String()
			if text != "" && isBlank(text[0]) {
				flush()
			}
			toks := strings.Fields(text)
			for i, t := range toks {
				cur.b.WriteString(t)
				cur.pat.WriteString(t)
				cur.glob = cur.glob || pattern.HasMeta(t, 0)
				cur.started = true
				if i < len(toks)-1 {
					flush()
				}
			}
			if text != "" && isBlank(text[len(text)-1]) {
				flush()
			}
		default:
			var b strings.Builder
			dyn := false
			j.wordPart(&b, p, &dyn, false)
			cur.dyn = cur.dyn || dyn
			cur.b.WriteString(b.String())
			cur.pat.WriteString(pattern.QuoteMeta(b.String(), 0))
			cur.started = true
		}
	}
	flush()
	return out
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// safeSubst reports an unresolved expansion whose output cannot be an option: a command
// substitution of a command that prints a ref, a date or a name (git rev-parse, git branch
// --show-current, date, whoami, ...). git refuses ref names starting with "-".
func safeSubst(p syntax.WordPart) bool {
	cs, ok := p.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	name := cmdName(ce.Args[0].Lit())
	if namePrinters[name] {
		return true
	}
	if name != "git" || len(ce.Args) < 2 {
		return false
	}
	switch ce.Args[1].Lit() {
	case "rev-parse", "symbolic-ref", "merge-base", "describe":
		return true
	case "branch":
		return len(ce.Args) == 3 && ce.Args[2].Lit() == "--show-current"
	}
	return false
}

// knownStart reports a quoted part whose start cannot be an option: a literal, or an
// expansion safeSubst trusts.
func knownStart(p syntax.WordPart) bool {
	dq, ok := p.(*syntax.DblQuoted)
	if !ok || len(dq.Parts) == 0 {
		return ok
	}
	switch first := dq.Parts[0].(type) {
	case *syntax.Lit:
		return first.Value != ""
	case *syntax.CmdSubst:
		return safeSubst(first)
	}
	return false
}

var namePrinters = set("date", "whoami", "hostname", "id", "uname", "nproc", "pwd", "mktemp", "basename", "dirname", "realpath")

// glob performs pathname expansion on one field, against the file system from the working
// directory. No match leaves the pattern as it is (bash's default); one that could still
// name a protected path when the command runs is asked about.
func (j *judge) glob(a arg) []arg {
	if !a.glob || a.dyn || j.shallow || j.remote > 0 || a.s == "[" || a.s == "[[" || a.s == "]" {
		return []arg{a.plain()}
	}
	pat := a.pat
	if pat == "~" || strings.HasPrefix(pat, "~/") {
		pat = pattern.QuoteMeta(j.o.Home, 0) + pat[1:]
	}
	shown, dir := []string{""}, []string{j.cwd}
	if strings.HasPrefix(pat, "/") {
		shown, dir = []string{"/"}, []string{"/"}
	} else if j.cwd == "" {
		return []arg{a.plain()}
	}
	comps := strings.Split(pat, "/")
	for i, c := range comps {
		if c == "" {
			continue
		}
		last := i == len(comps)-1 || (i == len(comps)-2 && comps[i+1] == "")
		if !pattern.HasMeta(c, 0) {
			lit := unescape(c, false)
			for k := range shown {
				shown[k], dir[k] = joinShown(shown[k], lit), filepath.Join(dir[k], lit)
			}
			continue
		}
		var ok bool
		if shown, dir, ok = j.globStep(c, last, shown, dir); !ok {
			return []arg{a.plain()}
		}
		if len(shown) == 0 || j.tick() {
			break
		}
	}
	if j.globCut {
		j.add(Ask, "guard/limit", "the patterns in this command reach more directories than tollgate reads; a person must check what "+shorten(a.s, 40)+" names")
		return []arg{{s: a.s, dyn: true, opt: true, w: a.w}}
	}
	var out []arg
	every := ""
	if !narrowGlob(a.s) {
		every = a.s
	}
	for k := range shown {
		if _, err := os.Lstat(dir[k]); err == nil {
			out = append(out, arg{s: shown[k], w: a.w, every: every})
		}
	}
	if len(out) == 0 {
		if p, ok := j.abs(a.s); ok && j.globMayProtect(p) {
			j.add(Ask, "guard/dynamic", "the pattern "+a.s+" matches no file now but could name a protected path when the command runs; a person must check it")
		}
		return []arg{a.plain()}
	}
	sort.Slice(out, func(x, y int) bool { return out[x].s < out[y].s })
	if len(out) > maxFields {
		out = append(out[:maxFields], a.plain()) // the pattern too, so its root is judged
	}
	return out
}

// globStep matches one pattern component in each directory reached so far; false when the
// component is no valid pattern.
func (j *judge) globStep(c string, last bool, shown, dir []string) ([]string, []string, bool) {
	expr, err := pattern.Regexp(c, pattern.Filenames|pattern.EntireString)
	if err != nil {
		return nil, nil, false
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, nil, false
	}
	var nshown, ndir []string
	for k := range dir {
		for _, name := range j.readDir(dir[k], !last) {
			if strings.HasPrefix(name, ".") && !strings.HasPrefix(c, ".") || !re.MatchString(name) {
				continue // a leading dot is matched only by a leading dot
			}
			nshown, ndir = append(nshown, joinShown(shown[k], name)), append(ndir, filepath.Join(dir[k], name))
		}
		if len(nshown) > maxFields {
			break
		}
	}
	return nshown, ndir, true
}

func joinShown(prefix, name string) string {
	if prefix == "" {
		return name
	}
	if strings.HasSuffix(prefix, "/") {
		return prefix + name
	}
	return prefix + "/" + name
}

// readDir lists a directory's names (bounded); dirsOnly keeps the directories (and links).
func (j *judge) readDir(dir string, dirsOnly bool) []string {
	if j.dirReads >= maxDirReads {
		j.globCut = true
		return nil
	}
	j.dirReads++
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxDirEntries)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if dirsOnly && !e.IsDir() && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		names = append(names, e.Name())
	}
	return names
}

// globMayProtect reports whether a pattern (absolute) could match a protected path: its
// components matched, folded, against the protected names.
func (j *judge) globMayProtect(p string) bool {
	comps := components(p)
	if len(comps) == 0 {
		return false
	}
	res := make([]*regexp.Regexp, len(comps))
	for i, c := range comps {
		if strings.Trim(c, "*?") == "" {
			// a bare wildcard (*, ?*) matches every name: the real match decides, or nothing is
			// there to match (rm -rf * in an empty directory)
			res[i] = neverMatch.Get()
			continue
		}
		expr, err := pattern.Regexp(c, pattern.Filenames|pattern.EntireString|pattern.NoGlobCase)
		if err != nil {
			return true // cannot tell: treat as a possible match
		}
		if res[i], err = regexp.Compile(expr); err != nil {
			return true
		}
	}
	runAt := func(run []string, i int) bool {
		for k := range run {
			if !res[i+k].MatchString(run[k]) || strings.HasPrefix(run[k], ".") != strings.HasPrefix(comps[i+k], ".") {
				return false
			}
		}
		return true
	}
	last := comps[len(comps)-1]
	for base := range protectedBases {
		if res[len(res)-1].MatchString(base) && strings.HasPrefix(base, ".") == strings.HasPrefix(last, ".") {
			return true
		}
	}
	for _, d := range protectedDirs {
		for i := 0; i+len(d) <= len(comps); i++ {
			if runAt(d, i) {
				return true
			}
		}
	}
	for _, f := range protectedFiles {
		if i := len(comps) - len(f); i >= 0 && runAt(f, i) {
			return true
		}
	}
	return false
}

var neverMatch = lazyre.New(`$.^`)

// setsVariable judges the builtins that set a variable named by a word: printf -v NAME and
// read NAME (the environment switches that turn hooks off are denied, or asked about when the
// value is only known at run time).
func (j *judge) setsVariable(name string, args []arg, in *stdinSrc) {
	switch name {
	case "printf":
		if len(args) >= 3 && args[0].s == "-v" && !args[1].dyn {
			val, known := printfOutput(args[2:])
			for _, a := range args[2:] {
				known = known && !a.dyn
			}
			j.varFromWord(args[1].s, val, known)
		}
	case "read":
		val, known := "", in != nil && in.literal
		if known {
			val = strings.TrimRight(in.text, "\n")
		}
		_, ops := operands(args, set("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"))
		for _, a := range ops {
			if !a.dyn {
				j.varFromWord(a.s, val, known && len(ops) == 1)
			}
		}
	}
}

func (j *judge) varFromWord(name, val string, known bool) {
	if !known {
		if hookSwitch(name, "") != "" || hookSwitch(name, "0") != "" {
			j.add(Ask, "guard/dynamic", "sets "+name+" to a value known only at run time, which could turn the hooks off; a person must check it")
		}
		return
	}
	j.envVar(name, val)
}

// markUnknown records a variable set to a value only known at run time: $HOME after
// HOME=$(mktemp -d) is no longer the user's home.
func (j *judge) markUnknown(name string) {
	if j.unknownVars == nil {
		j.unknownVars = map[string]bool{}
	}
	j.unknownVars[name] = true
}

// trackCommand is the resolution step's part of judging one command: a path through a link
// this call made is judged again where it leads, what the command writes, the variables it
// sets and whether it builds programs are recorded for the commands after it, and a path it
// writes that is only known at run time asks when it could reach a protected path.
func (j *judge) trackCommand(name string, args []arg, in *stdinSrc) {
	if alt, ok := j.linkedArgs(args); ok && !j.inLink {
		j.inLink = true // ln -s .git/hooks h; cp x h/pre-commit is cp x .git/hooks/pre-commit
		j.exec(alt, in)
		j.inLink = false
	}
	j.noteWrites(name, args[1:], in)
	j.setsVariable(name, args[1:], in)
	j.built = j.built || buildTools[name]
	if fileHandlers[name] != nil {
		for _, a := range args[1:] {
			j.dynPath(a, name+" gets") // rm .git/hooks/$h
		}
	}
}

// maxLoopItems bounds the items of a for loop judged one by one, maxLoopRuns the loop bodies
// one call judges that way (nested loops multiply).
const (
	maxLoopItems = 32
	maxLoopRuns  = 256
)

// forEach judges a for loop over words tollgate resolves (for h in pre-commit pre-push, for f
// in .git/hooks/*) once per item, the loop variable set to it; false leaves the loop to the
// ordinary walk, the variable unknown.
func (j *judge) forEach(fc *syntax.ForClause, stdin map[*syntax.CallExpr]*stdinSrc) bool {
	wi, ok := fc.Loop.(*syntax.WordIter)
	if !ok || wi.Name == nil {
		return false
	}
	name := wi.Name.Value
	delete(j.vars, name)
	if !wi.InPos.IsValid() {
		return false // for x; do ...: the positional parameters
	}
	items := j.words(wi.Items)
	if len(items) == 0 || len(items) > maxLoopItems || j.loopRuns+len(items) > maxLoopRuns {
		return false
	}
	j.loopRuns += len(items)
	for _, it := range items {
		if it.dyn {
			return false
		}
	}
	if j.vars == nil {
		j.vars = map[string]string{}
	}
	for _, it := range items {
		j.vars[name] = it.s
		for _, st := range fc.Do {
			j.walk(st, stdin)
		}
	}
	return true
}

// dynPath asks about a word only known at run time that a command writes, when its known parts
// could still name a protected path (rm .git/hooks/$h): the unknown parts taken as wildcards.
func (j *judge) dynPath(a arg, verb string) {
	if !a.dyn || j.remote > 0 {
		return
	}
	pat := unknownPart.ReplaceAllString(a.s, "*")
	if p, ok := j.abs(pat); ok && j.globMayProtect(p) {
		j.add(Ask, "guard/dynamic", verb+" "+shorten(a.s, 60)+", known only at run time, could reach a protected path; a person must check it")
	}
}

// unknownPart matches how an unresolved expansion is rendered ($NAME, ${NAME}, $(…)).
var unknownPart = lazyre.New(`\$\(…\)|\$\{[^}]*\}|\$[A-Za-z_0-9@#!*?-]+`)

// plain is the field as one word, without its glob bookkeeping.
func (a arg) plain() arg { return arg{s: a.s, dyn: a.dyn, opt: a.opt, w: a.w} }

// resolveState is what the resolution step tracks over one call.
type resolveState struct {
	links         map[string]string       // links made earlier in the call: link -> where it points
	dirReads      int                     // directories read for globs
	loopRuns      int                     // loop bodies judged once per item
	unknownVars   map[string]bool         // variables set in this call to a value only known at run time
	configAliases map[string]string       // git aliases in the configuration on disk (read once)
	params        []arg                   // a script's literal positional parameters ("$@"); nil: unknown
	built         bool                    // a build tool ran earlier in the call (its output may be run)
	onDisk        int                     // >0 inside a script read from disk: a command built at run time is not asked about by itself
	globCut       bool                    // the globs ran out of directory reads: what they match is unknown
	inLink        bool                    // judging a command again through links (no recursion)
	written       map[string]*written     // files this call writes (resolve_script.go)
	pathSet       string                  // the last PATH this call assigns, as rendered ($PATH kept)
	sshConfig     []arg                   // git -c core.sshCommand values, judged when the subcommand may start ssh
	envConfig     []arg                   // GIT_CONFIG_COUNT pairs on the git command being judged, as key=value
	envConfigSet  map[*syntax.Assign]bool // the prefix words those pairs came from (judged as pairs, not as names)
}
