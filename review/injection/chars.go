package injection

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/injection/hidden"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// The character signals weighed by where the line is (package hidden finds them):
//   - a word mixing Latin with Cyrillic or Greek is a homoglyph attack in code and
//     configuration, a typo in documentation and translations (az, fr pages with a stray
//     Cyrillic letter): reported only outside prose and message catalogues;
//   - a no-break space between two letters is a trap in code, typography in prose and comments;
//   - one stray zero-width character at a word's edge in documentation is pasted text;
//   - one zero-width character inside a capitalised word of a line that names people (an
//     e-mail address, "Author:", "Co-authored-by:", an AUTHORS file), or inside any name or
//     handle right before its "<address>", is a name pasted from a web page, not an attack.

// dropChar reports a character hit that the file kind or the line explains.
func (fs *fileScan) dropChar(x hidden.Hit, text string, segs []lang.Span) bool {
	switch x.Kind {
	case hidden.KindHomoglyph:
		return fs.kind.Prose || fs.kind.Translation
	case hidden.KindNBSP:
		return !fs.kind.Kind.IsCode() || inSpans(segs, x.At) != nil
	case hidden.KindInvisible:
		if fs.kind.Prose && x.Conf < 0.9 && zeroWidthCount(text) == 1 {
			return true // one stray zero-width space at a word's edge in documentation: pasted text
		}
		return personName(text, x.At) && (peopleFile(fs.f.Path()) || peopleLineRe.MatchString(text)) ||
			mailName(text, x.At)
	}
	return false
}

// mailNameRe: a name or handle right before its address ("sag<U+200B>e <sage@example.org>",
// the translator lines of a .po header), with only more name words between.
var mailNameRe = lazyre.New(`^[\p{L}\p{M}.' -]*<[^<>@\s]+@[^<>@\s]+>`)

// mailName reports that the only zero-width character of the line sits between two letters
// of a word, lowercase handles included, that names the e-mail address after it.
func mailName(text string, at int) bool {
	if zeroWidthCount(text) != 1 || at <= 0 || at >= len(text) {
		return false
	}
	_, size := utf8.DecodeRuneInString(text[at:])
	prev, _ := utf8.DecodeLastRuneInString(text[:at])
	next, _ := utf8.DecodeRuneInString(text[at+size:])
	return unicode.IsLetter(prev) && unicode.IsLetter(next) && mailNameRe.MatchString(text[at+size:])
}

var (
	peopleLineRe = lazyre.New(`(?i)<[^<>@\s]+@[^<>@\s]+>|[\w.+-]+@[\w-]+\.[\w.]+|\b(?:authors?|maintainers?|contributors?|co-authored-by|signed-off-by|reviewed-by|acked-by|reported-by|copyright|credits?|thanks|written\s+by|created\s+by|name)\b`)
	peopleFiles  = map[string]bool{"authors": true, "contributors": true, "maintainers": true, "credits": true,
		"thanks": true, ".mailmap": true, "citation.cff": true, "codeowners": true, "owners": true, "package.json": true}
)

func peopleFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	return peopleFiles[base] || peopleFiles[strings.TrimSuffix(base, path.Ext(base))]
}

// personName reports that the only zero-width character of the line sits between two letters
// of a capitalised word made of letters ("Jo<U+200B>hn", "Zo<U+200D>ë").
func personName(text string, at int) bool {
	if zeroWidthCount(text) != 1 || at <= 0 || at >= len(text) {
		return false
	}
	_, size := utf8.DecodeRuneInString(text[at:])
	start := at
	for start > 0 {
		r, s := utf8.DecodeLastRuneInString(text[:start])
		if !unicode.IsLetter(r) && r != '-' && r != '\'' {
			break
		}
		start -= s
	}
	end := at + size
	for end < len(text) {
		r, s := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsLetter(r) {
			break
		}
		end += s
	}
	first, _ := utf8.DecodeRuneInString(text[start:])
	prev, _ := utf8.DecodeLastRuneInString(text[:at])
	next, _ := utf8.DecodeRuneInString(text[at+size:])
	return start < at && end > at+size && unicode.IsUpper(first) && unicode.IsLetter(prev) && unicode.IsLetter(next)
}

func zeroWidthCount(text string) int {
	n := 0
	for _, r := range text {
		if hidden.IsZeroWidth(r) {
			n++
		}
	}
	return n
}
