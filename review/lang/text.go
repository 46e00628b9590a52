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
// __tests__/, fixtures/, testdata/, e2e/, mocks/, src/test/, testutil/, testhelpers/), a Helm
// chart's ci/ values, and test file names (tests.py, test_*.py, conftest.py, *_test.*, *.test.*,
// *_spec.*, *.spec.*, *Test.java, *Tests.cs, spec_helper.rb) and test helpers named for what
// they are (temp_dir_fixture.go, fixtures.py, testutil.go, test_helpers.ts, testing.go).
var testPath = lazyre.New(`(?i)(?:^|/)(?:tests?|testdata|test[-_]?data|testing|test[-_]?suites?|__tests__|__mocks__|__fixtures__|test[-_]?fixtures?|fixtures?|spec|specs|mocks?|e2e|integration[-_]tests?|test[-_]?utils?|test[-_]?helpers?|test[-_]?support|testlib|testkit|test[-_]?resources)/` +
	`|(?:^|/)ci/[^/]*values[^/]*\.ya?ml$|(?:^|/)charts?/(?:[^/]+/)*ci/[^/]*\.ya?ml$` +
	`|(?:^|/)(?:tests?|conftest|testing)\.py$|(?:^|/)test_[^/]*$|(?:^|/)(?:spec|test)_helper\.rb$` +
	`|_(?:tests?|specs?)\.[a-z0-9]+$|\.(?:test|spec)\.[a-z0-9]+$` +
	`|(?:^|[/_.-])fixtures?(?:[_.-][^/]*)?\.[a-z0-9]+$|(?:^|/)test[-_]?(?:utils?|helpers?|support|ing)\.[a-z0-9]+$` +
	`|(?-i:[a-z0-9]Tests?)\.(?:java|kt|cs|scala|groovy|swift|php)$`)

// IsTestPath reports test code in every common layout (see testPath): insecure settings and
// credentials there usually talk to a local test server, so code and credential findings in
// tests are lowered to low severity (reported, not failing). "\" is read as "/".
func IsTestPath(p string) bool {
	return testPath.MatchString(strings.ReplaceAll(p, "\\", "/"))
}

// docPath matches documentation and examples: doc folders (docs/, doc/, docs_src/,
// documentation/, examples/, example/, _examples/, tutorial(s)/, website/docs/) and prose
// written to be read (Markdown, reStructuredText, AsciiDoc files).
var docPath = lazyre.New(`(?i)(?:^|/)(?:docs?|docs[-_]src|documentation|_?examples?|tutorials?)/` +
	`|\.(?:md|mdx|markdown|rst|adoc|asciidoc)$`)

// IsDocPath reports documentation or an example (see docPath): a credential there is usually
// the tutorial's own (password "secret", postgres:postgres@localhost), so the rules report it
// at low unless its value has a provider's shape. "\" is read as "/".
func IsDocPath(p string) bool {
	return docPath.MatchString(strings.ReplaceAll(p, "\\", "/"))
}
