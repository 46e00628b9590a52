package secrets

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Compressed data is recognised by its magic bytes, never by its name: gzip, bzip2, xz, lzma
// ("lzma_alone", the .lzma format), zstd and zlib. A compressed stream and the tar inside it
// count as one level of nesting; its content is read within the unpacker's byte budget, so a
// bomb stops at maxUnpackBytes whatever its ratio. A stream whose header is valid but whose
// data is corrupt or cut short is not read (a limit: the review is incomplete), but for zlib,
// whose two-byte header text can begin with ("x^"): data that is text and does not inflate
// is text.

// maxDictBytes bounds the dictionary (window) an xz, lzma or zstd stream may ask for: the
// decoders allocate it up front. xz -9, lzma -9 and zstd -19 stay within it.
const maxDictBytes = 64 << 20

// errOverLimit is a stream that would need more than a limit allows.
var errOverLimit = errors.New("over the limit")

// compressedKind recognises compressed data by its magic bytes ("" for none).
func compressedKind(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return "gzip"
	case len(data) >= 10 && bytes.HasPrefix(data, []byte("BZh")) && data[3] >= '1' && data[3] <= '9' &&
		(bytes.Equal(data[4:10], []byte("1AY&SY")) || bytes.Equal(data[4:10], []byte("\x17rE8P\x90"))):
		return "bzip2"
	case bytes.HasPrefix(data, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return "xz"
	case bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd"
	case lzmaHeader(data):
		return "lzma"
	case len(data) >= 2 && data[0] == 0x78 && zlibLevel(data[1]):
		return "zlib"
	}
	return ""
}

// zlibLevel reports a zlib flag byte after 0x78 (deflate, 32 KiB window) with a valid check
// and no preset dictionary: 0x01, 0x5e, 0x9c or 0xda.
func zlibLevel(flg byte) bool {
	return flg == 0x01 || flg == 0x5e || flg == 0x9c || flg == 0xda
}

// lzmaHeader reports the 13-byte header of an .lzma file as the lzma tools write it: the
// default properties (lc=3, lp=0, pb=2), a dictionary of at least 4 KiB, an unknown size or
// one below 2^48, and the range coder's first byte, always zero.
func lzmaHeader(data []byte) bool {
	if len(data) < 14 || data[0] != 0x5d || data[13] != 0 {
		return false
	}
	size := binary.LittleEndian.Uint64(data[5:13])
	return binary.LittleEndian.Uint32(data[1:5]) >= lzma.MinDictCap && (size == ^uint64(0) || size < 1<<48)
}

// openCompressed returns a reader of data's uncompressed content and a function that releases
// it. An error wrapping errOverLimit is a stream past the dictionary limit; any other error
// means data is not of that kind after all.
func openCompressed(kind string, data []byte) (io.Reader, func(), error) {
	src := bytes.NewReader(data)
	none := func() {}
	switch kind {
	case "gzip":
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, none, err
		}
		zr.Multistream(true)
		return zr, none, nil
	case "bzip2":
		return bzip2.NewReader(src), none, nil
	case "xz":
		if dict, ok := xzDict(data); ok && dict > maxDictBytes {
			return nil, none, fmt.Errorf("%w: a dictionary of %d bytes (the limit is %d)", errOverLimit, dict, maxDictBytes)
		}
		xr, err := xz.ReaderConfig{DictCap: lzma.MinDictCap}.NewReader(src)
		return xr, none, err
	case "lzma":
		if dict := binary.LittleEndian.Uint32(data[1:5]); dict > maxDictBytes {
			return nil, none, fmt.Errorf("%w: a dictionary of %d bytes (the limit is %d)", errOverLimit, dict, maxDictBytes)
		}
		lr, err := lzma.ReaderConfig{DictCap: lzma.MinDictCap}.NewReader(src)
		return lr, none, err
	case "zstd":
		zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxDictBytes), zstd.WithDecoderMaxMemory(maxDictBytes))
		if err != nil {
			return nil, none, err
		}
		return zr, zr.Close, nil
	}
	zr, err := zlib.NewReader(src)
	if err != nil {
		return nil, none, err
	}
	return zr, func() { zr.Close() }, nil
}

// xzDict returns the LZMA2 dictionary size of an xz stream's first block (false when the
// header cannot be read so: the decoder then reports it). Later blocks are written with the
// same settings by every xz encoder; a crafted one is bounded only by the decoder's own limit.
func xzDict(data []byte) (int64, bool) {
	const streamHeader = 12
	if len(data) < streamHeader+2 || data[streamHeader] == 0 {
		return 0, false
	}
	end := streamHeader + (int(data[streamHeader])+1)*4
	if end > len(data) {
		return 0, false
	}
	hdr := data[streamHeader+2 : end-4] // after the size and flags bytes, before the CRC32
	flags := data[streamHeader+1]
	skip := func() bool { // one multibyte integer
		for i, c := range hdr {
			if c&0x80 == 0 {
				hdr = hdr[i+1:]
				return true
			}
		}
		return false
	}
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} { // compressed, uncompressed size
		if present && !skip() {
			return 0, false
		}
	}
	for range int(flags&3) + 1 {
		if len(hdr) < 2 {
			return 0, false
		}
		id, props := hdr[0], int(hdr[1])
		if id == 0x21 && props == 1 && len(hdr) >= 3 {
			n, err := lzma.DecodeDictCap(hdr[2])
			return n, err == nil
		}
		if len(hdr) < 2+props {
			return 0, false
		}
		hdr = hdr[2+props:]
	}
	return 0, false
}

// compressedExt are the names' extensions of each kind, taken off to name what it holds.
var compressedExt = map[string][]string{
	"gzip": {".gz", ".gzip"}, "bzip2": {".bz2", ".bz"}, "xz": {".xz"}, "lzma": {".lzma"},
	"zstd": {".zst", ".zstd"}, "zlib": {".zz", ".zlib", ".z"},
}

// errStopped is a stream a limit stopped (the limit is noted).
var errStopped = errors.New("stopped by a limit")

// stream reads compressed data of the given kind within the byte budget. Its error is
// errNotArchive when data does not open as that kind, errStopped when a limit stopped it
// (noted), or the stream's own (corrupt, cut short), with what was read before it.
func (u *unpacker) stream(kind, name string, data []byte) ([]byte, error) {
	r, release, err := openCompressed(kind, data)
	defer release()
	if errors.Is(err, errOverLimit) {
		u.Limits = append(u.Limits, fmt.Sprintf("%s: %s data needing %v; not opened", name, kind, err))
		return nil, errStopped
	}
	if err != nil {
		return nil, errNotArchive
	}
	left, ok := u.budget(name)
	if !ok {
		return nil, errStopped
	}
	inner, err := readBounded(r, left)
	if errors.Is(err, errOverLimit) {
		u.Limits = append(u.Limits, fmt.Sprintf("%s: archive contents exceed %d bytes; the rest not scanned", name, maxUnpackBytes))
		return nil, errStopped
	}
	u.bytes += len(inner)
	return inner, err
}

// decompress reads a compressed stream and looks at what it holds: a tar's members, or one
// member named after the stream without its extension ("x.bz2!x").
func (u *unpacker) decompress(kind, name string, data []byte, depth int) error {
	inner, err := u.stream(kind, name, data)
	switch {
	case errors.Is(err, errStopped):
		return nil
	case errors.Is(err, errNotArchive):
		return err
	case err != nil && kind == "zlib" && isText(data):
		return errNotArchive // text that begins like zlib
	case err != nil:
		u.Limits = append(u.Limits, fmt.Sprintf("%s: failed to unpack %s data: %v", name, kind, err))
		return nil
	}
	if archiveKind(inner) == "tar" {
		return u.tar(name, bytes.NewReader(inner), depth)
	}
	base := path.Base(name)
	if i := strings.LastIndexByte(base, '!'); i >= 0 {
		base = base[i+1:]
	}
	for _, ext := range compressedExt[kind] {
		if len(base) > len(ext) && strings.EqualFold(base[len(base)-len(ext):], ext) {
			base = base[:len(base)-len(ext)]
			break
		}
	}
	u.add(name+"!"+base, inner, depth, true)
	return nil
}

// readBounded reads r to its end, at most limit bytes: more is errOverLimit. On another error
// it returns what was read before it.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return nil, errOverLimit
	}
	return data, nil
}

// isText reports data that decodeText reads as text.
func isText(data []byte) bool {
	_, _, ok := decodeText(data)
	return ok
}
