package redact

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"
)

// The cases where a window around a keyword is not enough: matches that span many lines,
// escaped text, long key blocks, custom rules without keywords or with (?s), and many scans at
// once. Each is compared with gitleaks' own detector (scanWhole), and must have findings there.

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func randText(rnd *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rnd.Intn(len(alphabet))]
	}
	return string(b)
}

// armored is a key block of n body lines, as gpg --export-secret-keys --armor writes it.
func armored(kind string, n int) string {
	rnd := rand.New(rand.NewSource(int64(n)))
	var b strings.Builder
	b.WriteString("-----BEGIN " + kind + "-----\n")
	if strings.Contains(kind, "PGP") {
		b.WriteString("\n")
	}
	for i := 0; i < n; i++ {
		b.WriteString(randText(rnd, b64, 64) + "\n")
	}
	b.WriteString("=" + randText(rnd, b64, 4) + "\n-----END " + kind + "-----\n")
	return b.String()
}

// k8sSecret is a Secret manifest whose data: lies many lines below kind: Secret (gitleaks'
// rule allows 200 characters between them).
func k8sSecret(labels int) string {
	var b strings.Builder
	b.WriteString("kind: Secret\nmetadata:\n  labels:\n")
	for i := 0; i < labels; i++ {
		fmt.Fprintf(&b, "    l%d: x\n", i)
	}
	b.WriteString("data:\n  db: czNjcjN0UGFzc3dvcmQxMjM0NTY=\n")
	return b.String()
}

func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func b64enc(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func codePoints(s, sep string) string {
	var parts []string
	for _, r := range s {
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	return strings.Join(parts, sep)
}

const customRules = `
[extend]
useDefault = true

[[rules]]
id = "internal-token"
description = "internal token, no keywords"
regex = '''itk_[a-z0-9]{24}'''

[[rules]]
id = "sealed-blob"
description = "a sealed blob spanning lines"
regex = '''(?s)BEGIN_SEALED.{0,1000}?END_SEALED'''
keywords = ["begin_sealed"]
`

type hardCase struct {
	name, path, text string
	repo             bool   // with customRules
	rule             string // a rule gitleaks must find there
}

func hardCases() []hardCase {
	rnd := rand.New(rand.NewSource(7))
	tok := "ghp_" + randText(rnd, b64[:62], 36)
	filler := strings.Repeat("x := 1\n", 30)
	sealed := "BEGIN_SEALED\n" + strings.Repeat("  opaque payload line\n", 40) + "END_SEALED\n"
	return []hardCase{
		{"kubernetes secret, 14 labels over 19 lines", "deploy/secret.yaml", k8sSecret(14), false, "kubernetes-secret-yaml"},
		{"generic key, value 7 lines below the key", "app.conf", filler + "api_key\n\n\n=\n\n\n\n\"Xk29vLq8Rt3mPz7Yw2NbQ\"\n" + filler, false, "generic-api-key"},
		{`\u-escaped token`, "app.json", filler + `{"t": "` + unicodeEscaped(tok) + `"}` + "\n" + filler, false, ""},
		{`\U-escaped token`, "app.json", filler + strings.ToUpper(unicodeEscaped(tok)[:2]) + unicodeEscaped(tok)[2:] + "\n", false, ""},
		{"U+ code points, spaces", "notes.txt", filler + codePoints(tok, " ") + "\n" + filler, false, ""},
		{"U+ code points, one per line", "notes.txt", filler + codePoints(tok, "\n") + "\n" + filler, false, ""},
		{"450-line PGP private key", "backup.asc", "gpg backup\n" + armored("PGP PRIVATE KEY BLOCK", 450) + "trailer\n", false, ""},
		{"1200-line RSA private key", "id_rsa", armored("RSA PRIVATE KEY", 1200), false, ""},
		{"keyword-less custom rule, far from anything", "big.txt", filler + filler + "v = itk_" + randText(rnd, "abcdefghijklmnopqrstuvwxyz0123456789", 24) + "\n", true, ""},
		{"(?s) custom rule over 42 lines", "blob.txt", filler + sealed + filler, true, ""},
		{"default rules still run with a repository config", "a.go", "t := \"" + tok + "\"\n", true, ""},
		// Decoded secrets: the decoder runs only near lines that decode, and a rule runs after
		// decoding only where its regex matches the decoded text.
		{"base64 token far from any keyword", "notes.txt", filler + "blob " + b64enc(tok) + "\n" + filler, false, ""},
		{"token encoded twice", "notes.txt", filler + "blob " + b64enc(b64enc("auth "+tok)) + "\n" + filler, false, ""},
		{"percent-encoded token beside a plain one", "urls.txt", filler + "u=%67%68%70%5F" + tok[4:] + "\nt := \"" + tok + "\"\n" + filler, false, ""},
		{"(?s) custom rule closed by an encoded line", "blob.txt", filler + "BEGIN_SEALED\n  opaque\n" + b64enc("END_SEALED end of the blob") + "\n" + filler, true, ""},
		{"(?s) custom rule opened by an encoded line", "blob.txt", filler + b64enc("here BEGIN_SEALED starts") + "\n  opaque\nEND_SEALED\n" + filler + filler, true, ""},
	}
}

func TestEngineMatchesGitleaksOnHardCases(t *testing.T) {
	def := newDetectorT(t)
	repo := newDetector(t, Options{RepoConfig: []byte(customRules)})
	for _, c := range hardCases() {
		t.Run(c.name, func(t *testing.T) {
			d := def
			if c.repo {
				d = repo
			}
			n, _ := compareScans(t, d, c.name, c.path, c.text)
			if n == 0 {
				t.Fatalf("gitleaks itself finds nothing in %q: the case is wrong", c.text)
			}
			if c.rule != "" && len(find(d.scanWhole(c.path, c.text, 1), c.rule)) == 0 {
				t.Fatalf("gitleaks' %s finds nothing in %q: the case is wrong", c.rule, c.text)
			}
		})
	}
}

// TestEngineConcurrentScans: many files scanned at once by one detector (as the review's file
// goroutines do), a keyword-less rule among the rules, one big file and many small ones. Run it
// with -race.
func TestEngineConcurrentScans(t *testing.T) {
	d := newDetector(t, Options{RepoConfig: []byte(customRules)})
	rnd := rand.New(rand.NewSource(3))
	type file struct {
		path, text string
		want       []string
	}
	var files []file
	big := strings.Repeat("nothing to see here\n", 5000) + "v = itk_" + randText(rnd, "abcdefghijklmnopqrstuvwxyz0123456789", 24) + "\n"
	files = append(files, file{path: "big.txt", text: big})
	for i := 0; i < 64; i++ {
		text := fmt.Sprintf("line %d\n", i)
		if i%3 == 0 {
			text += "x = itk_" + randText(rnd, "abcdefghijklmnopqrstuvwxyz0123456789", 24) + "\n"
		}
		files = append(files, file{path: fmt.Sprintf("small%d.txt", i), text: text})
	}
	for i := range files {
		files[i].want = secretSet(d.scanWhole(files[i].path, files[i].text, 1))
	}
	if len(files[0].want) == 0 {
		t.Fatal("gitleaks finds nothing in the big file: the case is wrong")
	}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		errs := make(chan string, len(files))
		for i := range files {
			wg.Add(1)
			go func(f file) {
				defer wg.Done()
				got := secretSet(d.mustScan(f.path, f.text, 1))
				if strings.Join(got, "\n") != strings.Join(f.want, "\n") {
					errs <- fmt.Sprintf("%s: got %v, want %v", f.path, got, f.want)
				}
			}(files[i])
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// TestScanContextStops: a scan past its deadline stops within a second and says so.
func TestScanContextStops(t *testing.T) {
	d := newDetectorT(t)
	text := apiKeyLines(rand.New(rand.NewSource(1)), 2<<20)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := d.ScanContext(ctx, "keys.env", text, 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if el := time.Since(t0); el > 1500*time.Millisecond {
		t.Fatalf("the scan stopped %v after its start (deadline 200ms)", el)
	}
}

// apiKeyLines is n bytes of `api_key = "..."` lines with distinct random values.
func apiKeyLines(rnd *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(`api_key = "` + randText(rnd, b64[:62], 32) + "\"\n")
	}
	return b.String()
}

// TestGlobalAllowlistIsTollgates: gitleaks skips whole paths (node_modules, vendor, images,
// binaries, its own config); tollgate scans them. Lock files and go.sum stay skipped.
func TestGlobalAllowlistIsTollgates(t *testing.T) {
	text := "token = \"" + ghPAT + "\"\n"
	for _, opts := range []Options{{}, {RepoConfig: []byte(customRules)}} {
		d := newDetector(t, opts)
		for _, p := range []string{"node_modules/left-pad/index.js", "vendor/github.com/x/y/z.go",
			"assets/logo.svg", "firmware.bin", ".gitleaks.toml", "config/gitleaks.toml", "docs/a.PNG"} {
			if got := find(d.mustScan(p, text, 1), "github-pat"); len(got) != 1 {
				t.Errorf("%s (repo config %v): %d findings, want 1", p, opts.RepoConfig != nil, len(got))
			}
		}
		for _, p := range []string{"package-lock.json", "web/yarn.lock", "pnpm-lock.yaml", "poetry.lock", "go.sum"} {
			if got := d.mustScan(p, text, 1); len(got) != 0 {
				t.Errorf("%s: %d findings, want none (lock file)", p, len(got))
			}
		}
	}
	// The repository's own allowlist still applies.
	d := newDetector(t, Options{RepoConfig: []byte(customRules + "\n[allowlist]\npaths = ['''^third_party/''']\n")})
	if got := d.mustScan("third_party/x.js", text, 1); len(got) != 0 {
		t.Errorf("the repository's allowlist is ignored: %v", secretSet(got))
	}
}

// TestEngineChunksMatchGitleaks: long windows cut in pieces (small pieces here, to cut often)
// find what gitleaks finds on the whole text: keys on every line, values below their key,
// decodable lines, key blocks, a keyword-less rule.
func TestEngineChunksMatchGitleaks(t *testing.T) {
	defer func(n int) { chunkLines = n }(chunkLines)
	chunkLines = 4
	rnd := rand.New(rand.NewSource(11))
	var b strings.Builder
	for i := 0; i < 400; i++ {
		switch rnd.Intn(8) {
		case 0:
			b.WriteString("password =\n\n  '" + randText(rnd, b64[:62], 20) + "'\n")
		case 1:
			b.WriteString("token: " + unicodeEscaped("ghp_"+randText(rnd, b64[:62], 36)) + "\n")
		case 2:
			b.WriteString("secret = " + randText(rnd, b64, 40) + "==\n")
		case 3:
			b.WriteString("plain line " + fmt.Sprint(i) + " itk_" + randText(rnd, "abcdefghijklmnopqrstuvwxyz0123456789", 24) + "\n")
		default:
			b.WriteString("api_key = \"" + randText(rnd, b64[:62], 32) + "\"\n")
		}
	}
	text := b.String() + armored("RSA PRIVATE KEY", 30) + apiKeyLines(rnd, 20000)
	for _, d := range []*Detector{newDetectorT(t), newDetector(t, Options{RepoConfig: []byte(customRules)})} {
		for _, start := range []int{0, 7} {
			p := fmt.Sprintf("conf%d.env", start)
			if n, _ := compareScans(t, d, p, p, text[start:]); n < 400 {
				t.Fatalf("only %d findings: the case is wrong", n)
			}
		}
	}
}

// FuzzEngineWindows: on any text, the engine finds exactly what gitleaks' detector finds
// (with small pieces, so that long windows are cut).
func FuzzEngineWindows(f *testing.F) {
	defer func(n int) { chunkLines = n }(chunkLines)
	chunkLines = 2
	d := newDetector(f, Options{RepoConfig: []byte(customRules)})
	for _, c := range hardCases() {
		if len(c.text) < 20000 {
			f.Add(c.text)
		}
	}
	f.Add("api_key =\n\n\n 'Xk29vLq8Rt3mPz7Yw2NbQ'\n")
	f.Add("x\ntoken: " + ghPAT + "\n" + pemKey)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<14 {
			return
		}
		fast := secretSet(d.mustScan("f.yaml", text, 1))
		whole := secretSet(d.scanWhole("f.yaml", text, 1))
		if strings.Join(fast, "\n") != strings.Join(whole, "\n") {
			t.Fatalf("engine and gitleaks differ on %q\nengine:   %v\ngitleaks: %v", text, fast, whole)
		}
	})
}

// TestScanContextSmallText: a text small enough to be scanned in the caller's goroutine finds
// what Scan finds while its context lives, and nothing but the context's error once it ended.
func TestScanContextSmallText(t *testing.T) {
	d := newDetectorT(t)
	text := "x = 1\ntoken: " + ghPAT + "\n"
	if len(text) > syncScanBytes {
		t.Fatal("the case is wrong: the text is not small")
	}
	want, err := d.Scan("a.yaml", text, 1)
	if err != nil || len(want) == 0 {
		t.Fatalf("Scan = %v, %v: the case is wrong", want, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got, err := d.ScanContext(ctx, "a.yaml", text, 1)
	if err != nil || strings.Join(secretSet(got), "\n") != strings.Join(secretSet(want), "\n") {
		t.Fatalf("ScanContext = %v, %v; want %v", got, err, want)
	}
	cancel()
	if got, err := d.ScanContext(ctx, "a.yaml", text, 1); got != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: ScanContext = %v, %v", got, err)
	}
}
