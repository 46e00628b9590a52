package guard

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// writeTar writes a tar (gzip'd when gz) holding the named members.
func writeTar(t *testing.T, p string, gz bool, names ...string) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: 2}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte("x\n"))
	}
	tw.Close()
	data := buf.Bytes()
	if gz {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		data = z.Bytes()
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, p string, names ...string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, _ := zw.Create(n)
		w.Write([]byte("x\n"))
	}
	zw.Close()
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An archive extracted into the project's root is judged by its members: one that would
// overwrite a hook or tollgate's configuration is denied, one tollgate cannot list is asked.
func TestArchiveExtraction(t *testing.T) {
	o := fsProject(t)
	dir := o.Project
	writeTar(t, filepath.Join(dir, "hooks.tar.gz"), true, "src/a.go", ".git/hooks/pre-commit")
	writeTar(t, filepath.Join(dir, "plain.tar"), false, "./.tollgate.toml")
	writeTar(t, filepath.Join(dir, "ok.tgz"), true, "vendor/lib/a.go", "vendor/lib/b.go", "/etc/../README.md", "../escape.txt")
	writeZip(t, filepath.Join(dir, "cfg.zip"), "docs/x.md", ".claude/settings.json")
	writeZip(t, filepath.Join(dir, "ok.zip"), "docs/x.md", "assets/logo.svg")
	if err := os.WriteFile(filepath.Join(dir, "odd.tar.xz"), []byte("\xfd7zXZ\x00junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []tableRow{
		{"D", `tar xzf hooks.tar.gz`},
		{"D", `tar -xzf hooks.tar.gz`},
		{"D", `tar -x -f plain.tar`},
		{"D", `tar --extract --file=plain.tar`},
		{"D", `unzip cfg.zip`},
		{"D", `unzip -o cfg.zip -d .`},
		{"N", `tar xzf ok.tgz`},
		{"N", `unzip ok.zip`},
		{"N", `tar -tzf hooks.tar.gz`},
		{"N", `unzip -l cfg.zip`},
		{"N", `tar -xzf hooks.tar.gz -C vendor`},
		{"N", `unzip cfg.zip -d vendor`},
		{"A", `tar xJf odd.tar.xz`},
		{"A", `tar xzf missing.tgz`},
		{"A", `curl -sL https://example.invalid/x.tgz | tar xz`},
		{"A", `curl -sLo x.tgz https://example.invalid/x.tgz && tar xzf x.tgz`},
		{"N", `curl -sL https://example.invalid/x.tgz | tar xz -C vendor`},
		{"A", `tar xzf "$ARCHIVE"`},
	}
	checkRows(t, rows, o, dir)
}

// FuzzListArchive: no input makes the archive reader panic.
func FuzzListArchive(f *testing.F) {
	f.Add([]byte("PK\x03\x04junk"))
	f.Add([]byte("\x1f\x8bjunk"))
	f.Add([]byte("BZh9junk"))
	f.Add(bytes.Repeat([]byte{0}, 1024))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "a")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		listArchive(fh, int64(len(data)))
	})
}
