package fspath

import (
	"path/filepath"
	"runtime"
	"testing"
)

var (
	linux   = Style{}
	macOS   = Style{FoldCase: true}
	windows = Style{Windows: true, FoldCase: true}
)

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		style  Style
		dir, p string
		want   bool
	}{
		// POSIX: inside
		{linux, "/home/u/project", "/home/u/project", true},
		{linux, "/home/u/project", "/home/u/project/a/b.go", true},
		{linux, "/home/u/project/", "/home/u/project/a", true},
		{linux, "/", "/etc/passwd", true},
		{linux, "/home/u/project", "/home/u/project/a/../b", true},
		{linux, "/home/u/project", "//home/u/project/a", true},
		// POSIX: outside
		{linux, "/home/u/project", "/home/u/project-evil/a", false},
		{linux, "/home/u/project", "/home/u", false},
		{linux, "/home/u/project", "/home/u/project/../other", false},
		{linux, "/home/u/project", "/home/u/project/../../../etc/passwd", false},
		{linux, "/home/u/project", "project/a", false}, // relative: inside nothing
		{linux, "project", "project/a", false},
		{linux, "/home/u/project", "", false},
		{linux, "/home/u/project", "/home/u/project/a\x00", false},
		{linux, "/home/u/Project", "/home/u/project/a", false},        // case-sensitive
		{linux, `/home/u/project`, `/home/u/project/a\..\..\x`, true}, // a backslash is a letter of a name on POSIX
		// macOS: case-insensitive names, POSIX spelling
		{macOS, "/Users/Dev/Project", "/users/dev/project/a", true},
		{macOS, "/Users/Dev/Project", "/Users/Dev/Project-evil", false},
		{macOS, "/Users/Dev/Project", `C:\Users\Dev\Project`, false},
		// Windows: drive letters, both separators, any case
		{windows, `C:\Users\Dev\repo`, `C:\Users\Dev\repo\src\main.go`, true},
		{windows, `C:\Users\Dev\repo`, `c:/users/dev/REPO/src`, true},
		{windows, `C:/Users/Dev/repo`, `C:\Users\Dev\repo`, true},
		{windows, `C:\Users\Dev\repo\`, `C:\Users\Dev\repo\a`, true},
		{windows, `C:\`, `C:\Windows\System32`, true},
		{windows, `\\server\share\repo`, `\\SERVER\Share\repo\a`, true},
		{windows, `\\server\share`, `\\server\share`, true},
		{windows, `C:\Users\Dev\repo`, `D:\Users\Dev\repo\a`, false},
		{windows, `C:\Users\Dev\repo`, `C:\Users\Dev\repo-evil\a`, false},
		{windows, `C:\Users\Dev\repo`, `C:\Users\Dev\repo\..\other`, false},
		{windows, `C:\Users\Dev\repo`, `C:repo\a`, false},          // drive-relative
		{windows, `C:\Users\Dev\repo`, `\Users\Dev\repo\a`, false}, // current drive
		{windows, `C:\Users\Dev\repo`, `repo\a`, false},
		{windows, `\\server\share\repo`, `\\other\share\repo\a`, false},
		{windows, `\\server\share`, `\\server`, false},
		{windows, `C:\Users\Dev\repo`, `\\server\share\Users\Dev\repo`, false},
		{windows, "/home/u/project", "/home/u/project/a", false}, // no drive: not absolute there
	} {
		if got := tt.style.Within(tt.dir, tt.p); got != tt.want {
			t.Errorf("%+v.Within(%q, %q) = %v, want %v", tt.style, tt.dir, tt.p, got, tt.want)
		}
	}
}

func TestSlash(t *testing.T) {
	for _, tt := range []struct {
		style   Style
		p, want string
	}{
		{windows, `C:\Users\Dev User\go\bin\tollgate.exe`, "C:/Users/Dev User/go/bin/tollgate.exe"},
		{windows, `\\server\share\tollgate.exe`, "//server/share/tollgate.exe"},
		{windows, "C:/already/slashed", "C:/already/slashed"},
		{linux, `/home/u/odd\name/tollgate`, `/home/u/odd\name/tollgate`},
		{macOS, "/Users/u/go/bin/tollgate", "/Users/u/go/bin/tollgate"},
	} {
		if got := tt.style.Slash(tt.p); got != tt.want {
			t.Errorf("%+v.Slash(%q) = %q, want %q", tt.style, tt.p, got, tt.want)
		}
		// What Slash writes is the same path by the style's own rules.
		if tt.style.Windows && !tt.style.Within(tt.p, tt.style.Slash(tt.p)) {
			t.Errorf("%q and %q are not the same path", tt.p, tt.style.Slash(tt.p))
		}
	}
}

// TestHostWithin: Within follows the host's own paths, as filepath builds them.
func TestHostWithin(t *testing.T) {
	root := t.TempDir()
	if !Within(root, filepath.Join(root, "a", "b")) || Within(filepath.Join(root, "a"), root) || Within(root, root+"-x") {
		t.Errorf("Within disagrees with filepath on %s", runtime.GOOS)
	}
}

func FuzzWithin(f *testing.F) {
	f.Add(`C:\a`, `c:/A/b/../c`, true)
	f.Add("/a", "/a/../b", false)
	f.Fuzz(func(t *testing.T, dir, p string, win bool) {
		s := Style{Windows: win, FoldCase: win}
		if s.Within(dir, p) {
			// p inside dir: then so is anything inside p, and dir is absolute.
			if !s.Within(dir, p+"/x") || !s.Within(dir, dir) {
				t.Errorf("%q inside %q, but not %q or %q itself", p, dir, p+"/x", dir)
			}
		}
	})
}
