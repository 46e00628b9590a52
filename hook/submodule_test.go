package hook

import (
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

func TestGitlinkMoves(t *testing.T) {
	a, b, c := "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	zero := "0000000000000000000000000000000000000000"
	ch := &diff.Change{Units: []diff.Unit{
		{Commit: "c1", Files: []diff.FileDiff{
			{Status: diff.Modified, OldPath: "libs/sub", NewPath: "libs/sub", OldMode: gitlinkMode, NewMode: gitlinkMode, OldOID: a, NewOID: b},
			{Status: diff.Added, NewPath: "new/sub", NewMode: gitlinkMode, OldOID: zero, NewOID: c},
			{Status: diff.Modified, NewPath: "file.go", OldMode: "100644", NewMode: "100644", OldOID: a, NewOID: b},
			{Status: diff.Deleted, OldPath: "gone/sub", OldMode: gitlinkMode, OldOID: a, NewOID: zero},
		}},
		{Commit: "c2", Files: []diff.FileDiff{
			// the same move again (a merge's unit): reviewed once
			{Status: diff.Modified, NewPath: "libs/sub", OldMode: gitlinkMode, NewMode: gitlinkMode, OldOID: a, NewOID: b},
			// a file that becomes a submodule: its old side is not a gitlink
			{Status: diff.Modified, NewPath: "was/file", OldMode: "100644", NewMode: gitlinkMode, OldOID: a, NewOID: c},
			// mode-only or unchanged gitlink: nothing moves
			{Status: diff.Modified, NewPath: "same/sub", OldMode: gitlinkMode, NewMode: gitlinkMode, OldOID: c, NewOID: c},
		}},
	}}
	got := gitlinkMoves(ch)
	want := []gitlinkMove{
		{path: "libs/sub", old: a, new: b, commit: "c1"},
		{path: "new/sub", new: c, commit: "c1"},
		{path: "was/file", new: c, commit: "c2"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("move %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestPrefixUnits(t *testing.T) {
	units := []diff.Unit{{Commit: "x", Files: []diff.FileDiff{
		{Status: diff.Added, NewPath: "a.go"},
		{Status: diff.Renamed, OldPath: "b.go", NewPath: "c/b.go"},
		{Status: diff.Deleted, OldPath: "d.go"},
	}}}
	out := prefixUnits(units, &Repo{}, "libs/sub/")
	f := out[0].Files
	if f[0].NewPath != "libs/sub/a.go" || f[1].OldPath != "libs/sub/b.go" || f[1].NewPath != "libs/sub/c/b.go" || f[2].OldPath != "libs/sub/d.go" || f[2].NewPath != "" || f[0].OldPath != "" {
		t.Fatalf("paths not prefixed: %+v", f)
	}
	sb, ok := out[0].Blobs.(subBlobs)
	if !ok || sb.prefix != "libs/sub/" {
		t.Fatalf("blobs: %#v", out[0].Blobs)
	}
	// a path outside the submodule, or the index, is not the submodule's
	if _, _, ok, err := sb.Stat(t.Context(), "x", "other/a.go"); ok || err != nil {
		t.Fatalf("Stat outside the prefix: %v %v", ok, err)
	}
	if _, _, ok, err := sb.Stat(t.Context(), "", "libs/sub/a.go"); ok || err != nil {
		t.Fatalf("Stat of the index: %v %v", ok, err)
	}
}
