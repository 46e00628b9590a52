package hook

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review/diff"
)

const zero40 = "0000000000000000000000000000000000000000"

// Real `git diff-index --cached -r -M -C --find-copies-harder --raw -z --no-abbrev HEAD` output
// (git 2.39): a copy, a deletion, a modification, a rename to a name with a newline, a
// mode-only change and an addition of a name with a tab.
const rawSample = ":100644 100644 587be6b4c3f93f93c489c0111bba5596147a26cb b77b4eb1d946f923f61785536da9ca5af6909f06 C050\x00mod.txt\x00copy.txt\x00" +
	":100644 000000 286c5f5776916d7d7d5849988ca9d83e722cf9c2 0000000000000000000000000000000000000000 D\x00del.txt\x00" +
	":100644 100644 587be6b4c3f93f93c489c0111bba5596147a26cb b77b4eb1d946f923f61785536da9ca5af6909f06 M\x00mod.txt\x00" +
	":100644 100644 71ac1b5791204c80666ab1a4f9886b79e982739c 71ac1b5791204c80666ab1a4f9886b79e982739c R100\x00old.txt\x00new\nname.txt\x00" +
	":100644 100755 1a2485251c33a70432394c93fb89330ef214bfc9 1a2485251c33a70432394c93fb89330ef214bfc9 M\x00run.sh\x00" +
	":000000 100644 0000000000000000000000000000000000000000 8ba3a16384aacc37d01564b28401755ce8053f51 A\x00tab\tadd.txt\x00"

// The same from a SHA-256 repository.
const rawSample256 = ":100644 100644 f8625e43f9e04f24291f77cdbe4c71b3c2a3b0003f60419b3ed06a058d766c8b 55531aae34a8648f19a1cde6a3484432efea398cd705d5e4b201fd0fc1f8ded7 M\x00a\x00"

func TestParseRaw(t *testing.T) {
	got, err := parseRaw([]byte(rawSample))
	if err != nil {
		t.Fatal(err)
	}
	want := []rawEntry{
		{"100644", "100644", "587be6b4c3f93f93c489c0111bba5596147a26cb", "b77b4eb1d946f923f61785536da9ca5af6909f06", 'C', "mod.txt", "copy.txt"},
		{"100644", "000000", "286c5f5776916d7d7d5849988ca9d83e722cf9c2", zero40, 'D', "del.txt", "del.txt"},
		{"100644", "100644", "587be6b4c3f93f93c489c0111bba5596147a26cb", "b77b4eb1d946f923f61785536da9ca5af6909f06", 'M', "mod.txt", "mod.txt"},
		{"100644", "100644", "71ac1b5791204c80666ab1a4f9886b79e982739c", "71ac1b5791204c80666ab1a4f9886b79e982739c", 'R', "old.txt", "new\nname.txt"},
		{"100644", "100755", "1a2485251c33a70432394c93fb89330ef214bfc9", "1a2485251c33a70432394c93fb89330ef214bfc9", 'M', "run.sh", "run.sh"},
		{"000000", "100644", zero40, "8ba3a16384aacc37d01564b28401755ce8053f51", 'A', "tab\tadd.txt", "tab\tadd.txt"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseRaw =\n %+v\nwant\n %+v", got, want)
	}

	got, err = parseRaw([]byte(rawSample256))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].newOID) != 64 || got[0].status != 'M' || got[0].newPath != "a" {
		t.Errorf("sha256 raw = %+v", got)
	}

	// Names that look like records or are empty-looking are taken as names: fields are
	// positional.
	got, err = parseRaw([]byte(":100644 100644 a b M\x00:100644 x\x00:100644 100644 c d R090\x00 \x00x y\x00"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].newPath != ":100644 x" || got[1].oldPath != " " || got[1].newPath != "x y" {
		t.Errorf("positional names: %+v", got)
	}

	for _, empty := range []string{"", "\x00"} {
		if got, err := parseRaw([]byte(empty)); err != nil || len(got) != 0 {
			t.Errorf("parseRaw(%q) = %+v, %v; want nothing", empty, got, err)
		}
	}
}

func TestParseRawErrors(t *testing.T) {
	for _, in := range []string{
		"100644 100644 a b M\x00x\x00",             // no colon
		":100644 100644 a b\x00x\x00",              // no status
		":100644 100644 a b M extra\x00x\x00",      // too many fields
		":100644 100644 a b M\x00",                 // no path
		":100644 100644 a b R100\x00old\x00",       // rename without its new name
		":100644 100644 a b C075\x00old\x00",       // copy without its new name
		":100644 100644 a b M\x00x\x00garbage\x00", // a trailing non-record
		"diff --git a/x b/x\n",                     // a patch, not raw output
	} {
		if got, err := parseRaw([]byte(in)); err == nil {
			t.Errorf("parseRaw(%q) = %+v, want an error", in, got)
		} else if !strings.Contains(err.Error(), "failed to parse git raw diff") {
			t.Errorf("parseRaw(%q) error %q does not say what failed", in, err)
		}
	}
}

func TestIsZeroOID(t *testing.T) {
	for _, tt := range []struct {
		oid  string
		want bool
	}{
		{zero40, true},
		{strings.Repeat("0", 64), true},
		{strings.Repeat("0", 39), false},
		{strings.Repeat("0", 41), false},
		{strings.Repeat("0", 63), false},
		{"", false},
		{"0", false},
		{"0000000000000000000000000000000000000001", false},
		{"1000000000000000000000000000000000000000", false},
		{"587be6b4c3f93f93c489c0111bba5596147a26cb", false},
		{"(delete)", false},
	} {
		if got := isZeroOID(tt.oid); got != tt.want {
			t.Errorf("isZeroOID(%q) = %v, want %v", tt.oid, got, tt.want)
		}
	}
}

func TestApplyRaw(t *testing.T) {
	entries, err := parseRaw([]byte(rawSample))
	if err != nil {
		t.Fatal(err)
	}
	hunks := []diff.Hunk{diff.NewHunk(0, 0, 1, 1, diff.Line{Kind: diff.Add, New: 1, Text: "y"})}
	tests := []struct {
		entry int
		in    diff.FileDiff
		want  diff.FileDiff
	}{
		{0, diff.FileDiff{OldPath: "mod.txt", NewPath: "copy.txt", Status: diff.Copied, Hunks: hunks},
			diff.FileDiff{OldPath: "mod.txt", NewPath: "copy.txt", Status: diff.Copied, OldMode: "100644", NewMode: "100644", Hunks: hunks}},
		{1, diff.FileDiff{OldPath: "del.txt", Status: diff.Deleted},
			diff.FileDiff{OldPath: "del.txt", Status: diff.Deleted, OldMode: "100644"}},
		{2, diff.FileDiff{OldPath: "best effort", NewPath: "best effort", Status: diff.Modified, Hunks: hunks},
			diff.FileDiff{OldPath: "mod.txt", NewPath: "mod.txt", Status: diff.Modified, OldMode: "100644", NewMode: "100644", Hunks: hunks}},
		// the exact names from -z replace the patch's best-effort ones
		{3, diff.FileDiff{OldPath: "old.txt", NewPath: `"new\nname.txt"`, Status: diff.Renamed},
			diff.FileDiff{OldPath: "old.txt", NewPath: "new\nname.txt", Status: diff.Renamed, OldMode: "100644", NewMode: "100644"}},
		{4, diff.FileDiff{OldPath: "run.sh", NewPath: "run.sh", Status: diff.Modified},
			diff.FileDiff{OldPath: "run.sh", NewPath: "run.sh", Status: diff.ModeOnly, OldMode: "100644", NewMode: "100755"}},
		{5, diff.FileDiff{NewPath: "tab", Status: diff.Added, Hunks: hunks},
			diff.FileDiff{NewPath: "tab\tadd.txt", Status: diff.Added, NewMode: "100644", Hunks: hunks}},
	}
	for _, tt := range tests {
		f := tt.in
		applyRaw(&f, &entries[tt.entry])
		// the blob ids come from the raw entry as they are
		tt.want.OldOID, tt.want.NewOID = entries[tt.entry].oldOID, entries[tt.entry].newOID
		if tt.want.OldOID == "" || tt.want.NewOID == "" {
			t.Fatalf("entry %d has no blob ids", tt.entry)
		}
		if !reflect.DeepEqual(f, tt.want) {
			t.Errorf("entry %d: applyRaw = %+v, want %+v", tt.entry, f, tt.want)
		}
	}
	// A mode change with content is modified, not mode-only.
	e := rawEntry{oldMode: "100644", newMode: "100755", oldOID: "a", newOID: "b", status: 'M', oldPath: "s", newPath: "s"}
	f := diff.FileDiff{Hunks: hunks}
	applyRaw(&f, &e)
	if f.Status != diff.Modified {
		t.Errorf("mode and content change: status %q, want modified", f.Status)
	}
}

func TestSplitZ(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\x00", nil},
		{"a\x00", []string{"a"}},
		{"a\x00b", []string{"a", "b"}},
		{"a\x00\x00b\x00", []string{"a", "", "b"}},
	} {
		if got := splitZ([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitZ(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParseRaw: no input panics; a parsed entry always has a status and its paths.
func FuzzParseRaw(f *testing.F) {
	f.Add([]byte(rawSample))
	f.Add([]byte(rawSample256))
	f.Add([]byte(":100644 100644 a b R100\x00old\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := parseRaw(b)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.status == 0 || e.newMode == "" || e.newOID == "" {
				t.Fatalf("incomplete entry %+v", e)
			}
			if e.status != 'R' && e.status != 'C' && e.oldPath != e.newPath {
				t.Fatalf("status %c with two paths: %+v", e.status, e)
			}
		}
	})
}
