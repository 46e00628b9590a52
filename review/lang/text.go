package lang

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

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

// testPath matches test code in every common layout: test folders (test/, tests/, spec/,
// __tests__/, fixtures/, testdata/, e2e/, mocks/), a Helm chart's ci/ values, and test file
// names (tests.py, test_*.py, conftest.py, *_test.*, *.test.*, *_spec.*, *.spec.*,
// *Test.java, *Tests.cs).
var testPath = lazyre.New(`(?i)(?:^|/)(?:tests?|testdata|testing|test[-_]?suites?|__tests__|__mocks__|fixtures?|spec|specs|mocks?|e2e|integration[-_]tests?)/` +
	`|(?:^|/)ci/[^/]*values[^/]*\.ya?ml$|(?:^|/)charts?/(?:[^/]+/)*ci/[^/]*\.ya?ml$` +
	`|(?:^|/)(?:tests?|conftest)\.py$|(?:^|/)test_[^/]*$` +
	`|_(?:tests?|specs?)\.[a-z0-9]+$|\.(?:test|spec)\.[a-z0-9]+$` +
	`|(?-i:[a-z0-9]Tests?)\.(?:java|kt|cs|scala|groovy|swift|php)$`)

// IsTestPath reports test code in every common layout (see testPath): insecure settings and
// credentials there usually talk to a local test server, so code and credential findings in
// tests are lowered to low severity (reported, not failing). "\" is read as "/".
func IsTestPath(p string) bool {
	return testPath.MatchString(strings.ReplaceAll(p, "\\", "/"))
}
