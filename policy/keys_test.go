package policy

import (
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// templateKeys returns every key the init template names, commented out or not, with the value
// written there: "table.key" -> "value".
func templateKeys(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	table := ""
	head := regexp.MustCompile(`^(?:# )?\[([a-z_]+)\]\s*$`)
	entry := regexp.MustCompile(`^(?:# )?([a-z_]+) = (\S+)`)
	for _, line := range strings.Split(InitTemplate, "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			table = m[1]
			continue
		}
		if m := entry.FindStringSubmatch(line); m != nil && table != "" {
			key := table + "." + m[1]
			if _, dup := out[key]; dup {
				t.Errorf("the init template names %s twice", key)
			}
			out[key] = m[2]
		}
	}
	return out
}

// docKeys returns every key docs/configuration.md's table lists, with its default column.
func docKeys(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	row := regexp.MustCompile("^\\| `([a-z_.]+)` \\| `([^`]*)` \\|")
	for _, line := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			if _, dup := out[m[1]]; dup {
				t.Errorf("docs/configuration.md lists %s twice", m[1])
			}
			out[m[1]] = m[2]
		}
	}
	return out
}

// TestKeysAgree holds the config struct (raw's toml tags), `tollgate init`'s template and the
// key table of docs/configuration.md to one list of keys, and the template and the table to the
// same default for each.
func TestKeysAgree(t *testing.T) {
	want := Keys()
	if len(want) < 20 || !slices.Contains(want, "review.exclude") || !slices.Contains(want, "guard.protect") {
		t.Fatalf("Keys() = %v: the raw struct walk lost keys", want)
	}
	tmpl, doc := templateKeys(t), docKeys(t)
	if got := slices.Sorted(maps.Keys(tmpl)); !reflect.DeepEqual(got, want) {
		t.Errorf("init template keys = %v\nconfig struct keys   = %v", got, want)
	}
	if got := slices.Sorted(maps.Keys(doc)); !reflect.DeepEqual(got, want) {
		t.Errorf("docs/configuration.md keys = %v\nconfig struct keys        = %v", got, want)
	}
	for k, v := range tmpl {
		if d, ok := doc[k]; ok && d != v {
			t.Errorf("%s: the init template says %s, docs/configuration.md %s", k, v, d)
		}
	}
}

// TestTemplateValuesAreDefaults loads every value the template writes, commented out or not, as
// a user layer: it must compile to Default().
func TestTemplateValuesAreDefaults(t *testing.T) {
	byTable := map[string][]string{}
	for k, v := range templateKeys(t) {
		table, key, _ := strings.Cut(k, ".")
		byTable[table] = append(byTable[table], key+" = "+v)
	}
	var b strings.Builder
	for table, lines := range byTable {
		b.WriteString("[" + table + "]\n" + strings.Join(lines, "\n") + "\n")
	}
	got, err := Load(userLayer(b.String()))
	if err != nil {
		t.Fatalf("the template's values do not load: %v\n%s", err, b.String())
	}
	got.Files = nil
	if want := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("template values = %+v\nDefault()       = %+v", got, want)
	}
}

func TestUnknownKeySuggestsTheKnownOne(t *testing.T) {
	for _, tt := range []struct{ data, want string }{
		{"[review]\nfailon = \"high\"\n", "review.fail_on"},
		{"[review]\nFail_On = \"high\"\n", "review.fail_on"},
		{"[reveiw]\nfail_on = \"high\"\n", "review"},
		{"fail_on = \"high\"\n", "review.fail_on"},
		{"[guard]\nprotekt = []\n", "guard.protect"},
		{"[context]\nmax_filez = 2\n", "context.max_files"},
		// Nothing close: no guess.
		{"[review]\ncolour = true\n", ""},
		{"timeout = \"1s\"\n", ""}, // four tables have a timeout: no single guess
		{"zzz = 1\n", ""},
	} {
		_, err := Load(repoLayer(tt.data))
		ce, ok := err.(*ConfigError)
		if !ok {
			t.Errorf("Load(%q) = %v, want a ConfigError", tt.data, err)
			continue
		}
		if ce.Suggest != tt.want {
			t.Errorf("Load(%q): Suggest = %q, want %q", tt.data, ce.Suggest, tt.want)
		}
	}
}
