package guard

import (
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// Secret reads beyond one named file: directories of secrets (read by grep -r, tar, zip, cp -r
// and the Grep tool), the files in them, system secrets, globs that can match a secret, links
// made to a secret earlier in the call, git reading a secret out of the index or the file
// system, and commands that print secrets (the environment, tokens from CLIs). Each is asked.

// secretDirs are directories of secrets under the home directory, with the names in them that
// hold none (compared lower case, relative to the directory).
var secretDirs = map[string]func(rel string) bool{
	".ssh": func(rel string) bool {
		return strings.HasSuffix(rel, ".pub") || strings.HasPrefix(rel, "known_hosts") || rel == "config" ||
			strings.HasPrefix(rel, "authorized_keys") || strings.HasPrefix(rel, "config.d/")
	},
	".aws": func(rel string) bool { return rel == "config" },
	".gnupg": func(rel string) bool {
		return strings.HasSuffix(rel, ".conf") || strings.HasPrefix(rel, "pubring") || rel == "trustdb.gpg"
	},
	".kube": func(rel string) bool {
		return strings.HasPrefix(rel, "cache/") || strings.HasPrefix(rel, "http-cache/")
	},
	".config/gh":       func(rel string) bool { return rel == "config.yml" },
	".password-store":  func(string) bool { return false },
	".docker/contexts": func(string) bool { return false },
}

// systemSecrets are files of the machine's secrets (patterns over absolute paths).
var systemSecrets = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private/*", "/etc/ssl/private", "/proc/*/environ", "/root/.ssh/*"}

// secretPlace says why p (absolute, clean) is a secret by where it is ("" if it is not): a
// directory of secrets, a file in one, or a system secret.
func (j *judge) secretPlace(p string) string {
	for _, pat := range systemSecrets {
		if ok, _ := filepath.Match(pat, p); ok {
			return "the machine's secrets"
		}
	}
	if j.o.Home == "" {
		return ""
	}
	for d, public := range secretDirs {
		dir := filepath.Join(j.o.Home, d)
		if p == dir {
			return "a directory of secrets"
		}
		if under(p, dir) {
			rel, _ := filepath.Rel(dir, p)
			if !public(strings.ToLower(filepath.ToSlash(rel))) {
				return "a file in ~/" + d + ", a directory of secrets"
			}
		}
	}
	for _, rel := range homeStores {
		if p == filepath.Dir(filepath.Join(j.o.Home, rel)) && p != j.o.Home && strings.Count(rel, "/") > 0 && !strings.HasPrefix(rel, ".config/") {
			return "a directory holding a credential store"
		}
	}
	return ""
}

// secretGlob says why a path with glob characters can match a secret ("" if it cannot): it is
// matched, name by name, against the secrets tollgate knows by name. Like the shell, * and ?
// do not match a leading dot.
func (j *judge) secretGlob(p string) string {
	if !strings.ContainsAny(p, "*?[") {
		return ""
	}
	pat := components(p)
	for _, c := range j.secretCandidates() {
		if globReaches(pat, components(c)) {
			return "it can match " + c
		}
	}
	return ""
}

func (j *judge) secretCandidates() []string {
	var out []string
	if h := j.o.Home; h != "" {
		for _, rel := range []string{".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/id_ecdsa", ".ssh/id_dsa", ".aws/credentials",
			".kube/config", ".netrc", ".git-credentials", ".docker/config.json", ".npmrc", ".pypirc", ".vault-token",
			".config/gh/hosts.yml", ".pgpass", ".gnupg/private-keys-v1.d/x.key", ".password-store/x.gpg"} {
			out = append(out, filepath.Join(h, rel))
		}
	}
	for _, d := range []string{j.cwd, j.o.Project} {
		if d != "" {
			out = append(out, filepath.Join(d, ".env"), filepath.Join(d, ".env.local"))
		}
	}
	return append(out, "/etc/shadow")
}

// globReaches reports whether pattern components match the first components of a path: the
// path itself, or a directory holding it.
func globReaches(pat, path []string) bool {
	if len(pat) > len(path) || len(pat) == 0 {
		return false
	}
	for i, pc := range pat {
		name := path[i]
		if strings.HasPrefix(name, ".") && !strings.HasPrefix(pc, ".") {
			return false
		}
		if ok, err := filepath.Match(pc, name); err != nil || !ok {
			return false
		}
	}
	return true
}

// isLink reports a bare name that is a link made earlier in the call (ln -s ~/.ssh/id_rsa k).
func (j *judge) isLink(s string) bool {
	if len(j.links) == 0 {
		return false
	}
	p, ok := j.abs(s)
	return ok && j.links[p] != ""
}

// linked is p with the links made earlier in the call followed (p itself if none).
func (j *judge) linked(p string) string {
	q, _ := j.viaLink(p)
	return q
}

// notePiped marks the words of a command whose output is piped into a command that reads a
// secret on its standard input (docker login --password-stdin, gh auth login --with-token):
// what it prints is that command's input, not shown to the agent.
func (j *judge) notePiped(x, y *syntax.Stmt) {
	ce, ok := x.Cmd.(*syntax.CallExpr)
	if !ok || !j.readsSecretOnStdin(y) {
		return
	}
	s := j.state()
	if s.piped == nil {
		s.piped = map[*syntax.Word]bool{}
	}
	for _, w := range ce.Args {
		s.piped[w] = true
	}
}

// stdinSecretWords mark a command that reads a password or token on its standard input.
var stdinSecretWords = set("--password-stdin", "--with-token", "--passphrase-fd", "stdin", "/dev/stdin", "--stdin")

func (j *judge) readsSecretOnStdin(y *syntax.Stmt) bool {
	ce, ok := y.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 {
		return false
	}
	for _, w := range ce.Args[1:] {
		s := w.Lit()
		if k := strings.IndexByte(s, '='); k > 0 {
			s = s[k+1:] // --from-file=/dev/stdin
		}
		if stdinSecretWords[s] {
			return true
		}
	}
	return false
}

func (j *judge) isPiped(args []arg) bool {
	if j.routes == nil || len(args) == 0 || args[0].w == nil {
		return false
	}
	return j.routes.piped[args[0].w]
}

// secretVar names a variable that holds a secret ($GITHUB_TOKEN, $AWS_SECRET_ACCESS_KEY).
var (
	secretVar = lazyre.New(`(?i)token|secret|passw|credential|api_?key|access_?key|private_?key|(?:^|_)auth(?:_key)?$|_key$`)
	paramRef  = lazyre.New(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
)

// printsSecretVar reports echo or printf printing a secret-named variable to the agent (not
// into a pipe).
func printsSecretVar(j *judge, args []arg) bool {
	if j.isPiped(args) {
		return false
	}
	for _, a := range args {
		if !a.dyn {
			continue
		}
		for _, m := range paramRef.FindAllStringSubmatch(a.s, -1) {
			if secretVar.MatchString(m[1]) {
				return true
			}
		}
	}
	return false
}

// treeReaders say, from a command's option words, whether it reads its directory operands
// whole (nil: always, as rg, ag and rsync do).
var treeReaders = map[string]func(opts []string) bool{
	"grep": grepRecursive, "egrep": grepRecursive, "fgrep": grepRecursive,
	"rg": nil, "ag": nil, "ack": nil, "rsync": nil, "7z": nil,
	"tar": func(opts []string) bool {
		return !hasShort(opts, 'x', "extract", "get") && !hasShort(opts, 't', "list")
	},
	"zip": func(opts []string) bool { return hasShort(opts, 'r', "recurse-paths") },
	"scp": func(opts []string) bool { return hasShort(opts, 'r') },
	"cp": func(opts []string) bool {
		return hasShort(opts, 'r', "recursive") || hasShort(opts, 'R') || hasShort(opts, 'a', "archive")
	},
}

func grepRecursive(opts []string) bool {
	for _, o := range opts {
		if o == "--directories=recurse" || o == "=recurse" {
			return true
		}
	}
	return hasShort(opts, 'r', "recursive") || hasShort(opts, 'R', "dereference-recursive")
}

// readsHomeTree reports a command reading the home directory whole, or the root or another
// directory above home (by its options, as treeReaders say).
func (j *judge) readsHomeTree(name string, args []arg) bool {
	recursive, known := treeReaders[name]
	if !known || j.o.Home == "" {
		return false
	}
	opts, ops := operands(args, set("-e", "-f", "-C", "--directory", "-t", "-g", "--glob", "--type", "-m", "-A", "-B", "--file", "-T", "-X", "--exclude", "-P", "-l", "--include"))
	if recursive != nil && !recursive(opts) {
		return false
	}
	if dir, ok := optValue(opts, "-C", "--directory"); ok && name == "tar" {
		ops = append(ops, arg{s: dir}) // tar -C ~ . archives home
	}
	for _, a := range ops {
		if a.dyn || strings.Contains(a.s, ":") {
			continue
		}
		p, ok := j.abs(strings.TrimSuffix(a.s, "/."))
		if ok && (p == j.o.Home || under(j.o.Home, p)) {
			return true
		}
	}
	return false
}

// envPrints reports env run without a command: it prints the whole environment.
func envPrints(_ *judge, args []arg) bool {
	rest, assigns := envSplit(args)
	for _, a := range assigns {
		if a.s == "\x00S" {
			return false
		}
	}
	return len(rest) == 0
}

// printenvPrints reports printenv of everything, or of a secret-named variable.
func printenvPrints(_ *judge, args []arg) bool {
	_, ops := operands(args, nil)
	if len(ops) == 0 {
		return true
	}
	for _, a := range ops {
		if secretVar.MatchString(a.s) {
			return true
		}
	}
	return false
}

func noArgs(_ *judge, args []arg) bool { return len(args) == 0 }

// declaresPrint reports export, declare or typeset printing values: with no name (export,
// export -p, declare -x; not -f/-F, which print functions), or -p of a name that holds a
// secret (declare -p GITHUB_TOKEN).
func declaresPrint(_ *judge, args []arg) bool {
	var names []arg
	withP := false
	for _, a := range args {
		switch s := a.s; {
		case a.dyn:
			names = append(names, a)
		case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
			if strings.ContainsAny(s[1:], "fF") {
				return false
			}
			withP = withP || strings.ContainsRune(s[1:], 'p')
		default:
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		return true
	}
	for _, a := range names {
		if withP && !strings.Contains(a.s, "=") && secretVar.MatchString(a.s) {
			return true
		}
	}
	return false
}

func hasRaw(_ *judge, args []arg) bool { return hasArg(args, "--raw", "--flatten") }

func withDecryption(_ *judge, args []arg) bool { return hasArg(args, "--with-decryption") }

func showsToken(_ *judge, args []arg) bool { return hasArg(args, "--show-token", "-t") }

// kubeSecretDump reports kubectl get secret ... -o yaml|json|jsonpath|go-template (the values).
func kubeSecretDump(_ *judge, args []arg) bool {
	ops := firstOperands(args, kubeValues)
	if len(ops) < 2 || ops[0] != "get" || !strings.HasPrefix(ops[1], "secret") {
		return false
	}
	for i, a := range args {
		v := ""
		switch {
		case (a.s == "-o" || a.s == "--output") && i+1 < len(args):
			v = args[i+1].s
		case strings.HasPrefix(a.s, "-o"):
			v = strings.TrimPrefix(strings.TrimPrefix(a.s, "-o"), "=")
		case strings.HasPrefix(a.s, "--output="):
			v = strings.TrimPrefix(a.s, "--output=")
		}
		if v != "" && !strings.HasPrefix(v, "name") && !strings.HasPrefix(v, "wide") {
			return true
		}
	}
	return false
}

// awsSecretKey reports aws configure get of a secret key.
func awsSecretKey(_ *judge, args []arg) bool {
	ops := firstOperands(args, set("--profile", "--region", "--output"))
	return len(ops) > 2 && secretVar.MatchString(ops[2])
}

// keychainPassword reports security find-*-password printing the password (-w, -g).
func keychainPassword(_ *judge, args []arg) bool {
	return len(args) > 0 && strings.HasSuffix(args[0].s, "-password") && hasArg(args, "-w", "-g")
}

// gitReads asks about git reading a secret: diff --no-index of files outside git, and blobs
// named by path (show :.env, cat-file -p HEAD:.env).
func (j *judge) gitReads(sub string, rest []arg, w gitWhere) {
	switch sub {
	case "diff":
		if !hasArg(rest, "--no-index") {
			return
		}
		_, ops := operands(rest, nil)
		for _, a := range ops {
			if p, ok := j.in(w.dir, a); ok {
				j.readPath(p)
			}
		}
	case "show", "cat-file", "grep", "blame", "log":
		top := w.dir
		if under(w.dir, j.o.Project) {
			top = j.o.Project
		}
		_, ops := operands(rest, nil)
		for _, a := range ops {
			_, path, ok := strings.Cut(a.s, ":")
			if !ok || a.dyn || path == "" || strings.Contains(a.s, "://") {
				continue
			}
			if k := strings.IndexByte(path, ':'); k == 1 && strings.Contains("0123", path[:1]) {
				path = path[2:] // :1:path, a merge stage
			}
			base := top
			if strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
				base = w.dir
			}
			if p, ok := j.in(base, arg{s: path}); ok {
				j.readPath(p)
			}
		}
	}
}

// keyFlags are, per tool, the options whose value is a key or certificate the tool uses (to
// log in, sign, decrypt, make a request) without printing it, or a file it writes (openssl
// -out and -keyout, judged as writes by hOpenssl).
var keyFlags = map[string]map[string]bool{
	"ssh": set("-i"), "scp": set("-i"), "sftp": set("-i"), "ssh-copy-id": set("-i"), "autossh": set("-i"), "mosh": set("-i"),
	"ssh-keygen": set("-f"),
	"curl":       set("--key", "--cert", "-E", "--cacert", "--proxy-key", "--proxy-cert", "--proxy-cacert"),
	"wget":       set("--private-key", "--certificate", "--ca-certificate"),
	"openssl":    set("-key", "-inkey", "-signkey", "-CAkey", "-CA", "-cert", "-CAfile", "-keyfile", "-certfile", "-out", "-keyout"),
	"cosign":     set("--key"), "age": set("-i", "--identity"), "rage": set("-i", "--identity"),
	"gcloud": set("--key-file"), "kubectl": set("--client-key", "--client-certificate", "--certificate-authority"),
	"docker": set("--tlskey", "--tlscert", "--tlscacert"), "helm": set("--key-file", "--cert-file", "--ca-file"),
	"ansible-vault": set("--vault-password-file", "--vault-id"), "ansible-playbook": set("--vault-password-file", "--private-key", "--key-file"),
	"bundletool": set("--ks"), "jarsigner": set("-keystore"), "apksigner": set("--ks"), "keytool": set("-keystore"),
}

// usesKey reports args[k] as the value of one of the tool's key options (-i KEY, -iKEY,
// --key=KEY).
func (j *judge) usesKey(name string, args []arg, k int) bool {
	flags := keyFlags[name]
	if flags == nil {
		return false
	}
	a := args[k].s
	if k > 0 && flags[args[k-1].s] {
		return true
	}
	if name == "openssl" && k > 0 && args[k-1].s == "-in" && opensslPublicOut(args) {
		return true // openssl rsa -in KEY -pubout prints the public half only
	}
	if f, _, ok := strings.Cut(a, "="); ok && flags[f] {
		return true
	}
	for f := range flags {
		if len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2 { // -iKEY
			return true
		}
	}
	return false
}

// opensslPublicOut reports an openssl key command that prints only the public half of its
// -in key: -pubout, and no -text (which prints the private numbers too).
func opensslPublicOut(args []arg) bool {
	return hasArg(args, "-pubout") && !hasArg(args, "-text")
}
