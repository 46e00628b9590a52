package guard

import (
	"strings"
)

var fileHandlers = map[string]handler{
	"rm": hRemove, "rmdir": hRemove, "unlink": hRemove, "shred": hRemove, "srm": hRemove, "trash": hRemove,
	"mv": hCopy, "cp": hCopy, "ln": hCopy, "install": hCopy, "rsync": hCopy, "scp": hCopy,
	"touch": hTargets, "mkdir": hTargets, "tee": hTargets, "truncate": hTargets,
	"chmod": hMode, "chown": hMode, "chgrp": hMode, "chattr": hMode, "setfacl": hMode,
	"sed": hSed, "dd": hDD, "curl": hDownload, "wget": hDownload,
	"tar": hTar, "unzip": hUnzip, "patch": hTargets,
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
	var opts []string
	var ops []arg
	for i, a := range args {
		s := a.s
		if s == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		// chmod -x and chmod -w are modes, not options
		isMode := (name == "chmod") && len(ops) == 0 && len(s) > 1 && strings.Trim(s[1:], "rwxXstugo") == "" && s[0] == '-' && s != "-R"
		if len(s) > 1 && s[0] == '-' && !isMode && !a.dyn {
			opts = append(opts, s)
			continue
		}
		ops = append(ops, a)
	}
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

func hSed(j *judge, _ string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, set("-e", "-f", "-l", "--expression", "--file", "--line-length"))
	inPlace := false
	script := true
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "--in-place"):
			inPlace = true
		case o == "-e" || o == "-f" || o == "--expression" || o == "--file" ||
			strings.HasPrefix(o, "--expression=") || strings.HasPrefix(o, "--file="):
			script = false
		case strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") && strings.Contains(o, "i"):
			inPlace = true
		}
	}
	if !inPlace {
		return
	}
	if script && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, a := range ops {
		j.target(a, "editing", false)
	}
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
	var out []string
	for i, a := range args {
		s := a.s
		next := func() string {
			if i+1 < len(args) {
				return args[i+1].s
			}
			return ""
		}
		switch {
		case name == "curl" && (s == "-o" || s == "--output"):
			out = append(out, next())
		case name == "curl" && strings.HasPrefix(s, "--output="):
			out = append(out, strings.TrimPrefix(s, "--output="))
		case name == "wget" && (s == "-O" || s == "--output-document" || s == "-P" || s == "--directory-prefix"):
			out = append(out, next())
		case name == "wget" && (strings.HasPrefix(s, "--output-document=") || strings.HasPrefix(s, "--directory-prefix=")):
			out = append(out, s[strings.IndexByte(s, '=')+1:])
		case name == "wget" && strings.HasPrefix(s, "-O") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			out = append(out, s[2:])
		case name == "wget" && strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.HasSuffix(s, "O") && len(s) > 2:
			out = append(out, next()) // -qO file
		}
	}
	for _, o := range out {
		if o == "" || o == "-" {
			continue
		}
		j.target(arg{s: o}, "downloading to", false)
		if p, ok := j.abs(o); ok {
			if j.fetched == nil {
				j.fetched = map[string]bool{}
			}
			j.fetched[p] = true
		}
	}
}

func hTar(j *judge, _ string, args []arg, _ *stdinSrc) {
	opts, ops := operands(args, set("-C", "--directory", "-f", "--file", "-T", "-X", "--exclude", "-b", "-H", "--format"))
	extract := hasShort(opts, 'x', "extract", "get")
	if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") && strings.ContainsRune(args[0].s, 'x') {
		extract = true // tar xzf old-style
	}
	if !extract {
		_ = ops
		return
	}
	if dir, ok := optValue(opts, "-C", "--directory"); ok {
		j.target(arg{s: dir}, "extracting into", false)
	}
}

func hUnzip(j *judge, _ string, args []arg, _ *stdinSrc) {
	for i, a := range args {
		if a.s == "-d" && i+1 < len(args) {
			j.target(args[i+1], "extracting into", false)
		}
	}
}

// destructive judges commands without a handler that destroy disks or the machine's state.
func (j *judge) destructive(name string, args []arg) {
	switch {
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "wipefs" || name == "fdisk" ||
		name == "sfdisk" || name == "parted" || name == "gdisk" || name == "sgdisk" || name == "cryptsetup" || name == "blkdiscard":
		j.add(Ask, "guard/wide-destruction", name+" rewrites disks or partitions; a person must approve")
	case name == "diskutil" && len(args) > 0 && strings.Contains(strings.ToLower(args[0].s), "erase"):
		j.add(Ask, "guard/wide-destruction", "diskutil erases a disk; a person must approve")
	case name == "shutdown" || name == "reboot" || name == "halt" || name == "poweroff":
		j.add(Ask, "guard/wide-destruction", name+" stops the machine; a person must approve")
	case name == "crontab" && hasArg(args, "-r"):
		j.add(Ask, "guard/wide-destruction", "crontab -r deletes every scheduled job; a person must approve")
	}
}

// hFind judges find's -exec/-execdir/-ok payloads (with {} standing for a file under each
// starting point) and -delete.
func hFind(j *judge, _ string, args []arg, _ *stdinSrc) {
	i := 0
	for i < len(args) && (args[i].s == "-H" || args[i].s == "-L" || args[i].s == "-P" || strings.HasPrefix(args[i].s, "-O") || args[i].s == "-D") {
		if args[i].s == "-D" {
			i++
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
	for ; i < len(args); i++ {
		switch args[i].s {
		case "-delete":
			for _, s := range starts {
				j.target(s, "find -delete under", false)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			k := i + 1
			for k < len(args) && args[k].s != ";" && args[k].s != "+" {
				k++
			}
			for _, s := range starts {
				cmd := make([]arg, 0, k-i-1)
				for _, a := range args[i+1 : k] {
					if strings.Contains(a.s, "{}") && !s.dyn {
						a = arg{s: strings.ReplaceAll(a.s, "{}", strings.TrimSuffix(s.s, "/")+"/found"), w: a.w}
					}
					cmd = append(cmd, a)
				}
				j.exec(cmd, nil)
			}
			i = k
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				j.target(args[i+1], "writing", false)
			}
		}
	}
}
