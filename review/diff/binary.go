package diff

import "strings"

// binaryHead is how much of a file's start decides whether it is binary, as git reads it.
const binaryHead = 8000

// magics are the starts of files that are binary whatever bytes follow: PDF (and Illustrator
// files, which are PDF), PostScript, PNG, JPEG, GIF, ZIP (jar, docx, xlsx, apk), gzip, 7-Zip,
// ELF, WebAssembly and Java class files.
var magics = []string{"%PDF-", "%!PS-Adobe", "\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "GIF87a", "GIF89a",
	"PK\x03\x04", "\x1f\x8b\x08", "7z\xbc\xaf\x27\x1c", "\x7fELF", "\x00asm", "\xca\xfe\xba\xbe"}

// IsBinary decides whether a file is binary from the start of its content: a NUL in its first
// 8,000 bytes (git's test), a known magic number at its start, or a tenth or more of those
// bytes that are control characters other than tab, newline, carriage return, form feed and
// ESC. A 2 MB Illustrator file passes git's test and would otherwise reach the scanners as
// lines of text. It is the one decision for text read from a blob or a pushed object, and
// ParseDiff applies it to the new side of what git diffed as text.
func IsBinary(head string) bool {
	head = head[:min(len(head), binaryHead)]
	if strings.IndexByte(head, 0) >= 0 {
		return true
	}
	for _, m := range magics {
		if strings.HasPrefix(head, m) {
			return true
		}
	}
	return controlShare(head)
}

// controlShare reports a tenth or more of s made of control characters that text does not use.
func controlShare(s string) bool {
	if len(s) < 32 {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b || c == 0x7f {
			n++
		}
	}
	return n*10 >= len(s)
}

// binaryByContent applies IsBinary to the added lines of a file git diffed as text: its magic
// numbers only where the first hunk starts the file.
func binaryByContent(hunks []Hunk) bool {
	if len(hunks) == 0 {
		return false
	}
	var b strings.Builder
	for hi := range hunks {
		for _, l := range hunks[hi].Lines() {
			if l.Kind != Add {
				continue
			}
			b.WriteString(l.Text[:min(len(l.Text), binaryHead-b.Len())])
			if b.Len() >= binaryHead {
				return IsBinary(b.String())
			}
			b.WriteByte('\n')
		}
	}
	head := b.String()
	if hunks[0].NewStart > 1 {
		return controlShare(head)
	}
	return IsBinary(head)
}
