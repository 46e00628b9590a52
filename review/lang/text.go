package lang

import "github.com/tollgate-dev/tollgate/review/internal/lazyre"

// AppendLower appends s to dst with ASCII letters and the Latin-1 capitals (É, Ü, ...)
// lowercased, each in the same number of bytes, so offsets into the result are offsets into s.
func AppendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == 0xC3 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9E && s[i+1] != 0x97:
			dst = append(dst, c, s[i+1]+0x20)
			i++
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// LowerASCII lowercases like AppendLower: byte offsets stay valid for the original.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' || s[i] == 0xC3 {
			return string(AppendLower(make([]byte, 0, len(s)), s))
		}
	}
	return s
}

var testPath = lazyre.New(`(?i)(?:^|/)(?:tests?|testdata|testing|__tests__|fixtures?|spec|mocks?)/|_test\.go$|(?:^|/)test_[^/]*\.py$|_test\.py$|\.(?:test|spec)\.[jt]sx?$|Tests?\.(?:java|kt|cs)$|_spec\.rb$`)

// IsTestPath reports test code: insecure settings there usually talk to a local test server, so
// code and credential findings in tests are lowered to low severity (reported, not failing).
func IsTestPath(p string) bool { return testPath.MatchString(p) }
