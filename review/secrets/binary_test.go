package secrets

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16Bytes(s string, order binary.AppendByteOrder, bom bool) []byte {
	var b []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	for _, u := range units {
		b = order.AppendUint16(b, u)
	}
	return b
}

func utf32Bytes(s string, order binary.AppendByteOrder) []byte {
	var b []byte
	for _, r := range s {
		b = order.AppendUint32(b, uint32(r))
	}
	return b
}

func TestDecodeText(t *testing.T) {
	const text = "line one\r\nkey = välue ✓ 𝄞\r\n"
	tests := []struct {
		name string
		in   []byte
		how  string
		want string
	}{
		{"utf-16le bom", utf16Bytes(text, binary.LittleEndian, true), "UTF-16LE", text},
		{"utf-16be bom", utf16Bytes(text, binary.BigEndian, true), "UTF-16BE", text},
		{"utf-16le no bom", utf16Bytes(text, binary.LittleEndian, false), "UTF-16LE", text},
		{"utf-16be no bom", utf16Bytes(text, binary.BigEndian, false), "UTF-16BE", text},
		{"utf-32le", utf32Bytes(text, binary.LittleEndian), "UTF-32LE", text},
		{"utf-32be", utf32Bytes(text, binary.BigEndian), "UTF-32BE", text},
		{"stray nul", []byte("a = 1\nb\x00 = 2\nccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n"), "text with NUL bytes",
			"a = 1\nb  = 2\nccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n"},
		{"utf-8", []byte("plain\n"), "text", "plain\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, how, ok := decodeText(tt.in)
			if !ok || how != tt.how || got != tt.want {
				t.Errorf("decodeText = %q, %q, %v; want %q, %q", got, how, ok, tt.want, tt.how)
			}
		})
	}
	for _, bin := range [][]byte{
		{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0},
		[]byte("mostly\x00nul\x00\x00\x00\x00"),
		{0xff, 0xfe, 0x00, 0xd8, 'a', 0}, // a lone surrogate
		{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'},
	} {
		if got, how, ok := decodeText(bin); ok {
			t.Errorf("decodeText(%q) = %q, %q: want binary", bin, got, how)
		}
	}
}

func TestPrintableRuns(t *testing.T) {
	in := []byte("\x00\x01short\x00a_longer_run=1\x02")
	in = append(in, utf16Bytes("wide string!", binary.LittleEndian, false)...)
	in = append(in, 0xff)
	got := printableRuns(in, 8)
	if got != "a_longer_run=1\nwide string!" {
		t.Errorf("printableRuns = %q", got)
	}
}

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, data := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tarOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for name, data := range files {
		w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		w.Write(data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gzipOf(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func TestExtractArchives(t *testing.T) {
	text := []byte("a\nsecret\n")
	tests := []struct {
		name   string
		data   []byte
		paths  []string
		limits string
	}{
		{"zip", zipOf(t, map[string][]byte{"d/a.txt": text}), []string{"x!d/a.txt"}, ""},
		{"tar", tarOf(t, map[string][]byte{"./a.txt": text}), []string{"x!a.txt"}, ""},
		{"tar.gz", gzipOf(tarOf(t, map[string][]byte{"a.txt": text})), []string{"x!a.txt"}, ""},
		{"gz", gzipOf(text), []string{"x!x"}, ""},
		{"zip in zip", zipOf(t, map[string][]byte{"in.zip": zipOf(t, map[string][]byte{"a.txt": text})}), []string{"x!in.zip!a.txt"}, ""},
		{"three levels", zipOf(t, map[string][]byte{"1.zip": zipOf(t, map[string][]byte{"2.zip": zipOf(t, map[string][]byte{"a.txt": text})})}),
			nil, "x!1.zip!2.zip: archive nested deeper than 2 levels"},
		{"too big", zipOf(t, map[string][]byte{"z": make([]byte, maxUnpackBytes+1)}), nil, "x!z: archive contents exceed"},
		{"broken zip", append([]byte("PK\x03\x04"), "garbage and more garbage"...), []string{"x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := extractText("x", tt.data)
			var paths []string
			for _, bt := range x.Texts {
				paths = append(paths, bt.Path)
				if strings.Contains(bt.Path, "!") && (!bt.Lines || bt.Text != string(text)) {
					t.Errorf("member %s: %+v, want its text with lines", bt.Path, bt)
				}
			}
			if strings.Join(paths, ",") != strings.Join(tt.paths, ",") {
				t.Errorf("paths %q, want %q", paths, tt.paths)
			}
			limits := strings.Join(x.Limits, "; ")
			if (tt.limits == "") != (limits == "") || !strings.Contains(limits, tt.limits) {
				t.Errorf("limits %q, want %q", limits, tt.limits)
			}
		})
	}
	// The member count is bounded.
	many := map[string][]byte{}
	for i := 0; i < maxUnpackFiles+5; i++ {
		many[strconv.Itoa(i)] = nil
	}
	if x := extractText("m", zipOf(t, many)); !strings.Contains(strings.Join(x.Limits, ";"), "more than 10000 archive members") {
		t.Errorf("no member limit: %q (%d texts)", x.Limits, len(x.Texts))
	}
}

// FuzzExtractText: no input panics or unpacks beyond the limits.
func FuzzExtractText(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add(utf16Bytes("hello world", binary.LittleEndian, true))
	f.Add(gzipOf([]byte("x")))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := extractText("f", data)
		if x.bytes > maxUnpackBytes || x.files > maxUnpackFiles {
			t.Fatalf("unpacked %d bytes, %d files", x.bytes, x.files)
		}
	})
}

// utf16RunsWalk is utf16Runs as first written, one byte pair at a time: the reference the
// zero-byte walk is held to. It calls emit with empty runs too.
func utf16RunsWalk(data []byte, align int, emit func(run []byte)) {
	var run []byte
	for i := align; i+1 < len(data); i += 2 {
		if printableByte(data[i]) && data[i+1] == 0 {
			run = append(run, data[i])
			continue
		}
		emit(run)
		run = run[:0]
	}
	emit(run)
}

// collectRuns returns the non-empty runs walk emits at both alignments, one per line.
func collectRuns(data []byte, walk func([]byte, int, func([]byte))) string {
	var out strings.Builder
	for align := 0; align < 2; align++ {
		walk(data, align, func(run []byte) {
			if len(run) > 0 {
				out.Write(run)
				out.WriteByte('\n')
			}
		})
	}
	return out.String()
}

// FuzzPrintableRuns: the UTF-16 runs found jumping from zero byte to zero byte are those found
// walking every byte pair, in the same order.
func FuzzPrintableRuns(f *testing.F) {
	f.Add([]byte("p\x00a\x00s\x00s\x00w\x00o\x00r\x00d\x00\x01\x00secret-ascii-run\x00"))
	f.Add([]byte("\x00a\x00b\x00c\x00d\x00e\x00f\x00g\x00h\x00"))
	f.Add([]byte("ab\x00\x00cd\x00x\x00y\x00z\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := collectRuns(data, utf16Runs), collectRuns(data, utf16RunsWalk); got != want {
			t.Fatalf("utf16Runs(%q) = %q, want %q", data, got, want)
		}
	})
}
