package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/review"
)

// token is built at run time so this file holds no literal the project's own review reports.
var token = "ghp_" + strings.Repeat("R4nd0m", 6)

func finding(rule, path, line string, secrets ...string) review.Finding {
	return review.Finding{RuleID: rule, Path: path, Line: 3}.LineEvidence(line, 0, secrets...)
}

func TestContentKeyedAcrossPaths(t *testing.T) {
	old := finding("secrets/github-pat", "app.py", `key = "`+token+`"`, token)
	f, err := Build([]review.Finding{old})
	if err != nil {
		t.Fatal(err)
	}
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) || strings.Contains(string(data), "R4nd0m") {
		t.Fatalf("the baseline holds the secret in clear:\n%s", data)
	}
	set, err := Parse("b.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    review.Finding
		want bool
	}{
		{"same file", old, true},
		{"renamed file, same secret", finding("secrets/github-pat", "lib/settings.py", `KEY = "`+token+`"  # moved`, token), true},
		{"another secret", finding("secrets/github-pat", "app.py", `key = "`+token+`x"`, token+"x"), false},
		{"another rule", finding("secrets/generic-api-key", "app.py", `key = "`+token+`"`, token), false},
	} {
		if got := set.Has(&tc.f); got != tc.want {
			t.Errorf("%s: Has = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLineKeyNormalisesSpaces(t *testing.T) {
	a := finding("tollgate/unsafe-deserialization", "a.py", "data = pickle.loads(blob)")
	b := finding("tollgate/unsafe-deserialization", "b/a.py", "  data  =  pickle.loads(blob)")
	c := finding("tollgate/unsafe-deserialization", "a.py", "data = pickle.loads(other)")
	f, err := Build([]review.Finding{a})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := f.Marshal()
	set, err := Parse("b.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Has(&b) || set.Has(&c) {
		t.Errorf("moved line with other spacing: %v (want true); another line: %v (want false)", set.Has(&b), set.Has(&c))
	}
}

func TestBuildKeepsFirstPath(t *testing.T) {
	head := finding("secrets/github-pat", "lib/settings.py", `KEY = "`+token+`"`, token)
	hist := finding("secrets/github-pat", "app.py", `key = "`+token+`"`, token)
	f, err := Build([]review.Finding{head, hist})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 1 || f.Entries[0].Path != "lib/settings.py" || f.Version != 2 {
		t.Errorf("entries %+v version %d, want one entry with the first path, version 2", f.Entries, f.Version)
	}
}

// A version 1 file (hash of salt, rule, path and content) still loads and matches as it did:
// by path too.
func TestVersion1StillLoads(t *testing.T) {
	salt := strings.Repeat("ab", 16)
	old := finding("secrets/github-pat", "app.py", `key = "`+token+`"`, token)
	raw, _ := hex.DecodeString(salt)
	h := sha256.New()
	h.Write(raw)
	h.Write([]byte(old.PathKey()))
	v1 := File{Version: 1, Salt: salt, Entries: []Entry{{RuleID: old.RuleID, Path: old.Path, Hash: hex.EncodeToString(h.Sum(nil))}}}
	data, _ := json.Marshal(v1)
	set, err := Parse("old.json", data)
	if err != nil {
		t.Fatalf("a version 1 file: %v", err)
	}
	moved := finding("secrets/github-pat", "src.py", `key = "`+token+`"`, token)
	if !set.Has(&old) || set.Has(&moved) || set.Version() != 1 {
		t.Errorf("version 1: same path %v (want true), other path %v (want false)", set.Has(&old), set.Has(&moved))
	}
}

func TestParseErrors(t *testing.T) {
	salt := strings.Repeat("ab", 16)
	for name, data := range map[string]string{
		"not json":        `{"version": 2, "entries": [`,
		"unknown version": `{"version": 3, "salt": "` + salt + `", "entries": []}`,
		"short salt":      `{"version": 2, "salt": "abcd", "entries": []}`,
		"bad entry":       `{"version": 2, "salt": "` + salt + `", "entries": [{"rule_id": "x", "path": "a", "hash": "12"}]}`,
	} {
		if _, err := Parse("b.json", []byte(data)); err == nil || !strings.Contains(err.Error(), "b.json") {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}

// Extend keeps the entries and salt of the file it adds to; a version 1 file is not extended.
func TestExtend(t *testing.T) {
	first := finding("secrets/github-pat", "app.py", `key = "`+token+`"`, token)
	second := finding("secrets/github-pat", "b.py", `k = "`+token+`y"`, token+"y")
	f, err := Build([]review.Finding{first})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := f.Marshal()
	set, err := Parse("b.json", data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Extend(set, []review.Finding{first, second})
	if err != nil {
		t.Fatal(err)
	}
	if g.Salt != f.Salt || len(g.Entries) != 2 {
		t.Fatalf("extended: salt kept %v, %d entries (want 2)", g.Salt == f.Salt, len(g.Entries))
	}
	data, _ = g.Marshal()
	both, err := Parse("b.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if !both.Has(&first) || !both.Has(&second) {
		t.Errorf("the extended baseline lost an entry")
	}
	v1, err := Parse("old.json", []byte(`{"version": 1, "salt": "`+strings.Repeat("ab", 16)+`", "entries": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Extend(v1, []review.Finding{second}); err == nil {
		t.Errorf("a version 1 baseline was extended")
	}
}
