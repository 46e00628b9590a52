package guard

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A secret written into a local file git ignores (.env listed in .gitignore) is what good
// practice asks for: it is asked about, never denied. The guard runs no git, so it reads the
// .gitignore files itself, simply and conservatively: a file counts as ignored only when a
// plain pattern of the project's .gitignore files (or .git/info/exclude) names it and no
// negation pattern anywhere could bring it back. Patterns it does not read (a ** inside a
// pattern) never make a file ignored. Whether git tracks the file anyway is not known here,
// which is why the answer is ask, not no objection.

const maxIgnoreBytes = 256 << 10

// ignoredLocal reports whether path (a local write inside the project) is ignored by git.
func (j *judge) ignoredLocal(p string) bool {
	if j.remoteWrite || p == "" {
		return false
	}
	abs, ok := j.abs(p)
	if !ok || !under(abs, j.o.Project) || abs == j.o.Project {
		return false
	}
	rel, err := filepath.Rel(j.o.Project, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return false
	}
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	if parts[0] == ".git" {
		return false
	}
	ignored := false
	check := func(file, base string) bool {
		data, err := os.ReadFile(file)
		if err != nil || len(data) > maxIgnoreBytes {
			return true
		}
		sub := strings.TrimPrefix(strings.TrimPrefix(rel, base), "/")
		for _, line := range strings.Split(string(data), "\n") {
			pat := strings.TrimRight(strings.TrimRight(line, "\r"), " \t")
			if pat == "" || pat[0] == '#' {
				continue
			}
			if pat[0] == '!' {
				return false // a negation: git could bring the file back; not sure
			}
			if ignoreMatch(pat, sub) {
				ignored = true
			}
		}
		return true
	}
	if !check(filepath.Join(j.o.Project, ".git", "info", "exclude"), "") {
		return false
	}
	for i := 0; i < len(parts); i++ {
		base := strings.Join(parts[:i], "/")
		if !check(filepath.Join(j.o.Project, filepath.FromSlash(base), ".gitignore"), base) {
			return false
		}
	}
	return ignored
}

// ignoreMatch reports whether the gitignore pattern pat names rel (slash path relative to the
// .gitignore's directory) or one of its parent directories.
func ignoreMatch(pat, rel string) bool {
	dirOnly := strings.HasSuffix(pat, "/")
	pat = strings.TrimSuffix(pat, "/")
	anchored := strings.Contains(pat, "/")
	pat = strings.TrimPrefix(pat, "/")
	if strings.HasPrefix(pat, "**/") {
		pat, anchored = pat[3:], false
	}
	if strings.HasSuffix(pat, "/**") {
		pat, dirOnly = pat[:len(pat)-3], true
	}
	if pat == "" || strings.Contains(pat, "**") {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		last := i == len(parts)-1
		if dirOnly && last {
			break
		}
		var cand string
		if anchored {
			cand = strings.Join(parts[:i+1], "/")
		} else {
			cand = parts[i]
		}
		if ok, err := path.Match(pat, cand); err == nil && ok {
			return true
		}
	}
	return false
}
