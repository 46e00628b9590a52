package policy

import "testing"

// TestGlobs: review.exclude patterns match like .gitignore's, the last match deciding.
func TestGlobs(t *testing.T) {
	for _, tt := range []struct {
		patterns []string
		path     string
		want     bool
	}{
		{[]string{"vendor/"}, "vendor/a.go", true},
		{[]string{"vendor/"}, "src/vendor/a.go", true}, // no inner slash: any depth
		{[]string{"vendor/"}, "vendor.go", false},
		{[]string{"/vendor/"}, "src/vendor/a.go", false}, // a leading slash anchors
		{[]string{"*.min.js"}, "web/app.min.js", true},
		{[]string{"*.min.js"}, "web/app.js", false},
		{[]string{"docs/*.md"}, "docs/a.md", true},
		{[]string{"docs/*.md"}, "docs/sub/a.md", false}, // "*" stays in one segment
		{[]string{"docs/**/*.md"}, "docs/sub/deep/a.md", true},
		{[]string{"docs/**/*.md"}, "docs/a.md", true},
		{[]string{"**/fixtures/**"}, "a/b/fixtures/c/d.json", true},
		{[]string{"**/fixtures/**"}, "fixtures.json", false},
		{[]string{"testdata/", "!testdata/keep.txt"}, "testdata/keep.txt", false},
		{[]string{"testdata/", "!testdata/keep.txt"}, "testdata/other.txt", true},
		{[]string{"!a.txt", "a.txt"}, "a.txt", true}, // the last match decides
		{[]string{"file?.txt"}, "file1.txt", true},
		{[]string{"file?.txt"}, "file10.txt", false},
		{[]string{"[ab].txt"}, "b.txt", true},
		{[]string{"[!ab].txt"}, "c.txt", true},
		{[]string{"[!ab].txt"}, "a.txt", false},
		{[]string{`\!important.txt`}, "!important.txt", true},
		{[]string{"build"}, "build/out/x.bin", true}, // a directory name excludes what is under it
		{[]string{"build/"}, "build", false},         // a trailing slash: directories only
	} {
		g, err := CompileGlobs(tt.patterns)
		if err != nil {
			t.Fatalf("%q: %v", tt.patterns, err)
		}
		if _, got := g.Match(tt.path); got != tt.want {
			t.Errorf("%q on %q = %v, want %v", tt.patterns, tt.path, got, tt.want)
		}
	}
}

func TestGlobErrors(t *testing.T) {
	for _, p := range []string{"", "!", "/", `a\`, "[abc"} {
		if _, err := CompileGlobs([]string{p}); err == nil {
			t.Errorf("%q compiled", p)
		}
	}
}

func TestExcludeKey(t *testing.T) {
	_, err := Load(nil, repoLayer(`review.exclude = ["[oops"]`))
	configError(t, err, "review.exclude", "/repo/.tollgate.toml")

	// Both layers' patterns apply, user layer first: the repository adds, never removes.
	cfg, err := Load(nil, userLayer(`review.exclude = ["vendor/"]`), repoLayer(`review.exclude = ["*.min.js"]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"vendor/x.go", "web/a.min.js"} {
		if _, ok := cfg.Exclude.Match(p); !ok {
			t.Errorf("%s not excluded by %q", p, cfg.Exclude.Patterns())
		}
	}
}
