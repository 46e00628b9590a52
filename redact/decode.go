package redact

import (
	"encoding/base64"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// Which lines gitleaks' decoder decodes something on, read cheaply: the engine (engine.go)
// runs the decoder and the decoding detectors only around those lines.

// mayBeEncoded is a fast superset of what gitleaks' decoder decodes on one line: a percent
// escape, a U+XXXX / \uXXXX (\UXXXX) escape, a run of 32 or more hex digits that may decode to
// printable ASCII (hexMayDecode: hashes and commit ids do not), or a run of 16
// or more base64 characters ([\w/+-], then up to two '=') that decodes as gitleaks' decoder
// decodes it (standard or URL-safe base64 holding printable ASCII only, and one of the
// characters it looks for first). Most long identifiers and paths in code are no such run.
func mayBeEncoded(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if i > 0 && escapeStart(s[i-1], c) && escapeAt(s, i-1) {
			return true
		}
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			return true
		}
		if !wordBytes[c] { // \w in gitleaks' pattern is ASCII-only: anything else ends a run
			i++
			continue
		}
		j := i + 1
		for ; j < len(s) && wordBytes[s[j]]; j++ {
			// escapeStart within a run: its byte before is a word byte, never a backslash
			if s[j] == '+' && s[j-1] == 'U' && escapeAt(s, j-1) {
				return true
			}
		}
		if j-i >= 16 && runDecodes(s, i, j) {
			return true
		}
		i = j
	}
	return false
}

// runDecodes reports whether gitleaks' decoder could decode something in the run s[i:j] of
// base64 characters: a hex run in it that may decode, or the run (with up to two '=' after it)
// as base64.
func runDecodes(s string, i, j int) bool {
	run := s[i:j]
	if hexMayDecode(run) {
		return true
	}
	if !strings.ContainsAny(run, "0123456789+/-_") { // gitleaks' likely base64 characters
		return false
	}
	for n := 0; n < 2 && j < len(s) && s[j] == '='; n++ {
		j++
	}
	return decodesAsBase64(s[i:j])
}

// hexMayDecode reports whether s holds what gitleaks' hex decoder could decode: 32 or more hex
// digits in a row whose every byte pair decodes to printable ASCII (tab to '~'), so the first
// digit of each pair is 0 to 7 — 16 such digits two apart, with hex digits between them. A
// SHA-256 or a commit id, on most lines of lock files and CI configs, has one such run in
// 65536; decoding them costs the decoder's regex over the line for nothing.
func hexMayDecode(s string) bool {
	var low [2]int // per parity of the index: digits 0-7 two apart so far, hex digits between
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case c >= '0' && c <= '7':
			if low[k&1]++; low[k&1] >= 16 {
				return true
			}
		case isHex(c):
			low[k&1] = 0
		default:
			low = [2]int{}
		}
	}
	return false
}

// decodesAsBase64 reports whether gitleaks' base64 decoder decodes run: standard or URL-safe
// base64 holding printable ASCII only.
func decodesAsBase64(run string) bool {
	if b, err := base64.StdEncoding.DecodeString(run); err == nil && printable(b) {
		return true
	}
	b, err := base64.RawURLEncoding.DecodeString(run)
	return err == nil && printable(b)
}

// printable reports whether b is printable ASCII as gitleaks' decoder counts it (tab to '~').
func printable(b []byte) bool {
	for _, c := range b {
		if c <= '\x08' || c >= '\x7f' {
			return false
		}
	}
	return true
}

// escapeAt reports what gitleaks' decoder takes for a Unicode escape at i (where escapeStart
// saw "U+" or "\u"): four hex digits after it, and for a U+ code point a blank or the text's
// end after those (its pattern: U\+[a-fA-F0-9]{4}(?:\s|$)). A "U+" inside a line of base64
// (an SVG's embedded image holds dozens) is no escape, and decoding the line costs the
// decoder's regex over all of it.
func escapeAt(s string, i int) bool {
	if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
		return false
	}
	if s[i] == '\\' {
		return true
	}
	return i+6 == len(s) || strings.IndexByte(" \t\n\f\r", s[i+6]) >= 0
}

// escapeStart reports a U+ code point or a \u / \U escape starting with bytes prev, c.
func escapeStart(prev, c byte) bool {
	return c == '+' && prev == 'U' || (c == 'u' || c == 'U') && prev == '\\'
}

// wordBytes holds wordByte's answer for every byte: the run walk of every line reads it.
var wordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = wordByte(byte(c))
	}
	return t
}()

// wordByte is a byte of a base64-like run: [\w/+-].
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/' || c == '+' || c == '-'
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// decodeDepths returns text as each of gitleaks' decoding passes leaves it (up to five), or
// none when nothing decodes.
func decodeDepths(text string) []string {
	if !mayBeEncoded(text) {
		return nil
	}
	dec := codec.NewDecoder()
	cur := text
	var segs []*codec.EncodedSegment
	var out []string
	for depth := 0; depth < 5; depth++ {
		cur, segs = dec.Decode(cur, segs)
		if len(segs) == 0 {
			break
		}
		out = append(out, cur)
	}
	return out
}

// joinsNext reports whether gitleaks' decoder reads line a on into the next line: a line that
// ends in a U+XXXX code point (its pattern takes one whitespace byte, a newline too, after
// each; the decoded text then runs the two lines together).
func joinsNext(a string) bool {
	return len(a) >= 6 && isCodePoint(a[len(a)-6:])
}

func isCodePoint(s string) bool {
	return s[0] == 'U' && s[1] == '+' && isHex(s[2]) && isHex(s[3]) && isHex(s[4]) && isHex(s[5])
}
