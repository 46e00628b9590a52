// Package fspath answers one question the same way everywhere in tollgate: does a path lie
// inside a directory? It is the module's one copy of path containment (the repository
// boundary, the agent guard's project and protected paths, the user config and the caches
// that must stay out of the repository under review).
//
// Rules and guarantees:
//   - Paths are compared name by name, never as string prefixes: /home/u/project-evil is not
//     inside /home/u/project.
//   - Only absolute paths compare; "." and ".." are resolved lexically first, so
//     /repo/../etc is not inside /repo. A relative path is inside nothing.
//   - The host's rules apply (Host): on Windows a drive letter (C:) or a UNC share
//     (\\server\share) is part of the path, / and \ both separate names, and names compare
//     case-insensitively, as they do on macOS's default file systems. Style states those rules
//     as data, so Windows-style paths are tested on every system.
//   - Symbolic links are the caller's: resolve them first where they matter.
package fspath

import (
	"runtime"
	"strings"
)

// Style is how one operating system spells and compares paths.
type Style struct {
	// Windows: a drive letter or a UNC share starts an absolute path, and / and \ both
	// separate names.
	Windows bool
	// FoldCase: names that differ only in letter case are the same name.
	FoldCase bool
}

// Host is the style of the system tollgate runs on.
var Host = Style{Windows: runtime.GOOS == "windows", FoldCase: runtime.GOOS == "windows" || runtime.GOOS == "darwin"}

// Within reports whether p is dir or lies inside it, by the host's rules.
func Within(dir, p string) bool { return Host.Within(dir, p) }

// Within reports whether p is dir or lies inside it, by s's rules.
func (s Style) Within(dir, p string) bool {
	dv, dn, ok := s.split(dir)
	if !ok {
		return false
	}
	pv, pn, ok := s.split(p)
	if !ok || !strings.EqualFold(dv, pv) || len(pn) < len(dn) {
		return false
	}
	for i := range dn {
		if dn[i] != pn[i] && !(s.FoldCase && strings.EqualFold(dn[i], pn[i])) {
			return false
		}
	}
	return true
}

// split returns the volume of an absolute path ("" on POSIX, "c:" or "//server/share" on
// Windows) and its names, "." and ".." resolved; ok is false for a path that is not absolute.
func (s Style) split(p string) (vol string, names []string, ok bool) {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		return "", nil, false
	}
	rest := p
	if s.Windows {
		rest = strings.ReplaceAll(p, `\`, "/")
		switch {
		case len(rest) >= 3 && isLetter(rest[0]) && rest[1] == ':' && rest[2] == '/':
			vol, rest = rest[:2], rest[2:]
		case strings.HasPrefix(rest, "//"):
			parts := strings.SplitN(rest[2:], "/", 3)
			if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
				return "", nil, false
			}
			vol, rest = "//"+parts[0]+"/"+parts[1], "/"
			if len(parts) == 3 {
				rest += parts[2]
			}
		default:
			// C:repo is relative to C:'s current directory, \repo to the current drive.
			return "", nil, false
		}
	} else if !strings.HasPrefix(rest, "/") {
		return "", nil, false
	}
	for _, n := range strings.Split(rest, "/") {
		switch n {
		case "", ".":
		case "..":
			if len(names) > 0 {
				names = names[:len(names)-1]
			}
		default:
			names = append(names, n)
		}
	}
	return vol, names, true
}

// Slash returns p with / separating its names, as a POSIX shell reads it: on Windows
// C:\Users\me\tollgate.exe becomes C:/Users/me/tollgate.exe, which Git for Windows' sh (the one
// that runs git hooks there) and Windows itself both open. Other systems' paths are unchanged
// (a backslash is a letter of a name there).
func (s Style) Slash(p string) string {
	if !s.Windows {
		return p
	}
	return strings.ReplaceAll(p, `\`, "/")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
