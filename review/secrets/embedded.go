package secrets

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
)

// Compressed data written into text as base64: gitleaks' decoder decodes base64 that holds
// printable text, and leaves gzip ("H4sI...") and zlib ("eJ...", "eN...", "eF...", "eA...")
// data alone. A run of base64 characters that starts a word with one of those prefixes, at
// least minBlobChars long, is decoded; when it holds gzip or zlib data, what that inflates to
// is looked at as a binary file's content is (text, archives, printable runs), within the
// unpacker's byte budget shared by the file's blobs. A gzip blob that is corrupt or cut short,
// or anything past a limit, is not run; zlib's two-byte header is too weak to call a random
// token that begins like it corrupt zlib, so a zlib blob that fails to inflate is scanned for
// what it inflated to before the error, with no more said.

// minBlobChars is the shortest base64 run looked at: gzip's header and trailer alone are 18
// bytes, and a token deflated is some 16 more.
const minBlobChars = 32

// blobPrefixes are the base64 forms of gzip's first three bytes (1f 8b 08) and of zlib's first
// twelve bits (0x78, then a flag byte 0x01, 0x5e, 0x9c or 0xda).
var blobPrefixes = []string{"H4sI", "eA", "eF", "eJ", "eN"}

// blobStarts returns the offsets in text where a base64 run of at least minBlobChars starts
// with one of blobPrefixes, and each run's end (up to two '=' after it included). One pass
// over the text, a table lookup a byte (several strings.Index passes for the prefixes cost
// more: 'e' is common).
func blobStarts(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if !base64Bytes[text[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && base64Bytes[text[j]] {
			j++
		}
		if j-i >= minBlobChars && blobPrefix(text[i:j]) {
			end := j
			for n := 0; n < 2 && end < len(text) && text[end] == '='; n++ {
				end++
			}
			out = append(out, [2]int{i, end})
		}
		i = j
	}
	return out
}

func blobPrefix(run string) bool {
	for _, p := range blobPrefixes {
		if strings.HasPrefix(run, p) {
			return true
		}
	}
	return false
}

// base64Bytes are the characters of standard and URL-safe base64.
var base64Bytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
	}
	return t
}()

// decodeBlob decodes a base64 run (standard or URL-safe, padded or not) and returns it when it
// holds gzip or zlib data.
func decodeBlob(run string) ([]byte, string, bool) {
	run = strings.TrimRight(run, "=")
	if len(run)%4 == 1 {
		run = run[:len(run)-1] // a last character alone is not a byte
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		if strings.ContainsAny(run, "+/") {
			return nil, "", false
		}
		enc = base64.RawURLEncoding
	}
	data, err := enc.DecodeString(run)
	if err != nil {
		return nil, "", false
	}
	kind := compressedKind(data)
	if kind != "gzip" && kind != "zlib" {
		return nil, "", false
	}
	return data, kind, true
}

// inflateBlob inflates one decoded blob within the budget left (spent counts what the file's
// blobs used) and returns what it holds. The limits noted are what makes the review incomplete.
func inflateBlob(name, kind string, data []byte, spent *int) *unpacker {
	u := &unpacker{bytes: *spent}
	defer func() { *spent = u.bytes }()
	inner, err := u.stream(kind, name, data)
	switch {
	case errors.Is(err, errStopped):
		return u
	case err != nil && kind == "gzip":
		u.Limits = append(u.Limits, fmt.Sprintf("%s: failed to unpack gzip data: %v", name, err))
	}
	if errors.Is(err, errNotArchive) {
		return u
	}
	// What inflated before an error is scanned too: a token in a stream cut short is found.
	// An archive inside (a tar) is a level; what it holds is looked at like a binary's content.
	u.add(name, inner, 1, false)
	return u
}

// scanBlobs scans what the base64 blobs of compressed data in one block of added lines
// inflate to. A finding is reported at the blob's line and column, its evidence cut from the
// inflated line with the secret masked; an archive's member under "path!member".
func (s *Scanner) scanBlobs(u *diff.Unit, path string, b block, spent *int, r *review.Result) {
	for _, run := range blobStarts(b.text) {
		data, kind, ok := decodeBlob(b.text[run[0]:run[1]])
		if !ok {
			continue
		}
		lineStart := strings.LastIndexByte(b.text[:run[0]], '\n') + 1
		line := b.start + strings.Count(b.text[:run[0]], "\n")
		col := run[0] - lineStart + 1
		x := inflateBlob(fmt.Sprintf("%s:%d", path, line), kind, data, spent)
		for _, t := range x.Texts {
			s.scanBlobText(u, path, t, line, col, kind, r)
		}
		for _, l := range x.Limits {
			r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: l})
		}
	}
}

// scanBlobText scans one text a blob inflated to.
func (s *Scanner) scanBlobText(u *diff.Unit, path string, t binText, line, col int, kind string, r *review.Result) {
	at := fmt.Sprintf("in %s data, base64-encoded at line %d column %d", kind, line, col)
	if t.Member {
		// t.Path is "path:line!member": reported under "path!member", at its own lines.
		t.Path = path + t.Path[strings.IndexByte(t.Path, '!'):]
		s.scanBinaryText(u, t, nil, r)
		return
	}
	if len(t.Text) > maxScanBytes {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets",
			Reason: fmt.Sprintf("%s:%d: %d bytes of inflated text exceed the %d-byte limit; not scanned", path, line, len(t.Text), maxScanBytes)})
		return
	}
	secs, err := s.Detector.Scan(path, t.Text, 1)
	if err != nil {
		r.NotRun = append(r.NotRun, review.NotRun{Component: "scanner:secrets", Reason: path + ": " + err.Error()})
		return
	}
	for _, sec := range secs {
		sec.Line, sec.EndLine = line, line
		s.reportAtColumn(u, path, at, col, sec, r)
	}
}
