package secrets

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// bzip2 has no writer in the standard library: these were written by bzip2(1).
const (
	// bzip2 -9 of testConfig
	bz2Token = "425a6839314159265359b555da32000015df80001040007c022a001480b7cbd6202000486a9a3434343469a7a693c50a004f4260130267da67a8e7ca771acf70c503056e24e87b79631ab66c80d5ca688bb0d1a52a03538051d5d177245385090b555da320"
	// bzip2 of "hello\n"
	bz2Clean = "425a6839314159265359c1c080e2000001410000100244a00030cd00c3462997177245385090c1c080e2"
	// tar of config.txt (testConfig), then bzip2 -9
	tarBz2Token = "425a683931415926535982dced3d00007bff85ca90004040017f822a001580ffebde6000008200000820009488493f526653d4d3d269a6469faa61304c353f541a44d00000000000380b9be20402a8204083814065954060c44401c06f7491c1f0de419a8b8889c42077961458af39cb319db173a9c0fc5d9861a474d5040bb2f42c639f22d5ec6561e8f756df354af8c80c7e4240ea3c34954ecb9a14525bbb7f428b91a22201f8bb9229c2848416e769e8"
	// bzip2 -9 of 34,000,000 zero bytes: 50 bytes that unpack past maxUnpackBytes
	bz2Bomb = "425a683931415926535917851a3a01046ac200c00020000008200030cc0529a6925081b0a4a103c5dc914e142405e1468e80"
)

const testConfig = "name = app\ntoken = " + testPAT + "\n"

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func zlibOf(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// compressWith compresses data with the writer open returns.
func compressWith[W io.WriteCloser](t testing.TB, open func(io.Writer) (W, error), data []byte) []byte {
	var b bytes.Buffer
	w, err := open(&b)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func xzOf(t testing.TB, data []byte) []byte { return compressWith(t, xz.NewWriter, data) }

func lzmaOf(t testing.TB, data []byte) []byte { return compressWith(t, lzma.NewWriter, data) }

func zstdOf(t testing.TB, data []byte) []byte {
	w, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.EncodeAll(data, nil)
}

// Each format is opened by its magic bytes, whatever the file's name: a token inside is read,
// a clean stream gives its text, a stream cut short and a bomb past the byte budget are limits
// (not run), never clean.
func TestCompressedFormats(t *testing.T) {
	// What is unpacked past the byte budget: the unpacker below starts with all but 1 MiB of
	// it spent (bzip2's and gzip's bombs are the whole 32 MiB and more).
	bomb := make([]byte, 2<<20)
	formats := []struct {
		kind                string
		token, clean, bomb  []byte
		member, memberClean string // the member's path under "f"
	}{
		{"gzip", gzipOf([]byte(testConfig)), gzipOf([]byte("hello\n")), gzipOf(make([]byte, maxUnpackBytes+1)), "f!f", "f!f"},
		{"bzip2", unhex(t, bz2Token), unhex(t, bz2Clean), unhex(t, bz2Bomb), "f!f", "f!f"},
		{"bzip2 tar", unhex(t, tarBz2Token), unhex(t, bz2Clean), unhex(t, bz2Bomb), "f!config.txt", "f!f"},
		{"xz", xzOf(t, []byte(testConfig)), xzOf(t, []byte("hello\n")), xzOf(t, bomb), "f!f", "f!f"},
		{"lzma", lzmaOf(t, []byte(testConfig)), lzmaOf(t, []byte("hello\n")), lzmaOf(t, bomb), "f!f", "f!f"},
		{"zstd", zstdOf(t, []byte(testConfig)), zstdOf(t, []byte("hello\n")), zstdOf(t, bomb), "f!f", "f!f"},
		{"zstd tar", zstdOf(t, tarOf(t, map[string][]byte{"config.txt": []byte(testConfig)})), zstdOf(t, []byte("hello\n")), zstdOf(t, bomb), "f!config.txt", "f!f"},
		{"zlib", zlibOf([]byte(testConfig)), zlibOf([]byte("hello\n")), zlibOf(bomb), "f!f", "f!f"},
	}
	for _, tt := range formats {
		t.Run(tt.kind, func(t *testing.T) {
			kind, _, _ := strings.Cut(tt.kind, " ")
			if got := archiveKind(tt.token); got != kind {
				t.Fatalf("archiveKind = %q, want %q", got, kind)
			}
			x := extractText("f", tt.token)
			if len(x.Texts) != 1 || x.Texts[0].Path != tt.member || x.Texts[0].Text != testConfig || !x.Texts[0].Lines || len(x.Limits) != 0 {
				t.Errorf("token: texts %+v, limits %q; want %s holding the config", x.Texts, x.Limits, tt.member)
			}
			x = extractText("f", tt.clean)
			if len(x.Texts) != 1 || x.Texts[0].Path != tt.memberClean || x.Texts[0].Text != "hello\n" || len(x.Limits) != 0 {
				t.Errorf("clean: texts %+v, limits %q", x.Texts, x.Limits)
			}
			x = extractText("f", tt.token[:len(tt.token)*2/3])
			if !strings.Contains(strings.Join(x.Limits, ";"), "f: failed to unpack "+kind+" data") {
				t.Errorf("truncated: limits %q, texts %+v; want a failure to unpack", x.Limits, x.Texts)
			}
			x = &unpacker{bytes: maxUnpackBytes - 1<<20}
			x.add("f", tt.bomb, 0, false)
			if !strings.Contains(strings.Join(x.Limits, ";"), "archive contents exceed") || x.bytes > maxUnpackBytes || len(x.Texts) != 0 {
				t.Errorf("bomb of %d bytes: limits %q, %d bytes unpacked", len(tt.bomb), x.Limits, x.bytes)
			}
		})
	}
}

func TestCompressedNames(t *testing.T) {
	xzData := xzOf(t, []byte(testConfig))
	for _, tt := range []struct{ name, member string }{
		{"a/config.txt.bz2", "a/config.txt.bz2!config.txt"},
		{"c.XZ", "c.XZ!c"},
		{"z.zst", "z.zst!z"},
		{"plain.bin", "plain.bin!plain.bin"}, // by magic bytes, not by name
	} {
		data := xzData
		if strings.HasSuffix(tt.name, ".bz2") {
			data = unhex(t, bz2Token)
		} else if strings.HasSuffix(tt.name, ".zst") {
			data = zstdOf(t, []byte(testConfig))
		}
		if x := extractText(tt.name, data); len(x.Texts) != 1 || x.Texts[0].Path != tt.member {
			t.Errorf("%s: texts %+v, want %s", tt.name, x.Texts, tt.member)
		}
	}
}

// Magic bytes that text or other binaries can begin with are not taken for compressed data.
func TestCompressedLookalikes(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		kind string // archiveKind's answer
	}{
		// "x^" is a valid zlib header: text that does not inflate is text
		{"text like zlib", []byte("x^2 + y^2 = z^2\nno zlib here\n"), "zlib"},
		{"lzma's byte then text", []byte("]\x00\x00\x10\x00not lzma at all\n"), ""},
		{"BZh alone", []byte("BZh9 is not enough\x00"), ""},
	} {
		if got := archiveKind(tt.data); got != tt.kind {
			t.Errorf("%s: archiveKind = %q, want %q", tt.name, got, tt.kind)
		}
		x := extractText("f", tt.data)
		if len(x.Limits) != 0 || len(x.Texts) != 1 || x.Texts[0].Member {
			t.Errorf("%s: limits %q, texts %+v; want the file as it is", tt.name, x.Limits, x.Texts)
		}
	}
	// A corrupt zlib stream that is not text is not run.
	bad := append([]byte{0x78, 0x9c}, bytes.Repeat([]byte{0xff, 0x00, 0xfe}, 20)...)
	if x := extractText("f", bad); !strings.Contains(strings.Join(x.Limits, ";"), "failed to unpack zlib data") {
		t.Errorf("corrupt zlib: limits %q", x.Limits)
	}
}

// A stream asking for a dictionary past maxDictBytes is not opened, and says so.
func TestCompressedDictLimit(t *testing.T) {
	big := lzmaOf(t, []byte(testConfig))
	big[1], big[2], big[3], big[4] = 0, 0, 0, 0x40 // 1 GiB
	if x := extractText("f.lzma", big); !strings.Contains(strings.Join(x.Limits, ";"), "a dictionary of 1073741824 bytes") {
		t.Errorf("lzma: limits %q", x.Limits)
	}
	// xz's first block header (after the 12-byte stream header): size, flags, the LZMA2
	// filter's id (0x21), its properties' size (1) and its dictionary byte, then a CRC32.
	small := xzOf(t, []byte(testConfig))
	if dict, ok := xzDict(small); !ok || dict != 8<<20 {
		t.Errorf("xzDict of a default stream = %d, %v", dict, ok)
	}
	if small[14] != 0x21 || small[15] != 1 {
		t.Fatalf("unexpected block header % x", small[12:24])
	}
	small[16] = 36 // 2 << (36/2 + 11): 1 GiB
	end := 12 + (int(small[12])+1)*4
	binary.LittleEndian.PutUint32(small[end-4:], crc32.ChecksumIEEE(small[12:end-4]))
	if dict, ok := xzDict(small); !ok || dict != 1<<30 {
		t.Errorf("xzDict = %d, %v", dict, ok)
	}
	if x := extractText("f.xz", small); !strings.Contains(strings.Join(x.Limits, ";"), "a dictionary of 1073741824 bytes") {
		t.Errorf("xz: limits %q", x.Limits)
	}
}

// FuzzDecompress: no input to the decoders (raw, or behind each format's magic bytes) panics
// or unpacks beyond the limits.
func FuzzDecompress(f *testing.F) {
	f.Add(byte(0), unhex(f, bz2Token))
	f.Add(byte(1), xzOf(f, []byte("x")))
	f.Add(byte(2), lzmaOf(f, []byte("x")))
	f.Add(byte(3), zstdOf(f, []byte("x")))
	f.Add(byte(4), zlibOf([]byte("x")))
	f.Add(byte(5), []byte("H4sIAAAAAAAA"))
	magics := [][]byte{[]byte("BZh91AY&SY"), {0xfd, '7', 'z', 'X', 'Z', 0}, {0x5d, 0, 0, 0x10, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0}, {0x28, 0xb5, 0x2f, 0xfd}, {0x78, 0x9c}, {0x1f, 0x8b}}
	f.Fuzz(func(t *testing.T, k byte, data []byte) {
		m := magics[int(k)%len(magics)]
		for _, in := range [][]byte{data, append(append([]byte{}, m...), data...)} {
			x := extractText("f", in)
			if x.bytes > maxUnpackBytes || x.files > maxUnpackFiles {
				t.Fatalf("unpacked %d bytes, %d files", x.bytes, x.files)
			}
		}
	})
}
