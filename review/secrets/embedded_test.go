package secrets

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

func TestBlobStarts(t *testing.T) {
	gz := base64.StdEncoding.EncodeToString(gzipOf([]byte(testConfig)))
	zl := base64.StdEncoding.EncodeToString(zlibOf([]byte(testConfig)))
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"release: " + gz + "\n", []string{gz}},
		{`{"a": "` + zl + `", "b": "` + gz + `"}`, []string{zl, gz}},
		{"xH4sI" + gz[4:], nil},                      // inside a longer run, not a start
		{"H4sIAAAAAAAA short\n", nil},                // below minBlobChars
		{"seJust words, eJ then more eNough\n", nil}, // a prefix alone
	} {
		var got []string
		for _, r := range blobStarts(tt.text) {
			got = append(got, tt.text[r[0]:r[1]])
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("blobStarts(%.40q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestDecodeBlob(t *testing.T) {
	payload := gzipOf([]byte(testConfig))
	for _, tt := range []struct {
		name, run, kind string
	}{
		{"std", base64.StdEncoding.EncodeToString(payload), "gzip"},
		{"raw std", base64.RawStdEncoding.EncodeToString(payload), "gzip"},
		{"url", base64.URLEncoding.EncodeToString(payload), "gzip"},
		{"zlib", base64.StdEncoding.EncodeToString(zlibOf([]byte(testConfig))), "zlib"},
		{"plain text", base64.StdEncoding.EncodeToString([]byte("eJust some text that is long enough")), ""},
	} {
		data, kind, ok := decodeBlob(tt.run)
		if kind != tt.kind || ok != (tt.kind != "") || (ok && kind == "gzip" && string(data) != string(payload)) {
			t.Errorf("%s: decodeBlob = %d bytes, %q, %v; want %q", tt.name, len(data), kind, ok, tt.kind)
		}
	}
	// Every zlib flag byte gives one of the prefixes looked for.
	for _, flg := range []byte{0x01, 0x5e, 0x9c, 0xda} {
		s := base64.StdEncoding.EncodeToString([]byte{0x78, flg, 0})
		found := false
		for _, p := range blobPrefixes {
			found = found || strings.HasPrefix(s, p)
		}
		if !found {
			t.Errorf("zlib 78 %02x is %s, not a prefix looked for", flg, s)
		}
	}
}

// scanRepo runs the secrets scanner over the new files of one unit, each at its blob; binary
// ones as git would show them (no lines).
func scanRepo(t *testing.T, files map[string]string, binary ...string) *review.Report {
	t.Helper()
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	repo := difftest.NewRepo(map[string]map[string]difftest.File{"c1": {}})
	var text []string
	for p, c := range files {
		repo.Revs["c1"][p] = difftest.Reg(c)
	}
	repo = difftest.NewRepo(repo.Revs)
	isBin := map[string]bool{}
	for _, p := range binary {
		isBin[p] = true
	}
	for p := range files {
		if !isBin[p] {
			text = append(text, p)
		}
	}
	u := difftest.RepoUnit(repo, "c1", text...)
	for _, p := range binary {
		u.Files = append(u.Files, diff.FileDiff{NewPath: p, Status: diff.Added, NewMode: "100644", NewOID: difftest.OID(files[p]), Binary: true})
	}
	ch := &diff.Change{Kind: "commit", Units: []diff.Unit{*u}}
	return review.Run(context.Background(), ch, review.Options{Config: policy.Default(), Scanners: []review.Scanner{&Scanner{Detector: det}}})
}

// Compressed data is found by content wherever it is: a binary file of any compressed format,
// small compressed data git takes for text, and base64 blobs of gzip or zlib data in a line.
// What is clean gives nothing; what cannot be read whole is not run.
func TestScannerCompressed(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	notZlib := b64(append([]byte{0x78, 0x9c}, "\xff\x00\xfe random id bytes, not deflate"...))
	// zlib data cut short after the token: what inflated before the cut is scanned.
	long := []byte(testConfig)
	for i := 0; len(long) < 6000; i++ {
		long = fmt.Appendf(long, "%x", i*2654435761)
	}
	cutZlib := b64(zlibOf(long))
	cutZlib = cutZlib[:len(cutZlib)*2/3]
	files := map[string]string{
		"cutz.txt":       "z=" + cutZlib + "\n",
		"dist/a.bz2":     string(unhex(t, bz2Token)),
		"bundle.zip":     string(zipOf(t, map[string][]byte{"k8s/release.yaml": []byte("kind: x\ndata: " + b64(gzipOf([]byte(testConfig))) + "\n")})),
		"dist/clean.zst": string(zstdOf(t, []byte("hello\n"))),
		"raw.zz":         string(zlibOf([]byte(testConfig))),
		"notes.txt":      "x^2 + y^2 = z^2\n",
		"values.yaml":    "a: 1\nb: 2\nrelease: " + b64(gzipOf([]byte(testConfig))) + "\n",
		"z.json":         `{"blob": "` + b64(zlibOf([]byte(testConfig))) + `"}` + "\n",
		"url.txt":        "u=" + base64.RawURLEncoding.EncodeToString(gzipOf([]byte(testConfig))) + "\n",
		"tar.txt":        "t=" + b64(gzipOf(tarOf(t, map[string][]byte{"in/config.txt": []byte(testConfig)}))) + "\n",
		"clean.yaml":     "release: " + b64(gzipOf([]byte("nothing to see here, just text\n"))) + "\n",
		"ids.txt":        "id: " + notZlib + "\n",
		"cut.yaml":       "data: " + b64(gzipOf([]byte(testConfig)))[:60] + "\n",
		"bomb.yaml":      "data: " + b64(gzipOf(make([]byte, maxUnpackBytes+1))) + "\n",
	}
	if !strings.ContainsAny(files["url.txt"], "-_") {
		t.Fatalf("url.txt's blob holds no URL-safe character: %q", files["url.txt"])
	}
	if compressedKind([]byte(notZlib)) != "" || !strings.HasPrefix(notZlib, "eJ") {
		t.Fatalf("bad test case %q", notZlib)
	}
	rep := scanRepo(t, files, "dist/a.bz2", "dist/clean.zst", "bundle.zip")
	type at struct {
		path      string
		line, col int
		msg       string
	}
	want := map[at]bool{
		{"dist/a.bz2!a", 2, 9, "in binary file, read as text"}:                                   true,
		{"raw.zz!raw", 2, 9, "in binary file, read as text"}:                                     true,
		{"values.yaml", 3, 10, "in gzip data, base64-encoded at line 3 column 10"}:               true,
		{"z.json", 1, 11, "in zlib data, base64-encoded at line 1 column 11"}:                    true,
		{"url.txt", 1, 3, "in gzip data, base64-encoded at line 1 column 3"}:                     true,
		{"bundle.zip!k8s/release.yaml", 2, 7, "in gzip data, base64-encoded at line 2 column 7"}: true,
		{"cutz.txt", 1, 3, "in zlib data, base64-encoded at line 1 column 3"}:                    true,
		{"tar.txt!in/config.txt", 2, 9, "in binary file, read as text"}:                          true,
	}
	for _, f := range rep.Findings {
		if f.Path == "cut.yaml" {
			continue // what inflated before the cut may hold part of the token
		}
		k := at{f.Path, f.Line, f.Column, ""}
		for w := range want {
			if w.path == f.Path && w.line == f.Line && w.col == f.Column && strings.Contains(f.Message, w.msg) {
				k = w
			}
		}
		if !want[k] || f.RuleID != "secrets/github-pat" {
			t.Errorf("unexpected finding %s %s:%d:%d %q", f.RuleID, f.Path, f.Line, f.Column, f.Message)
			continue
		}
		delete(want, k)
		if strings.Contains(f.Evidence, testPAT) || !strings.Contains(f.Evidence, "token = ghp_") {
			t.Errorf("%s: evidence %q, want the inflated line, masked", f.Path, f.Evidence)
		}
	}
	for w := range want {
		t.Errorf("not found: %+v", w)
	}
	var reasons []string
	for _, n := range rep.NotRun {
		reasons = append(reasons, n.Reason)
	}
	got := strings.Join(reasons, "\n")
	for _, w := range []string{"cut.yaml:1: failed to unpack gzip data", "bomb.yaml:1: archive contents exceed 33554432 bytes"} {
		if !strings.Contains(got, w) {
			t.Errorf("not run: %q, want %q", got, w)
		}
	}
	if len(reasons) != 2 {
		t.Errorf("not run: %q, want only the cut and the bomb", reasons)
	}
}

// The byte budget is shared by a file's blobs: many blobs under the limit each, past it
// together, are not run once the budget is spent.
func TestBlobBudget(t *testing.T) {
	blob := base64.StdEncoding.EncodeToString(gzipOf(make([]byte, 12<<20)))
	var text strings.Builder
	for i := range 3 {
		fmt.Fprintf(&text, "b%d: %s\n", i, blob)
	}
	rep := scanRepo(t, map[string]string{"many.yaml": text.String()})
	if len(rep.NotRun) != 1 || !strings.Contains(rep.NotRun[0].Reason, "many.yaml:3: archive contents exceed") {
		t.Errorf("not run: %+v", rep.NotRun)
	}
}

// FuzzBlobs: no line of text makes the blob decoder panic or inflate past its budget.
func FuzzBlobs(f *testing.F) {
	f.Add("release: " + base64.StdEncoding.EncodeToString(gzipOf([]byte(testConfig))))
	f.Add("z: " + base64.StdEncoding.EncodeToString(zlibOf([]byte("x"))))
	f.Add("H4sIAAAAAAAA" + strings.Repeat("/", 29) + "w==") // built here: as a literal it would be a corrupt blob in this file
	f.Add("eJzzSM3JyVcozy/KSQEAGkEEXQ==eNeFeA")
	f.Fuzz(func(t *testing.T, text string) {
		spent := 0
		for _, r := range blobStarts(text) {
			if r[0] < 0 || r[1] > len(text) || r[1]-r[0] < minBlobChars {
				t.Fatalf("bad run %v in %d bytes", r, len(text))
			}
			data, kind, ok := decodeBlob(text[r[0]:r[1]])
			if !ok {
				continue
			}
			x := inflateBlob("f", kind, data, &spent)
			if spent > maxUnpackBytes || x.files > maxUnpackFiles {
				t.Fatalf("inflated %d bytes, %d files", spent, x.files)
			}
		}
	})
}
