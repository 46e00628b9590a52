package guard

import (
	"os"
	"path/filepath"
	"strings"
)

// Links made earlier in the same call: ln -s .git/hooks h makes h/pre-commit the hook itself.
// Links already on disk are followed by resolve (paths.go).

// noteLink records the links ln makes: where each points.
func (j *judge) noteLink(args []arg) {
	opts, ops := operands(args, set("-t", "--target-directory", "-S", "--suffix"))
	symbolic := hasShort(opts, 's', "symbolic")
	dir, hasDir := optValue(opts, "-t", "--target-directory")
	var targets []arg
	var dest string
	switch {
	case hasDir:
		targets = ops
	case len(ops) == 1:
		targets, dest = ops, "."
	case len(ops) > 1:
		targets, dest = ops[:len(ops)-1], ops[len(ops)-1].s
	}
	for _, t := range targets {
		if t.dyn {
			continue
		}
		linkPath := dest
		if hasDir || len(targets) > 1 || dest == "." || j.isDir(dest) && !hasShort(opts, 'T', "no-target-directory") {
			base := dest
			if hasDir {
				base = dir
			}
			linkPath = filepath.Join(base, filepath.Base(t.s))
		}
		lp, ok := j.abs(linkPath)
		if !ok {
			continue
		}
		target := j.expandHome(t.s)
		if !filepath.IsAbs(target) {
			if symbolic && !hasShort(opts, 'r', "relative") {
				target = filepath.Join(filepath.Dir(lp), target) // relative to the link's directory
			} else if tp, ok := j.abs(target); ok {
				target = tp
			} else {
				continue
			}
		}
		if j.links == nil {
			j.links = map[string]string{}
		}
		j.links[lp] = filepath.Clean(target)
	}
}

func (j *judge) isDir(p string) bool {
	ap, ok := j.abs(p)
	if !ok {
		return false
	}
	fi, err := os.Stat(ap)
	return err == nil && fi.IsDir()
}

// viaLink rewrites an absolute path that goes through a link made earlier in the call.
func (j *judge) viaLink(p string) (string, bool) {
	changed := false
	for i := 0; i < 8 && len(j.links) > 0; i++ {
		hit := false
		for link, target := range j.links {
			if under(p, link) {
				rel, _ := filepath.Rel(link, p)
				p, hit, changed = filepath.Join(target, rel), true, true
				break
			}
		}
		if !hit {
			break
		}
	}
	return p, changed
}

// linkedArgs returns args with every path that goes through a link made earlier in the call
// replaced by where it leads (false when none does).
func (j *judge) linkedArgs(args []arg) ([]arg, bool) {
	if len(j.links) == 0 || len(args) < 2 {
		return nil, false
	}
	var out []arg
	for i, a := range args {
		if i > 0 && !a.dyn && !strings.HasPrefix(a.s, "-") {
			if p, ok := j.abs(a.s); ok {
				if q, ok := j.viaLink(p); ok {
					if out == nil {
						out = append([]arg(nil), args...)
					}
					out[i] = arg{s: q, w: a.w}
				}
			}
		}
	}
	return out, out != nil
}
