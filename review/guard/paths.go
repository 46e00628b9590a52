package guard

import (
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/fspath"
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"golang.org/x/text/unicode/norm"
)

// under reports whether p is dir or inside it, comparing path components (never a string
// prefix: /home/u/project-evil is not under /home/u/project).
func under(p, dir string) bool { return fspath.Within(dir, p) }

// components splits a clean absolute path into its names. A backslash separates names too:
// on Windows .git\hooks\pre-commit is .git/hooks/pre-commit, and on other systems a name
// with a backslash in it is nothing an agent needs to write.
func components(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
}

// fold is a path as a case-insensitive file system compares it: Unicode NFC (macOS stores
// names decomposed, NFD) and lower case. Protected paths are always compared folded: on macOS
// and Windows .GIT/hooks is .git/hooks, and on Linux being stricter costs nothing worth keeping.
func fold(p string) string {
	if isASCII(p) {
		return strings.ToLower(p)
	}
	return strings.ToLower(norm.NFC.String(p))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// protectedBases are protected wherever they are.
var protectedBases = map[string]bool{
	".tollgate.toml": true, ".tollgate-baseline.json": true, ".gitleaks.toml": true,
	".gitleaksignore": true, ".pre-commit-config.yaml": true, ".pre-commit-config.yml": true,
	"lefthook.yml": true, "lefthook.yaml": true, ".lefthook.yml": true, ".lefthook.yaml": true,
	"lefthook-local.yml": true, ".huskyrc": true, ".huskyrc.json": true,
}

// protectedDirs are protected with everything under them: consecutive path components.
var protectedDirs = [][]string{
	{".git", "hooks"}, {".husky"}, {".github", "hooks"}, {".copilot", "hooks"},
}

// protectedFiles are agent hook configs and git's own config: consecutive components at the end.
var protectedFiles = [][]string{
	{".git", "config"},
	{".claude", "settings.json"}, {".claude", "settings.local.json"},
	{".codex", "hooks.json"}, {".codex", "config.toml"},
	{".gemini", "settings.json"}, {".cursor", "hooks.json"},
	{".config", "tollgate"},
}

// protectedWhy returns what protects p (an absolute clean path), or "".
func (j *judge) protectedWhy(p string) string {
	p = fold(p)
	parts := components(p)
	if len(parts) == 0 {
		return ""
	}
	base := parts[len(parts)-1]
	if protectedBases[base] {
		return base + " is tollgate's or a hook manager's configuration"
	}
	for _, d := range protectedDirs {
		if hasRun(parts, d, true) {
			return strings.Join(d, "/") + "/ holds git hooks"
		}
	}
	for _, f := range protectedFiles {
		if hasRun(parts, f, f[0] == ".config") {
			return strings.Join(f, "/") + " configures hooks (git's or an agent's)"
		}
	}
	if j.o.Home != "" && under(p, fold(filepath.Join(j.o.Home, ".config", "tollgate"))) {
		return "tollgate's user configuration"
	}
	if why := j.gitConfigFile(p, parts); why != "" {
		return why
	}
	for _, extra := range j.o.Protect {
		extra = fold(strings.TrimSuffix(filepath.ToSlash(extra), "/"))
		if extra == "" {
			continue
		}
		if !strings.Contains(extra, "/") {
			if base == extra {
				return extra + " is protected by guard.protect"
			}
			continue
		}
		if under(p, fold(filepath.Join(j.o.Project, filepath.Clean(extra)))) {
			return extra + " is protected by guard.protect"
		}
	}
	return ""
}

// hasRun reports whether run occurs as consecutive components of parts: anywhere (a
// directory and everything under it), or else only at the end of the path (a file).
func hasRun(parts, run []string, anywhere bool) bool {
	for i := 0; i+len(run) <= len(parts); i++ {
		if !anywhere && i+len(run) != len(parts) {
			continue
		}
		match := true
		for k := range run {
			if parts[i+k] != run[k] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// holdsProtected reports whether removing or moving directory p would take a protected path
// with it (p is .git, .github, .claude, ... inside the project).
func (j *judge) holdsProtected(p string) string {
	p, project := fold(p), fold(j.o.Project)
	if !under(p, project) || p == project {
		return ""
	}
	rel, _ := filepath.Rel(project, p)
	first := components(rel)
	if len(first) == 1 {
		switch first[0] {
		case ".git", ".github", ".husky", ".claude", ".codex", ".gemini", ".cursor":
			return first[0] + " holds hooks or an agent's hook configuration"
		}
	}
	return ""
}

// writable reports whether writes to p need no person: the project, a temp dir, an allowed dir,
// or a harmless device.
func (j *judge) writable(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
		return true
	}
	if strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/") {
		return true
	}
	if under(p, j.o.Project) {
		return true
	}
	for _, d := range j.o.Temp {
		if d != "" && under(p, filepath.Clean(d)) {
			return true
		}
	}
	for _, d := range j.o.AllowedDirs {
		if d != "" && under(p, filepath.Clean(j.expandHome(d))) {
			return true
		}
	}
	return false
}

var systemDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib32": true, "/lib64": true, "/opt": true, "/proc": true, "/root": true, "/sbin": true,
	"/srv": true, "/sys": true, "/usr": true, "/var": true, "/mnt": true, "/media": true,
	"/Users": true, "/System": true, "/Library": true, "/Applications": true, "/private": true,
	"/usr/bin": true, "/usr/lib": true, "/usr/local": true, "/usr/share": true, "/var/lib": true,
	"/var/log": true, "/snap": true, "/nix": true,
}

// wide reports whether destroying p destroys far more than a project: the root, a system
// directory, the home directory, a temp dir itself, or the project or an ancestor of it or of
// the home directory.
func (j *judge) wide(p string) bool {
	if systemDirs[p] || j.tempRoot(p) {
		return true
	}
	if j.o.Home != "" && (p == j.o.Home || under(j.o.Home, p)) {
		return true
	}
	return under(j.o.Project, p)
}

var (
	secretStem = lazyre.New(`(?i)^(?:.*[._-])?(?:credentials?|secrets?|tokens?|passwords?|private[._-]?key)(?:[._-].*)?$`)
	codeExt    = map[string]bool{".go": true, ".py": true, ".js": true, ".ts": true, ".tsx": true, ".jsx": true,
		".rs": true, ".java": true, ".rb": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".cs": true,
		".md": true, ".rst": true, ".html": true, ".css": true, ".kt": true, ".swift": true,
		".php": true, ".sh": true, ".mdx": true, ".vue": true, ".svelte": true, ".scala": true, ".ex": true,
		".exs": true, ".lua": true, ".tf": true, ".proto": true, ".sql": true, ".mjs": true, ".cjs": true}
	keyExt = map[string]bool{".pem": true, ".key": true, ".p12": true, ".pfx": true, ".jks": true,
		".keystore": true, ".kdbx": true, ".ppk": true, ".asc": true, ".gpg": true}
	envTemplate = lazyre.New(`(?i)\.(?:example|sample|template|dist|defaults?|schema|tmpl|tpl)$`)
)

// secretWhy returns why p (absolute, clean) holds a secret, or "".
func (j *judge) secretWhy(p string) string {
	parts := components(p)
	if len(parts) == 0 {
		return ""
	}
	base := parts[len(parts)-1]
	lower := strings.ToLower(base)
	ext := strings.ToLower(filepath.Ext(base))
	switch {
	case hasRun(parts, []string{".ssh"}, true) && strings.HasPrefix(lower, "id_") && ext != ".pub":
		return "an SSH private key"
	case j.inHomeStore(p):
		return "a credential store in your home directory"
	case credentialFiles[lower]:
		return "a credential store"
	case lower == ".env" || (strings.HasPrefix(lower, ".env.") && !envTemplate.MatchString(lower)):
		return "an environment file with secrets"
	case keyExt[ext] && !strings.HasSuffix(lower, ".pub.asc"):
		return "a key file"
	case !codeExt[ext] && secretStem.MatchString(strings.TrimSuffix(lower, ext)):
		return "a file named for a secret"
	}
	if why := j.secretPlace(p); why != "" {
		return why
	}
	return j.secretGlob(p)
}

// credentialFiles hold credentials wherever they are.
var credentialFiles = set(".netrc", ".git-credentials", ".pgpass")

// homeStores are credential stores relative to the home directory.
var homeStores = []string{".aws/credentials", ".aws/sso/cache", ".config/gcloud", ".azure",
	".kube/config", ".netrc", ".git-credentials", ".docker/config.json",
	".npmrc", ".pypirc", ".gnupg/private-keys-v1.d", ".password-store",
	".config/gh/hosts.yml", ".terraform.d/credentials.tfrc.json", ".vault-token"}

// inHomeStore reports whether p is (under) a credential store in the home directory.
func (j *judge) inHomeStore(p string) bool {
	if j.o.Home == "" {
		return false
	}
	for _, rel := range homeStores {
		if under(p, filepath.Join(j.o.Home, rel)) {
			return true
		}
	}
	return false
}

// resolve follows the symbolic links in the longest existing prefix of p (absolute, clean), so
// a link inside the project cannot point a write or a read somewhere else. Only link targets and
// directory entries are looked at, never file contents.
func resolve(p string) string {
	dir, rest := p, ""
	for i := 0; i < 256; i++ {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	return p
}

// readPath judges a read of one literal path.
func (j *judge) readPath(raw string) {
	p, ok := j.abs(raw)
	if !ok {
		return
	}
	why := j.secretWhy(p)
	if why == "" {
		why = j.secretWhy(resolve(p))
	}
	if l := j.linked(p); why == "" && l != p {
		if why = j.secretWhy(l); why != "" {
			why = "a link to " + l + ", " + why
		}
	}
	if why != "" {
		j.add(Ask, "guard/secret-read", "reads "+raw+" ("+why+"); a person must approve exposing a secret")
	}
}

// writePath judges a write (or removal, move, mode change) of one literal path. verb names
// the act in the reason; recursive marks rm -r / chmod -R style acts.
func (j *judge) writePath(raw, verb string, recursive bool) {
	p, ok := j.abs(raw)
	if !ok {
		j.add(Ask, "guard/outside-write", verb+" "+raw+" with an unknown working directory; a person must check where it lands")
		return
	}
	narrowed := narrowGlob(p)
	p = globRoot(p)
	real := resolve(p)
	why := j.protectedWhy(p)
	if why == "" {
		why = j.protectedWhy(real)
	}
	if l := j.linked(p); why == "" && l != p {
		why = j.protectedWhy(l)
	}
	if why != "" {
		j.add(Deny, "guard/protected-file", verb+" "+raw+" is not allowed: "+why+". Hooks and their configuration are changed by a person, not by an agent")
		return
	}
	if verb != "write" {
		why := j.holdsProtected(p)
		if why == "" {
			why = j.holdsProtected(real)
		}
		if why != "" {
			j.add(Deny, "guard/protected-file", verb+" "+raw+" is not allowed: "+why)
			return
		}
	}
	if recursive && !(narrowed && (p == j.o.Project || j.tempRoot(p))) && (j.wide(p) || j.wide(real)) {
		reach := "reaches far beyond the project"
		switch {
		case p == j.o.Project:
			reach = "reaches the whole project and its uncommitted work"
		case j.tempRoot(p):
			reach = "empties the whole temp dir, other programs' files and sockets with it"
		}
		j.add(Ask, "guard/wide-destruction", verb+" "+raw+" "+reach+"; a person must approve")
		return
	}
	if !j.writable(real) {
		j.add(Ask, "guard/outside-write", verb+" "+raw+" is outside the project, the temp dir and guard.allowed_dirs; a person must approve")
	}
}

// tempRoot reports p as one of the temp dirs itself (not a file in one).
func (j *judge) tempRoot(p string) bool {
	for _, d := range j.o.Temp {
		if d != "" && p == filepath.Clean(d) {
			return true
		}
	}
	return false
}

// narrowGlob reports a path whose first glob component names some entries only: it holds a
// literal character outside any [...] class and does not start with a dot (build*, *.o, not
// *, ?*, [a-z]* or .*). Such a glob reaches entries of its directory, never the directory
// itself nor every entry in it.
func narrowGlob(p string) bool {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return false
	}
	start := strings.LastIndexByte(p[:i], '/') + 1
	comp, _, _ := strings.Cut(p[start:], "/")
	if strings.HasPrefix(comp, ".") {
		return false
	}
	for k := 0; k < len(comp); k++ {
		switch comp[k] {
		case '*', '?':
		case '[':
			end := strings.IndexByte(comp[k+1:], ']')
			if end < 0 {
				return true // a lone [ is a literal character
			}
			k += end + 1
		default:
			return true
		}
	}
	return false
}

// globRoot cuts a path at its first component holding a glob character: /* is /, ~/x* is ~.
func globRoot(p string) string {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return p
	}
	dir := p[:i]
	if k := strings.LastIndexByte(dir, '/'); k >= 0 {
		dir = dir[:k]
	}
	if dir == "" {
		return "/"
	}
	return filepath.Clean(dir)
}
