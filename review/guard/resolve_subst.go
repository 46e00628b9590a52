package guard

// Command substitutions the resolution step answers without running anything, and the
// repository layout git rev-parse would print.

import (
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// substitute returns what a command substitution prints when tollgate can know it without
// running anything.
func (j *judge) substitute(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	if st := cs.Stmts[0]; st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].Word != nil {
		if a := j.word(st.Redirs[0].Word); !a.dyn {
			return j.fileText(a.s) // $(< file)
		}
		return "", false
	}
	if len(cs.Stmts[0].Redirs) > 0 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return "", false
	}
	words, ok := j.literalWords(ce.Args) // rendered once: each level of $(...) renders its own
	if !ok {
		return "", false
	}
	if text, ok := printedWords(words); ok {
		return text, true // $(echo --no-verify) is --no-verify
	}
	return j.knownOutput(words)
}

// knownOutput is what one literal command prints, for the commands whose output tollgate
// knows from the file system alone.
func (j *judge) knownOutput(words []string) (string, bool) {
	name, opts, ops := cmdName(words[0]), []string{}, []string{}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			opts = append(opts, w)
		} else {
			ops = append(ops, w)
		}
	}
	switch {
	case name == "pwd" && len(ops) == 0 && j.cwd != "":
		if hasWord(opts, "-P") {
			return j.realPath(j.cwd), true
		}
		return j.cwd, true
	case (name == "realpath" || (name == "readlink" && len(opts) > 0)) && len(ops) == 1:
		if p, ok := j.abs(ops[0]); ok {
			return j.realPath(p), true
		}
	case name == "cat" && len(ops) == 1 && len(opts) == 0:
		return j.fileText(ops[0])
	case name == "dirname" && len(ops) == 1:
		return filepath.Dir(ops[0]), true
	case name == "basename" && len(ops) >= 1:
		b := filepath.Base(ops[0])
		if len(ops) == 2 {
			b = strings.TrimSuffix(b, ops[1])
		}
		return b, true
	case name == "git" && len(words) >= 3 && words[1] == "rev-parse":
		return j.revParse(words[2:])
	case name == "mktemp":
		return j.mktempPath(words[1:])
	}
	return "", false
}

// mktempPath is the shape of the path mktemp prints: a new name in the temp dir (or the one
// -p/--tmpdir names, or the template's own directory), its random part left as the X's.
func (j *judge) mktempPath(args []string) (string, bool) {
	dir, template, inTemp := "", "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--tmpdir":
			if a == "-p" && i+1 >= len(args) {
				return "", false
			}
			inTemp = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--tmpdir="):
			dir, inTemp = strings.TrimPrefix(a, "--tmpdir="), true
		case strings.HasPrefix(a, "--suffix="), a == "-d", a == "-u", a == "-q", a == "--directory", a == "--dry-run", a == "--quiet":
		case a == "-t":
			inTemp = true
		case strings.HasPrefix(a, "-"):
			if strings.Trim(a[1:], "duqt") != "" {
				return "", false // an option not read here
			}
			inTemp = inTemp || strings.ContainsRune(a, 't')
		case template == "":
			template = a
		default:
			return "", false
		}
	}
	if dir == "" && len(j.o.Temp) > 0 {
		dir = j.o.Temp[0]
	}
	switch {
	case template == "":
		return filepath.Join(dir, "tmp.XXXXXXXXXX"), dir != ""
	case strings.ContainsRune(template, '/'):
		return template, true
	case inTemp:
		return filepath.Join(dir, template), dir != ""
	}
	return template, true // GNU mktemp: a bare template is made in the working directory
}

func hasWord(words []string, want string) bool {
	for _, w := range words {
		if w == want {
			return true
		}
	}
	return false
}

// realPath follows the links in p: those on disk and those made earlier in this call.
func (j *judge) realPath(p string) string {
	if q, ok := j.viaLink(p); ok {
		p = q
	}
	return resolve(p)
}

// revParse answers git rev-parse's path forms from the repository's layout on disk.
func (j *judge) revParse(args []string) (string, bool) {
	top, gitDir, common := j.gitLayout()
	switch {
	case len(args) == 1 && args[0] == "--show-toplevel":
		return top, true
	case len(args) == 1 && (args[0] == "--git-dir" || args[0] == "--absolute-git-dir"):
		return gitDir, true
	case len(args) == 1 && args[0] == "--git-common-dir":
		return common, true
	case len(args) == 2 && args[0] == "--git-path":
		rel := filepath.Clean(args[1])
		base := gitDir
		if first := strings.SplitN(rel, "/", 2)[0]; first == "hooks" || first == "config" || first == "info" || first == "objects" || first == "refs" {
			base = common
		}
		return filepath.Join(base, rel), true
	}
	return "", false
}

// gitLayout finds the work tree, git dir and common git dir for the working directory by
// looking for .git upwards (a .git file names the git dir of a linked worktree). Without one,
// the project's .git is assumed.
func (j *judge) gitLayout() (top, gitDir, common string) {
	dir := j.cwd
	if dir == "" {
		dir = j.o.Project
	}
	for i := 0; i < 64; i++ {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Lstat(dotgit); err == nil {
			if fi.IsDir() {
				return dir, dotgit, dotgit
			}
			if gd, ok := readGitFile(dotgit); ok {
				if !filepath.IsAbs(gd) {
					gd = filepath.Join(dir, gd)
				}
				common = gd
				if k := strings.Index(gd, string(filepath.Separator)+"worktrees"+string(filepath.Separator)); k >= 0 {
					common = gd[:k]
				}
				return dir, gd, common
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	p := filepath.Join(j.o.Project, ".git")
	return j.o.Project, p, p
}

// readGitFile reads a .git file's "gitdir: path" line (bounded).
func readGitFile(p string) (string, bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	return strings.TrimSpace(gd), ok
}

// fileText is what $(cat file) prints: the file as this call leaves it (written earlier in the
// call, or on disk), its trailing newlines cut. A secret is never read into a word: that stays
// unknown (and the read itself is judged where cat is).
func (j *judge) fileText(raw string) (string, bool) {
	p, ok := j.abs(raw)
	if !ok || j.secretWhy(p) != "" || j.secretWhy(resolve(p)) != "" {
		return "", false
	}
	text, _, why := j.scriptText(raw)
	if why != "" || isBinary(text) || len(text) > maxSubstBytes {
		return "", false
	}
	return strings.TrimRight(text, "\n"), true
}

// maxSubstBytes bounds a file read into a word by $(cat file).
const maxSubstBytes = 64 << 10
