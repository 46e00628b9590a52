package guard

import (
	"path/filepath"
	"strings"
)

var fileHandlers = map[string]handler{
	"rm": hRemove, "rmdir": hRemove, "unlink": hRemove, "shred": hRemove, "srm": hRemove, "trash": hRemove,
	"mv": hCopy, "cp": hCopy, "ln": hCopy, "install": hCopy, "rsync": hCopy, "scp": hCopy,
	"touch": hTargets, "mkdir": hTargets, "tee": hTargets, "truncate": hTargets,
	"chmod": hMode, "chown": hMode, "chgrp": hMode, "chattr": hMode, "setfacl": hMode,
	"sed": hSed, "dd": hDD, "curl": hDownload, "wget": hDownload,
	"tar": hTar, "unzip": hUnzip, "patch": hTargets, "openssl": hOpenssl,
}

// hOpenssl judges the files an openssl command writes: -out and -keyout (the keys and
// certificates it reads are judged by argPaths, the ones it only uses pass).
func hOpenssl(j *judge, _ string, args []arg, _ *stdinSrc) {
	for i, a := range args {
		if (a.s == "-out" || a.s == "-keyout") && i+1 < len(args) {
			j.target(args[i+1], "writing", false)
		}
	}
}

// operands splits args into option words and operands, honouring "--" and options that take
// the next word.
func operands(args []arg, values map[string]bool) (opts []string, ops []arg) {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "--":
			return opts, append(ops, args[i+1:]...)
		case len(s) > 1 && s[0] == '-' && !args[i].dyn:
			opts = append(opts, s)
			if values[s] && i+1 < len(args) {
				i++
				opts = append(opts, "="+args[i].s) // the value, marked
			}
		default:
			ops = append(ops, args[i])
		}
	}
	return opts, ops
}

// hasShort reports whether option words hold the short letter c (in a cluster) or a long name.
func hasShort(opts []string, c byte, long ...string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, "--") {
			name, _, _ := strings.Cut(o[2:], "=")
			for _, l := range long {
				if name == l {
					return true
				}
			}
			continue
		}
		if strings.HasPrefix(o, "-") && strings.IndexByte(o[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// optValue returns the value of a short or long option (separate, stuck or after =).
func optValue(opts []string, short string, long string) (string, bool) {
	for i, o := range opts {
		switch {
		case (o == short || o == long) && i+1 < len(opts) && strings.HasPrefix(opts[i+1], "="):
			return opts[i+1][1:], true
		case long != "" && strings.HasPrefix(o, long+"="):
			return o[len(long)+1:], true
		case short != "" && len(short) == 2 && strings.HasPrefix(o, short) && len(o) > 2 && !strings.HasPrefix(o, "--"):
			return o[2:], true
		}
	}
	return "", false
}

func hRemove(j *judge, name string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, nil)
	if (name == "shred" || name == "srm") && len(ops) > 0 {
		// its purpose is that nothing can bring the file back, not even a copy on disk: rare
		// in an agent's work, and never undone
		j.add(Ask, "guard/wide-destruction", name+" overwrites "+shorten(ops[0].s, 60)+" so that nothing can recover it; a person must approve")
	}
	recursive := name == "rmdir" || hasShort(opts, 'r', "recursive") || hasShort(opts, 'R', "recursive")
	for _, a := range ops {
		j.target(a, "deleting", recursive)
	}
}

// target judges one operand a command writes or removes.
func (j *judge) target(a arg, verb string, recursive bool) {
	if j.remote > 0 {
		if p := a.s; recursive && !a.dyn && strings.HasPrefix(p, "/") && j.wide(globRoot(p)) {
			j.add(Ask, "guard/wide-destruction", verb+" "+p+" on another machine reaches far beyond a project; a person must approve")
		}
		return
	}
	if a.dyn {
		if recursive {
			j.add(Ask, "guard/wide-destruction", verb+" "+shorten(a.s, 60)+" recursively, and the path is only known at run time; a person must check it")
		}
		return
	}
	if recursive && a.every != "" {
		j.writePath(a.every, verb, true) // rm -rf * empties the directory * lists
	}
	j.writePath(a.s, verb, recursive)
}

var copyValues = set("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group",
	"-e", "--rsh", "--exclude", "--include", "--filter", "-f", "-i", "-P", "-F", "-l", "-c", "-J", "-o", "--rsync-path", "--backup-dir", "--chmod", "--chown", "--exclude-from", "--include-from", "--files-from")

func hCopy(j *judge, name string, args []arg, _ *stdinSrc) {
	values := copyValues
	if name == "cp" || name == "mv" || name == "ln" {
		values = set("-t", "--target-directory", "-S", "--suffix")
	}
	opts, ops := operands(args, values)
	if dir, ok := optValue(opts, "-t", "--target-directory"); ok {
		ops = append(ops, arg{s: dir})
	}
	if len(ops) == 0 {
		return
	}
	remote := func(a arg) bool {
		k := strings.IndexByte(a.s, ':')
		return (name == "rsync" || name == "scp") && k > 0 && !strings.Contains(a.s[:k], "/")
	}
	dest := ops[len(ops)-1]
	if name == "ln" && len(ops) == 1 {
		dest = arg{s: "."}
	}
	verb := map[string]string{"mv": "moving to", "cp": "copying to", "ln": "linking", "install": "installing to", "rsync": "syncing to", "scp": "copying to"}[name]
	if !remote(dest) {
		j.target(dest, verb, name == "rsync" && hasShort(opts, 'x', "delete"))
	}
	if name == "mv" {
		for _, src := range ops[:len(ops)-1] {
			j.target(src, "moving", false)
		}
	}
}

func hTargets(j *judge, name string, args []arg, _ *stdinSrc) {
	values := map[string]map[string]bool{
		"touch": set("-d", "-t", "-r", "--date", "--reference"), "mkdir": set("-m", "--mode"),
		"truncate": set("-s", "-r", "--size", "--reference"), "patch": set("-p", "-i", "-o", "-d", "-r", "-B", "-z", "-D", "-F", "-V"),
	}[name]
	opts, ops := operands(args, values)
	if name == "patch" {
		if out, ok := optValue(opts, "-o", "--output"); ok {
			j.target(arg{s: out}, "writing", false)
		}
		if len(ops) > 0 {
			j.target(ops[0], "patching", false)
		}
		return
	}
	verb := map[string]string{"touch": "touching", "mkdir": "creating", "tee": "writing to", "truncate": "truncating"}[name]
	for _, a := range ops {
		j.target(a, verb, false)
	}
}

func hMode(j *judge, name string, args []arg, _ *stdinSrc) {
	opts, ops := modeOperands(name, args)
	if name == "setfacl" || name == "chattr" {
		ops = append([]arg{{}}, ops...)
	}
	if len(ops) < 2 {
		return
	}
	recursive := hasShort(opts, 'R', "recursive")
	for _, a := range ops[1:] {
		j.target(a, "changing the mode or owner of", recursive)
	}
}

// modeOperands splits chmod/chown/... words into options and operands (the mode or owner
// first), honouring "--".
func modeOperands(name string, args []arg) (opts []string, ops []arg) {
	for i, a := range args {
		s := a.s
		if s == "--" {
			return opts, append(ops, args[i+1:]...)
		}
		if len(s) > 1 && s[0] == '-' && !a.dyn && !(name == "chmod" && len(ops) == 0 && isSymbolicMode(s)) {
			opts = append(opts, s)
			continue
		}
		ops = append(ops, a)
	}
	return opts, ops
}

// isSymbolicMode reports a chmod mode spelled like an option: chmod -x and chmod -w are modes.
func isSymbolicMode(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "rwxXstugo") == "" && s != "-R"
}

func hSed(j *judge, _ string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, sedValues)
	inPlace, script := sedMode(opts)
	if !inPlace {
		return
	}
	j.sedWrites(opts, ops, script) // shellwrites.go: the text it writes
	if script && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, a := range ops {
		j.target(a, "editing", false)
	}
}

var (
	sedValues     = set("-e", "-f", "-l", "--expression", "--file", "--line-length")
	sedScriptOpts = set("-e", "-f", "--expression", "--file")
)

// sedMode reads sed's options: does it edit files in place, and is the script its first
// operand (no -e or -f gave it).
func sedMode(opts []string) (inPlace, script bool) {
	script = true
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "--in-place"):
			inPlace = true
		case sedScriptOpts[o] || strings.HasPrefix(o, "--expression=") || strings.HasPrefix(o, "--file="):
			script = false
		case strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") && strings.Contains(o, "i"):
			inPlace = true
		}
	}
	return inPlace, script
}

func hDD(j *judge, _ string, args []arg, _ *stdinSrc) {
	for _, a := range args {
		if !strings.HasPrefix(a.s, "of=") {
			continue
		}
		p := strings.TrimPrefix(a.s, "of=")
		if strings.HasPrefix(p, "/dev/") && !j.writable(p) {
			j.add(Ask, "guard/wide-destruction", "dd writes the raw device "+p+"; a person must approve")
			continue
		}
		j.target(arg{s: p, dyn: a.dyn}, "writing", false)
	}
}

func hDownload(j *judge, name string, args []arg, _ *stdinSrc) {
	output := downloadOutputs[name]
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1].s
		}
		if o, ok := output(a.s, next); ok && o != "" && o != "-" {
			j.downloadTo(o)
		}
	}
}

// downloadOutputs read one word of a downloader (and the word after it): the file it names
// as the download's destination, if any.
var downloadOutputs = map[string]func(s, next string) (string, bool){"curl": curlOutput, "wget": wgetOutput}

func curlOutput(s, next string) (string, bool) {
	switch {
	case s == "-o" || s == "--output":
		return next, true
	case strings.HasPrefix(s, "--output="):
		return strings.TrimPrefix(s, "--output="), true
	}
	return "", false
}

func wgetOutput(s, next string) (string, bool) {
	switch {
	case s == "-O" || s == "--output-document" || s == "-P" || s == "--directory-prefix":
		return next, true
	case strings.HasPrefix(s, "--output-document=") || strings.HasPrefix(s, "--directory-prefix="):
		return s[strings.IndexByte(s, '=')+1:], true
	case strings.HasPrefix(s, "--") || len(s) <= 2:
		return "", false
	case strings.HasPrefix(s, "-O"):
		return s[2:], true
	case strings.HasPrefix(s, "-") && strings.HasSuffix(s, "O"):
		return next, true // -qO file
	}
	return "", false
}

// downloadTo judges a downloader's destination and remembers it, so running it later in the
// same call asks.
func (j *judge) downloadTo(o string) {
	j.target(arg{s: o}, "downloading to", false)
	if p, ok := j.abs(o); ok {
		if j.fetched == nil {
			j.fetched = map[string]bool{}
		}
		j.fetched[p] = true
	}
}

func hTar(j *judge, _ string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, set("-C", "--directory", "-f", "--file", "-T", "-X", "--exclude", "-b", "-H", "--format"))
	extract := hasShort(opts, 'x', "extract", "get")
	if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") && strings.ContainsRune(args[0].s, 'x') {
		extract = true // tar xzf old-style
	}
	if !extract {
		if dir, ok := optValue(opts, "-C", "--directory"); ok {
			for _, a := range ops {
				if !a.dyn {
					j.readPath(filepath.Join(dir, a.s)) // tar -C ~ .ssh archives ~/.ssh
				}
			}
		}
		return
	}
	dir, _ := optValue(opts, "-C", "--directory")
	if dir != "" {
		j.target(arg{s: dir}, "extracting into", false)
	}
	j.extractInto("tar", tarArchive(args), arg{s: dir}) // archive.go
}

// tarArchive is the archive tar reads: -f FILE, --file=FILE, a cluster ending in f (-xzf FILE,
// xzf FILE), or stdin ("").
func tarArchive(args []arg) arg {
	for i, a := range args {
		s := a.s
		switch {
		case s == "--":
			return arg{}
		case strings.HasPrefix(s, "--file="):
			return arg{s: strings.TrimPrefix(s, "--file="), dyn: a.dyn, w: a.w}
		case s == "--file" || s == "-f":
			if i+1 < len(args) {
				return args[i+1]
			}
		case strings.HasPrefix(s, "--"):
		case (i == 0 || strings.HasPrefix(s, "-")) && strings.ContainsRune(s, 'f') && !a.dyn:
			k := strings.IndexByte(s, 'f')
			if rest := s[k+1:]; rest != "" && strings.HasPrefix(s, "-") {
				return arg{s: rest, w: a.w} // -xzfarchive.tgz
			}
			if i+1 < len(args) {
				return args[i+1]
			}
		}
	}
	return arg{}
}

func hUnzip(j *judge, _ string, args []arg, _ *stdinSrc) {
	var archive, dir arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.s == "-d" && i+1 < len(args):
			j.target(args[i+1], "extracting into", false)
			dir = args[i+1]
			i++
		case a.s == "-x" || a.s == "-P":
			i++ // -x excludes members, -P a password
		case strings.HasPrefix(a.s, "-") && !a.dyn:
		case archive.s == "" && !archive.dyn:
			archive = a
		}
	}
	if listOnly := hasArg(args, "-l", "-v", "-Z", "-t", "-z"); !listOnly {
		j.extractInto("unzip", archive, dir)
	}
}

// destructive judges commands without a handler that destroy disks or the machine's state. A
// disk tool given only files (an image, no device under /dev, every word known) writes those
// files, and is judged as a write of each.
func (j *judge) destructive(name string, args []arg) {
	if (strings.HasPrefix(name, "mkfs") || diskTools[name]) && j.imageOnly(args) {
		for _, a := range args {
			if !strings.HasPrefix(a.s, "-") {
				j.target(a, name+" writing", false)
			}
		}
		return
	}
	if what := destroys(name, args); what != "" {
		j.add(Ask, "guard/wide-destruction", what+"; a person must approve")
	}
}

var (
	diskTools    = set("mke2fs", "wipefs", "fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cryptsetup", "blkdiscard")
	machineStops = set("shutdown", "reboot", "halt", "poweroff")
)

// imageOnly reports a disk tool's words naming no device: some operand, none of them under
// /dev (as written or once links are followed) or known only at run time.
func (j *judge) imageOnly(args []arg) bool {
	files := 0
	for _, a := range args {
		if a.dyn {
			return false
		}
		if strings.HasPrefix(a.s, "-") {
			continue
		}
		p, ok := j.abs(a.s)
		if !ok || under(p, "/dev") || under(resolve(p), "/dev") {
			return false
		}
		files++
	}
	return files > 0
}

// destroys says what a command destroys beyond any project ("" if nothing).
func destroys(name string, args []arg) string {
	switch {
	case strings.HasPrefix(name, "mkfs") || diskTools[name]:
		return name + " rewrites disks or partitions"
	case name == "diskutil" && len(args) > 0 && strings.Contains(strings.ToLower(args[0].s), "erase"):
		return "diskutil erases a disk"
	case machineStops[name]:
		return name + " stops the machine"
	case name == "crontab" && hasArg(args, "-r"):
		return "crontab -r deletes every scheduled job"
	}
	return ""
}

// hFind judges find's -exec/-execdir/-ok payloads (with {} standing for a file under each
// starting point) and -delete. Unless the expression selects by name or path, find matches
// every file under a starting point and the starting point itself: -delete is then a
// recursive removal of it, and a payload is judged with {} standing for it as well.
func hFind(j *judge, _ string, args []arg, _ *stdinSrc) {
	starts, i := findStarts(args)
	everything := !findNarrowed(args[i:])
	for ; i < len(args); i++ {
		switch args[i].s {
		case "-delete":
			for _, s := range starts {
				j.target(s, "find -delete under", everything)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			k := i + 1
			for k < len(args) && args[k].s != ";" && args[k].s != "+" {
				k++
			}
			j.findExec(starts, args[i+1:k], everything)
			i = k
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				j.target(args[i+1], "writing", false)
			}
			i += findValues(args[i].s)
		default:
			i += findValues(args[i].s)
		}
	}
}

// findStarts returns find's starting points (. when none) and the index of its first
// expression word, past the leading -H/-L/-P/-O/-D options.
func findStarts(args []arg) ([]arg, int) {
	i := 0
	for i < len(args) && isFindGlobal(args[i].s) {
		if args[i].s == "-D" {
			i++ // -D takes a value
		}
		i++
	}
	var starts []arg
	for i < len(args) && !strings.HasPrefix(args[i].s, "-") && args[i].s != "(" && args[i].s != "!" {
		starts = append(starts, args[i])
		i++
	}
	if len(starts) == 0 {
		starts = []arg{{s: "."}}
	}
	return starts, i
}

func isFindGlobal(s string) bool {
	return s == "-H" || s == "-L" || s == "-P" || s == "-D" || strings.HasPrefix(s, "-O")
}

// findExec judges an -exec payload once per starting point, {} standing for a file under it,
// and once more for the starting point itself when find matches everything.
func (j *judge) findExec(starts, words []arg, everything bool) {
	for _, s := range starts {
		found := []string{strings.TrimSuffix(s.s, "/") + "/found"}
		if everything {
			found = append(found, s.s)
		}
		if everything && len(words) > 0 && fileRemovers[filepath.Base(words[0].s)] && !words[0].dyn {
			// rm, shred or unlink of every file under s (.git's included) removes all of it
			j.target(s, "find -exec "+filepath.Base(words[0].s)+" on every file under", true)
		}
		for _, f := range found {
			cmd := make([]arg, 0, len(words))
			for _, a := range words {
				if strings.Contains(a.s, "{}") && !s.dyn {
					a = arg{s: strings.ReplaceAll(a.s, "{}", f), w: a.w}
				}
				cmd = append(cmd, a)
			}
			j.exec(cmd, nil)
		}
	}
}

// findValues is how many words a find primary takes (-name PATTERN, -gid N, -fprintf FILE
// FORMAT: a "-delete" following -gid is its value, not an action).
func findValues(s string) int {
	switch {
	case findValued[s] || strings.HasPrefix(s, "-newer"):
		return 1
	case s == "-fprintf":
		return 2
	case s == "-fprint" || s == "-fprint0" || s == "-fls":
		return 1
	}
	return 0
}

var findValued = set("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
	"-lname", "-ilname", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-inum",
	"-samefile", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used",
	"-links", "-maxdepth", "-mindepth", "-fstype", "-context", "-printf", "-regextype", "-files0-from")

// fileRemovers delete the files they are given (rmdir only empty directories, so not it).
var fileRemovers = set("rm", "unlink", "shred", "srm", "trash")

// findNarrowed reports an expression that selects by name or path (-name '*.pyc', -path, -regex,
// ...; not negated, no -o or "," that adds other matches, the pattern known and not "*"):
// find then matches only files so named.
func findNarrowed(expr []arg) bool {
	narrowed := false
	for i, a := range expr {
		switch a.s {
		case "-o", "-or", ",":
			return false
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			negated := i > 0 && (expr[i-1].s == "!" || expr[i-1].s == "-not")
			if i+1 < len(expr) && !negated && !expr[i+1].dyn && strings.Trim(expr[i+1].s, "*?.") != "" {
				narrowed = true
			}
		}
	}
	return narrowed
}
