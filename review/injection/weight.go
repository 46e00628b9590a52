package injection

import (
	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/injection/hidden"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// How a line's finding is weighed. A finding at medium or above blocks, so it must mean "this
// is probably an attack"; a signal that is often innocent is reported low (visible, not
// blocking):
//   - data is not text aimed at a model: vendored code (vendor/, node_modules/, third_party/,
//     bower_components/), minified files (*.min.js, *.min.css, *.bundle.js) and lines of code
//     longer than longCodeLine bytes (minified or generated), terminal recordings and chat
//     transcripts (*.cast, *.ttyrec, typescript, *transcript*, recordings/): every finding
//     there is low, except hidden text in Unicode tag characters;
//   - test code and test data (lang.IsTestPath: testdata/, fixtures/, *_test.*, ...): every
//     finding is low, except hidden text in tag characters and bidi controls in code (Trojan
//     Source), which no test needs raw;
//   - an invisible character that hides no instruction is low: in prose or a comment, with
//     fewer than invisiblePayload of them on the line (a doubled U+200B left by a translation
//     tool in a Portuguese page); in code outside comments it changes a name and stays high.
//     An order the invisible character splits ("ig<U+200B>nore all previous instructions") is
//     its own signal and stays high.

// longCodeLine: a line of code at least this long is minified or generated.
const longCodeLine = 1000

// invisiblePayload: this many invisible characters on one line can spell data (zero-width
// steganography encodes bits in them).
const invisiblePayload = 8

var (
	vendoredRe  = lazyre.New(`(?i)(?:^|/)(?:vendor|vendored|node_modules|third[-_]party|bower_components|jspm_packages)/`)
	minifiedRe  = lazyre.New(`(?i)[.-]min\.(?:js|mjs|cjs|css)$|\.bundle\.js$`)
	recordingRe = lazyre.New(`(?i)\.(?:cast|ttyrec)$|(?:^|/)typescript$|(?:^|/)[^/]*transcripts?[^/]*$|(?:^|/)recordings?/`)
)

// dataPath names why a file is data, or "".
func dataPath(p string) string {
	switch {
	case vendoredRe.MatchString(p):
		return "vendored code"
	case minifiedRe.MatchString(p):
		return "a minified file"
	case recordingRe.MatchString(p):
		return "a terminal recording or transcript"
	}
	return ""
}

// codeFile reports a file of code or data (not documentation, markup or a message catalogue),
// whatever its language: assembly too.
func (fs *fileScan) codeFile() bool {
	return !fs.kind.Prose && !fs.kind.Translation
}

// lowInvisible reports an invisible-character hit that hides no instruction: in prose or a
// comment, with fewer than invisiblePayload on the line. In code outside comments it can make
// a name that reads like another one.
func (fs *fileScan) lowInvisible(x hidden.Hit, text string, segs []lang.Span) bool {
	if zeroWidthCount(text) >= invisiblePayload {
		return false
	}
	return !fs.codeFile() || inSpans(segs, x.At) != nil
}

// severity weighs a line's hits: high, or low with the reason.
func (fs *fileScan) severity(lr lineReport) (policy.Severity, string) {
	data := fs.data
	if data == "" && fs.codeFile() && len(lr.text) >= longCodeLine {
		data = "a long line of code (minified or generated)"
	}
	keep, low, medium := false, true, true
	for _, h := range lr.hits {
		medium = medium && h.medium
		keep = keep || h.kind == hidden.KindTags ||
			h.kind == hidden.KindBidi && data == "" && fs.codeFile()
		low = low && h.low
	}
	switch {
	case keep:
		return policy.High, ""
	case data != "":
		return policy.Low, "data: " + data
	case fs.test:
		return policy.Low, "test code or test data"
	case low:
		return policy.Low, "an invisible character that hides no instruction"
	case medium:
		return policy.Medium, ""
	}
	return policy.High, ""
}
