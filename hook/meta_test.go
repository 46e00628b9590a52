package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

func TestCleanMessage(t *testing.T) {
	msg := "subject\n\n# comment ghp_x\nbody\n;semicolon\n# ------------------------ >8 ------------------------\n# Do not modify\ndiff --git a/x b/x\n"
	cases := []struct {
		name, cleanup, comment string
		edited                 bool
		want                   string
	}{
		// git commit -m / -F: no editor, default cleanup is whitespace: every line kept
		{"no editor", "", "#", false, msg},
		// an edited message: comment lines and everything from the scissors line go
		{"editor", "", "#", true, "subject\n\n\nbody\n;semicolon\n\n\n\n"},
		{"default is strip with an editor", "default", "#", true, "subject\n\n\nbody\n;semicolon\n\n\n\n"},
		{"verbatim keeps all", "verbatim", "#", true, msg},
		{"whitespace keeps comments", "whitespace", "#", true, msg},
		// scissors: only the cut, and only when edited
		{"scissors edited", "scissors", "#", true, "subject\n\n# comment ghp_x\nbody\n;semicolon\n\n\n\n"},
		{"scissors not edited", "scissors", "#", false, msg},
		{"strip without an editor", "strip", "#", false, "subject\n\n\nbody\n;semicolon\n\n\n\n"},
		// another comment character: '#' lines are then message lines
		{"comment char ;", "", ";", true, "subject\n\n# comment ghp_x\nbody\n\n# ------------------------ >8 ------------------------\n# Do not modify\ndiff --git a/x b/x\n"},
		// auto: no line is taken for a comment, only the scissors cut
		{"auto", "", "auto", true, "subject\n\n# comment ghp_x\nbody\n;semicolon\n\n\n\n"},
	}
	for _, c := range cases {
		if got := cleanMessage(msg, c.cleanup, c.comment, c.edited); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// lines keep their numbers: as many newlines out as in
	for _, c := range cases {
		if got := cleanMessage(msg, c.cleanup, c.comment, c.edited); strings.Count(got, "\n") != strings.Count(msg, "\n") {
			t.Errorf("%s: line count changed", c.name)
		}
	}
}

func FuzzCleanMessage(f *testing.F) {
	f.Add("subject\n# c\n# ------------------------ >8 ------------------------\nx", "#", true)
	f.Add("a\n;b", ";", true)
	f.Fuzz(func(t *testing.T, msg, comment string, edited bool) {
		if comment == "" {
			comment = "#"
		}
		got := cleanMessage(msg, "", comment, edited)
		if strings.Count(got, "\n") != strings.Count(msg, "\n") {
			t.Fatalf("line count changed: %q -> %q", msg, got)
		}
		// never adds text: every line out is its line in, or empty
		in, out := strings.Split(msg, "\n"), strings.Split(got, "\n")
		for i := range out {
			if out[i] != "" && out[i] != in[i] {
				t.Fatalf("line %d changed: %q -> %q", i+1, in[i], out[i])
			}
		}
		if !edited && got != msg {
			t.Fatalf("a message not edited changed: %q -> %q", msg, got)
		}
	})
}

func TestSplitObject(t *testing.T) {
	commit := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"author A Person <a@example.com> 1700000000 +0100\n" +
		"committer C <c@example.com> 1700000001 -0500\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n" +
		"\nsubject\n\nbody\n\nmore\n"
	fields, msg := splitObject([]byte(commit))
	if got := identity(fields["author"]); got != "A Person <a@example.com>" {
		t.Errorf("author: %q", got)
	}
	if got := identity(fields["committer"]); got != "C <c@example.com>" {
		t.Errorf("committer: %q", got)
	}
	if msg != "subject\n\nbody\n\nmore\n" {
		t.Errorf("message: %q", msg)
	}
	meta := commitMeta(strings.Repeat("ab", 20), []byte(commit))
	var kinds []string
	for _, m := range meta {
		kinds = append(kinds, m.Meta+"="+m.NewPath)
		if strings.Contains(m.NewPath, "example.com") || strings.Contains(m.NewPath, "subject") {
			t.Errorf("a name holds the text: %q", m.NewPath)
		}
	}
	want := "commit-message=(commit abababababab message) author=(commit abababababab author) committer=(commit abababababab committer)"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("meta: got %s, want %s", got, want)
	}
	// a committer who is the author is reviewed once
	same := strings.Replace(commit, "C <c@example.com> 1700000001 -0500", "A Person <a@example.com> 1700000005 +0000", 1)
	if n := len(commitMeta("ab", []byte(same))); n != 2 {
		t.Errorf("same author and committer: %d pieces, want 2", n)
	}
}

func FuzzSplitObject(f *testing.F) {
	f.Add([]byte("tree x\nauthor a <b> 1 +0000\n\nmsg\n"))
	f.Add([]byte("object x\ntype tag\ntag v\ntagger t <e> 1 +0000\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, msg := splitObject(data)
		if len(msg) > len(data) {
			t.Fatal("message longer than the object")
		}
		for k := range fields {
			if strings.ContainsAny(k, " \n") {
				t.Fatalf("field name %q", k)
			}
		}
		_ = identity(fields["author"])
	})
}

// TestPushMeta reads what a push says besides its commits from a real repository: the
// commits' messages and identities, the pushed ref names, an annotated tag's message and
// tagger (through a tag of the tag).
func TestPushMeta(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	t.Setenv("HOME", tmp)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Au Thor")
	t.Setenv("GIT_AUTHOR_EMAIL", "au@t.invalid")
	t.Setenv("GIT_COMMITTER_NAME", "Com Mitter")
	t.Setenv("GIT_COMMITTER_EMAIL", "co@t.invalid")
	dir := filepath.Join(tmp, "repo")
	git := func(args ...string) string {
		t.Helper()
		out, err := NewGit(dir).output(ctx, args...)
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "first", "-m", "body line")
	git("tag", "-a", "-m", "inner tag message", "inner")
	git("tag", "-a", "-m", "outer tag message", "outer", "inner")
	head := git("rev-parse", "HEAD")
	outer := git("rev-parse", "outer")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	zero := strings.Repeat("0", 40)
	ch, err := r.push(ctx, []PushRef{
		{LocalRef: "refs/heads/main", LocalOID: head, RemoteRef: "refs/heads/main", RemoteOID: zero},
		{LocalRef: "refs/tags/outer", LocalOID: outer, RemoteRef: "refs/tags/outer", RemoteOID: zero},
	}, nil, func([]PushRef) ([]string, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range ch.Units {
		for _, m := range u.Meta {
			got[m.Meta] += metaText(m) + "|"
		}
	}
	want := map[string]string{
		diff.MetaMessage:    "first\n\nbody line\n|",
		diff.MetaAuthor:     "Au Thor <au@t.invalid>\n|",
		diff.MetaCommitter:  "Com Mitter <co@t.invalid>\n|",
		diff.MetaRef:        "refs/heads/main\nrefs/tags/outer\n|",
		diff.MetaTagMessage: "outer tag message\n|inner tag message\n|",
		diff.MetaTagger:     "Com Mitter <co@t.invalid>\n|Com Mitter <co@t.invalid>\n|",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

// metaText is the text of a metadata piece.
func metaText(f diff.FileDiff) string {
	var b strings.Builder
	for l := range f.Added() {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
