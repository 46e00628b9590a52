package hook

import "testing"

func TestDisplayURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://github.com/a/b.git", "https://github.com/a/b.git"},
		{"https://x-access-token:ghp_secret@github.com/a/b.git", "https://***@github.com/a/b.git"},
		{"ssh://git@host:22/a/b", "ssh://***@host:22/a/b"},
		{"https://u:p@w@host/a@b", "https://***@host/a@b"},
		{"git@github.com:a/b.git", "git@github.com:a/b.git"},
		{"../remote.git", "../remote.git"},
		{"file:///tmp/x@y/r.git", "file:///tmp/x@y/r.git"},
	} {
		if got := displayURL(c.in); got != c.want {
			t.Errorf("displayURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
