package secrets

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// What git calls binary (a NUL byte in the first 8000 bytes) is looked at by its content:
//   - text in UTF-16 or UTF-32 (with or without a byte order mark) is decoded, and text with a
//     few stray NUL bytes is read as text: both are scanned line by line;
//   - zip (jar, ...) and tar archives and compressed data (gzip, bzip2, xz, lzma, zstd, zlib:
//     compress.go) are opened by their magic bytes, to a bounded depth and size, and each member
//     is looked at the same way, under the path "archive.zip!inner/path" ("x.bz2!x");
//   - anything else is scanned for embedded printable runs (as strings(1) does: ASCII and
//     UTF-16LE, at least minRunLen characters), which have no line: findings there are at line 0.

// Limits of what one binary file may unpack into.
const (
	maxArchiveDepth = 2        // archives inside archives, the outermost counting as 1
	maxUnpackBytes  = 32 << 20 // uncompressed bytes read out of one file's archives
	maxUnpackFiles  = 10000    // archive members looked at in one file
	minRunLen       = 8        // shortest printable run taken from a real binary
)

// binText is one piece of text found in a binary file.
type binText struct {
	Path  string // the file, or "archive.zip!inner/path" for an archive member
	Text  string
	Lines bool   // Text keeps the file's lines (decoded text); false: printable runs, no lines
	How   string // what was decoded: "UTF-16LE", "text with NUL bytes", "printable runs", ...
	// Member reports an archive member (its name is checked by the file-name rules too).
	Member bool
}

// unpacker extracts text from one binary file within the limits; Limits says what was left
// unread, which makes the file's scan incomplete.
type unpacker struct {
	bytes, files int
	Texts        []binText
	Limits       []string
}

// extractText classifies data and returns the text in it.
func extractText(name string, data []byte) *unpacker {
	u := &unpacker{}
	u.add(name, data, 0, false)
	return u
}

func (u *unpacker) add(name string, data []byte, depth int, member bool) {
	if kind := archiveKind(data); kind != "" {
		if depth >= maxArchiveDepth {
			u.Limits = append(u.Limits, fmt.Sprintf("%s: archive nested deeper than %d levels not opened", name, maxArchiveDepth))
			return
		}
		if err := u.archive(kind, name, data, depth+1); err == nil {
			return
		} else if !errors.Is(err, errNotArchive) {
			u.Limits = append(u.Limits, fmt.Sprintf("%s: %v", name, err))
			return
		}
	}
	if text, how, ok := decodeText(data); ok {
		u.Texts = append(u.Texts, binText{Path: name, Text: text, Lines: true, How: how, Member: member})
		return
	}
	if runs := printableRuns(data, minRunLen); runs != "" || member {
		u.Texts = append(u.Texts, binText{Path: name, Text: runs, How: "printable runs", Member: member})
	}
}

var errNotArchive = errors.New("not an archive")

// archiveKind recognises an archive or compressed data by its magic bytes.
func archiveKind(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return "zip"
	case len(data) >= 512 && bytes.Equal(data[257:262], []byte("ustar")):
		return "tar"
	}
	return compressedKind(data) // compress.go
}

// budget returns how many more bytes may be unpacked, or false (with a limit noted) when a
// limit is reached.
func (u *unpacker) budget(name string) (int64, bool) {
	if u.files >= maxUnpackFiles {
		u.Limits = append(u.Limits, fmt.Sprintf("%s: more than %d archive members; the rest not scanned", name, maxUnpackFiles))
		return 0, false
	}
	u.files++
	return int64(maxUnpackBytes - u.bytes), true
}

// read reads one member within the byte budget.
func (u *unpacker) read(name string, r io.Reader, left int64) ([]byte, bool) {
	data, err := readBounded(r, left)
	if errors.Is(err, errOverLimit) {
		u.Limits = append(u.Limits, fmt.Sprintf("%s: archive contents exceed %d bytes; the rest not scanned", name, maxUnpackBytes))
		return nil, false
	}
	if err != nil {
		u.Limits = append(u.Limits, fmt.Sprintf("%s: failed to unpack: %v", name, err))
		return nil, false
	}
	u.bytes += len(data)
	return data, true
}

func (u *unpacker) archive(kind, name string, data []byte, depth int) error {
	switch kind {
	case "zip":
		return u.zip(name, data, depth)
	case "tar":
		return u.tar(name, bytes.NewReader(data), depth)
	}
	return u.decompress(kind, name, data, depth)
}

func (u *unpacker) zip(name string, data []byte, depth int) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return errNotArchive
	}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		member := name + "!" + f.Name
		left, ok := u.budget(name)
		if !ok {
			return nil
		}
		if f.UncompressedSize64 > uint64(left) {
			u.Limits = append(u.Limits, fmt.Sprintf("%s: archive contents exceed %d bytes; the rest not scanned", member, maxUnpackBytes))
			return nil
		}
		if f.Flags&1 != 0 {
			u.Limits = append(u.Limits, fmt.Sprintf("%s: encrypted archive member not scanned", member))
			continue
		}
		rc, err := f.Open()
		if err != nil {
			u.Limits = append(u.Limits, fmt.Sprintf("%s: failed to unpack: %v", member, err))
			continue
		}
		inner, ok := u.read(member, rc, left)
		rc.Close()
		if !ok {
			return nil
		}
		u.add(member, inner, depth, true)
	}
	return nil
}

func (u *unpacker) tar(name string, r io.Reader, depth int) error {
	tr := tar.NewReader(r)
	for first := true; ; first = false {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if first {
				return errNotArchive
			}
			u.Limits = append(u.Limits, fmt.Sprintf("%s: failed to unpack: %v", name, err))
			return nil
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		member := name + "!" + strings.TrimPrefix(h.Name, "./")
		left, ok := u.budget(name)
		if !ok {
			return nil
		}
		inner, ok := u.read(member, tr, left)
		if !ok {
			return nil
		}
		u.add(member, inner, depth, true)
	}
}

// decodeText returns data as text when it is UTF-32 or UTF-16 (by byte order mark, or by the
// pattern of zero bytes that ASCII-range text leaves), or UTF-8 text with a few NUL bytes
// (replaced by spaces). ok is false for anything else.
func decodeText(data []byte) (string, string, bool) {
	type enc struct {
		name  string
		width int
		order binary.ByteOrder
		bom   []byte
	}
	encs := []enc{
		{"UTF-32LE", 4, binary.LittleEndian, []byte{0xff, 0xfe, 0, 0}},
		{"UTF-32BE", 4, binary.BigEndian, []byte{0, 0, 0xfe, 0xff}},
		{"UTF-16LE", 2, binary.LittleEndian, []byte{0xff, 0xfe}},
		{"UTF-16BE", 2, binary.BigEndian, []byte{0xfe, 0xff}},
	}
	for _, e := range encs {
		if bytes.HasPrefix(data, e.bom) {
			if s, ok := decodeUnits(data[len(e.bom):], e.width, e.order); ok {
				return s, e.name, true
			}
		}
	}
	for _, e := range encs {
		if looksLike(data, e.width, e.order) {
			if s, ok := decodeUnits(data, e.width, e.order); ok {
				return s, e.name, true
			}
		}
	}
	if s, ok := textWithNULs(data); ok {
		how := "text"
		if bytes.IndexByte(data, 0) >= 0 {
			how = "text with NUL bytes"
		}
		return s, how, true
	}
	return "", "", false
}

// looksLike reports that the first code units of data are mostly ASCII-range characters in
// the given width and byte order (UTF-16LE "a\x00b\x00", UTF-32BE "\x00\x00\x00a", ...).
func looksLike(data []byte, width int, order binary.ByteOrder) bool {
	n := min(len(data), 4096) / width
	if n < 2 || len(data)%width != 0 {
		return false
	}
	ascii := 0
	for i := 0; i < n; i++ {
		u := unit(data[i*width:], width, order)
		if u >= 0x09 && u < 0x7f {
			ascii++
		}
	}
	return ascii*10 >= n*7
}

func unit(b []byte, width int, order binary.ByteOrder) uint32 {
	if width == 4 {
		return order.Uint32(b)
	}
	return uint32(order.Uint16(b))
}

// decodeUnits decodes UTF-16 or UTF-32 and checks that the result is text.
func decodeUnits(data []byte, width int, order binary.ByteOrder) (string, bool) {
	if len(data)%width != 0 {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(data) / width)
	var pending []uint16
	for i := 0; i+width <= len(data); i += width {
		u := unit(data[i:], width, order)
		var r rune
		if width == 2 {
			if utf16.IsSurrogate(rune(u)) {
				pending = append(pending[:0], uint16(u))
				if i+4 <= len(data) {
					pending = append(pending, uint16(unit(data[i+2:], 2, order)))
					if rs := utf16.Decode(pending); len(rs) == 1 && rs[0] != utf8.RuneError {
						b.WriteRune(rs[0])
						i += 2
						continue
					}
				}
				return "", false
			}
			r = rune(u)
		} else {
			if u > utf8.MaxRune || (u >= 0xd800 && u < 0xe000) {
				return "", false
			}
			r = rune(u)
		}
		if !textRune(r) {
			return "", false
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// textRune reports a character that text holds (no NUL or other C0 control but whitespace
// and ESC).
func textRune(r rune) bool {
	return r >= 0x20 || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0x1b
}

// textWithNULs reads valid UTF-8 text, which may hold a few NUL bytes, as text, the NULs
// turned into spaces: at most 1 in 64 bytes is a NUL and nothing else is a control character.
func textWithNULs(data []byte) (string, bool) {
	if nuls := bytes.Count(data, []byte{0}); nuls*64 > len(data) {
		return "", false
	}
	clean := bytes.ReplaceAll(data, []byte{0}, []byte{' '})
	if !utf8.Valid(clean) {
		return "", false
	}
	for _, c := range clean {
		if c < 0x20 && !textRune(rune(c)) {
			return "", false
		}
	}
	return string(clean), true
}

// printableRuns returns the runs of at least minLen printable ASCII characters in data, and
// those of UTF-16LE text (each character followed by a zero byte), one run per line.
func printableRuns(data []byte, minLen int) string {
	var out strings.Builder
	emit := func(run []byte) {
		if len(run) >= minLen {
			out.Write(run)
			out.WriteByte('\n')
		}
	}
	start := -1
	for i, c := range data {
		if printableByte(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(data[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(data[start:])
	}
	utf16Runs(data, 0, emit)
	utf16Runs(data, 1, emit)
	return strings.TrimSuffix(out.String(), "\n")
}

func printableByte(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\t' }

// utf16Runs calls emit with each run of UTF-16LE characters of data at alignment align (0 or 1),
// in order. Each character of one is followed by a zero byte: the walk jumps from zero byte to
// zero byte (rare in compressed data, most of a binary) and reads a run from each character
// before one.
func utf16Runs(data []byte, align int, emit func(run []byte)) {
	var run []byte
	for j := 0; ; {
		z := bytes.IndexByte(data[j:], 0)
		if z < 0 {
			return
		}
		i := j + z - 1 // the character before the zero byte
		if i < align || (i-align)%2 != 0 || !printableByte(data[i]) {
			j += z + 1
			continue
		}
		run = run[:0]
		for ; i+1 < len(data) && printableByte(data[i]) && data[i+1] == 0; i += 2 {
			run = append(run, data[i])
		}
		emit(run)
		j = min(i+1, len(data))
	}
}
