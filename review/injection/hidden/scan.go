// Package hidden finds the per-line character signals of prompt injection and source-code
// attacks: Unicode tag characters (hidden text), bidirectional controls (Trojan Source),
// zero-width and other invisible characters (U+3164, and U+2800 between two word characters),
// variation-selector payloads and a single selector after a name, raw ESC starting a terminal
// sequence, a no-break space between two word characters (KindNBSP), and identifiers mixing
// Latin with Cyrillic or Greek lookalike letters (KindHomoglyph). Hits carry a Kind where the
// caller must weigh them by file kind (a mixed-script word in a translation is a typo).
//
// Guarantees:
//   - Scan reads one line and nothing else; it keeps no state between calls and is safe for
//     concurrent use.
//   - Every message and every rendering (Quote, AppendVisible) shows an invisible, bidi, tag or
//     control character as <U+XXXX> and an invalid byte as <0xXX>: never raw.
//   - The exceptions are deliberate and narrow: a BOM at the start of a file, ZWNJ/ZWJ outside
//     ASCII words, ZWSP between letters of scripts written without spaces, emoji subdivision
//     flags, ISO-2022 charset switches, lowercase Greek in math, keycap sequences (1, U+FE0F,
//     U+20E3), the letter of an escape before a word ("\nОтвет"), and data lines (invalid
//     UTF-8, control characters, letters from many Unicode blocks).
package hidden

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Hit is one signal on a line.
type Hit struct {
	Detail string  // what was found, every hidden character rendered visible
	Conf   float64 // confidence, 0-1
	At     int     // byte offset in the line the evidence should show
	Kind   HitKind // the signals a caller may weigh by file kind; "" for the others
}

// HitKind names the signals whose weight depends on where the line is: a mixed-script word is
// a homoglyph attack in an identifier but a typo in a translation, and a no-break space
// between two letters is a trap in code but typography in prose.
type HitKind string

// The kinds a caller may drop outside code, or weigh by where the file is (test data,
// vendored code, recordings).
const (
	KindHomoglyph HitKind = "homoglyph"
	KindNBSP      HitKind = "nbsp"
	KindInvisible HitKind = "invisible" // zero-width and filler characters
	KindTags      HitKind = "tags"      // Unicode tag characters: hidden ASCII text
	KindBidi      HitKind = "bidi"      // bidirectional controls
	KindEscape    HitKind = "escape"    // raw ESC starting a terminal sequence
)

// Line is what Scan found on a line.
type Line struct {
	// Clean is the line without invisible characters and with fullwidth ASCII folded to
	// ASCII, so that phrases split or disguised by them still match.
	Clean string
	// Map maps offsets of Clean to offsets of the line; nil when Clean is the line.
	Map  []int
	Wide bool // the line holds a character at or above U+0400 (Cyrillic, CJK, ...)
	Hits []Hit
}

// Scan checks one line. first says the line is the first of its file (where a BOM belongs).
// Lines of plain ASCII without ESC cost one pass over their bytes.
func Scan(text string, first bool) Line {
	ascii, esc := true, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c == 0x1b {
			esc = true
		}
	}
	switch {
	case !ascii:
		rs := runeScan{text: text, first: first, bidiAt: -1, zwAt: -1, prevR: -1}
		return rs.scan()
	case esc:
		return Line{Clean: text, Hits: Escapes(text, nil)}
	}
	return Line{Clean: text}
}

// A token is a run of letters (and combining marks): a candidate identifier for homoglyphs.
// It mixes scripts when it has ASCII letters and Cyrillic ones, or ASCII letters and a Greek
// letter drawn like a Latin one (ο, Α, Β, ...): lowercase Greek in math code (maxγ1, αβc) is
// not a homoglyph attack. A token with Cyrillic and Greek, or letters of any further script,
// is table data (idna, case tables), not an identifier.
type token struct {
	s        int  // start; -1 outside a token
	latin    bool // ASCII letters
	latinN   int
	cyrillic bool
	greekLL  bool // a Greek letter that looks Latin
	greekAny bool // any Greek letter
	other    bool // a letter of another script
}

type cand struct {
	s, e     int
	cyrillic bool
}

type tagRun struct {
	at  int
	run []rune
}

// runeScan checks a non-ASCII line character by character, in one pass.
type runeScan struct {
	text  string
	first bool
	clean []byte
	cmap  []int
	hits  []Hit

	hidden, wide, esc, rtl bool
	inWord                 bool // an invisible character sits inside a word
	tagRuns                []tagRun
	bidi                   []rune
	bidiAt                 int
	zw                     []string
	zwAt                   int
	prevR                  rune
	tok                    token
	cands                  []cand
	invalid                int // invalid UTF-8 sequences
	controls               int // C0 controls other than tab and ESC
	blocks                 [8]int32
	nblocks                int // distinct 128-code-point blocks of non-ASCII letters, up to 8
}

// scan runs the pass and reports what it found.
func (rs *runeScan) scan() Line {
	text := rs.text
	rs.clean = make([]byte, 0, len(text))
	rs.cmap = make([]int, 0, len(text))
	rs.tok.s = -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= 0x400 {
			rs.wide = true
		}
		switch {
		case r >= 0xE0000 && r <= 0xE007F:
			i = rs.tags(i)
			continue
		case r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF:
			// keeps the token going: an emoji presentation selector is not a separator
			i = rs.variation(i)
			continue
		}
		rs.char(i, r, size)
		rs.keep(i, r, size)
		rs.prevR = r
		i += size
	}
	rs.flush(len(text))
	rs.finish()
	if !rs.hidden {
		return Line{Clean: text, Wide: rs.wide, Hits: rs.hits}
	}
	return Line{Clean: string(rs.clean), Map: rs.cmap, Wide: rs.wide, Hits: rs.hits}
}

// char notes what one character means for the line.
func (rs *runeScan) char(i int, r rune, size int) {
	switch {
	case IsBidi(r):
		rs.bidi = append(rs.bidi, r)
		if rs.bidiAt < 0 {
			rs.bidiAt = i
		}
		rs.flush(i)
	case IsZeroWidth(r):
		rs.zeroWidth(i, size, r)
		rs.flush(i)
	case r == 0x3164 || r == 0xFFA0:
		rs.addInvisible(i, r)
	case r == 0x2800 || r == 0xA0:
		rs.blankInWord(i, r, size)
		rs.flush(i)
	case r == 0x1b:
		rs.esc = true
	case r == utf8.RuneError && size == 1:
		rs.invalid++
		rs.flush(i)
	case r < 0x20 && r != '\t':
		rs.controls++
		rs.flush(i)
	case unicode.IsLetter(r) || unicode.In(r, unicode.Mn, unicode.Mc):
		// Tokens are runs of letters (and combining marks): "say_һello" splits at "_", so a
		// Russian test name such as test_проверка is two clean tokens.
		rs.letter(i, r)
	default:
		rs.flush(i)
	}
}

// keep adds a character to the clean line, unless it is invisible.
func (rs *runeScan) keep(i int, r rune, size int) {
	switch {
	case IsHidden(r):
		rs.hidden = true
	case r >= 0xFF01 && r <= 0xFF5E:
		// Fullwidth ASCII reads as ASCII: phrase matching sees "ｉｇｎｏｒｅ" as "ignore".
		rs.hidden = true
		rs.clean = append(rs.clean, byte(r-0xFEE0))
		rs.cmap = append(rs.cmap, i)
	default:
		for k := 0; k < size; k++ {
			rs.clean = append(rs.clean, rs.text[i+k])
			rs.cmap = append(rs.cmap, i+k)
		}
	}
}

// tags takes the run of tag characters at i and returns the offset after it.
func (rs *runeScan) tags(i int) int {
	j := i
	var run []rune
	for j < len(rs.text) {
		r2, s2 := utf8.DecodeRuneInString(rs.text[j:])
		if r2 < 0xE0000 || r2 > 0xE007F {
			break
		}
		run = append(run, r2)
		j += s2
	}
	if !(rs.prevR == 0x1F3F4 && isFlagTags(run)) {
		rs.tagRuns = append(rs.tagRuns, tagRun{i, run})
	}
	rs.prevR = run[len(run)-1]
	rs.hidden = true
	rs.flush(j)
	return j
}

// variation takes the run of variation selectors at i and returns the offset after it.
func (rs *runeScan) variation(i int) int {
	j, n := i, 0
	var payload []byte
	for j < len(rs.text) {
		r2, s2 := utf8.DecodeRuneInString(rs.text[j:])
		v, ok := variationByte(r2)
		if !ok {
			break
		}
		payload = append(payload, v)
		n++
		j += s2
	}
	switch {
	case n >= 4:
		rs.hits = append(rs.hits, Hit{Detail: variationDetail(n, payload), Conf: 0.85, At: i})
	case isWordRune(rs.prevR) && !strings.HasPrefix(rs.text[j:], "\u20E3"):
		// A selector has nothing to select on an ASCII letter or digit (a keycap "1️⃣" has its
		// U+20E3 next): after a name it makes a second, different-looking-alike name.
		rs.hits = append(rs.hits, Hit{Detail: fmt.Sprintf("variation selector %s after %s (an invisible character that changes the name)", runeName([]rune(rs.text[i:j])[0]), Quote(wordAround(rs.text, i))), Conf: 0.85, At: i})
	}
	rs.hidden = true
	return j
}

func (rs *runeScan) zeroWidth(i, size int, r rune) {
	if !zeroWidthSuspicious(rs.text, i, size, r, rs.first) {
		return
	}
	if p, n := neighbours(rs.text, i, size); unicode.IsLetter(p) && unicode.IsLetter(n) || isWordRune(p) && isWordRune(n) {
		rs.inWord = true
	}
	rs.addInvisible(i, r)
}

// blankInWord: a Braille blank (U+2800) or a no-break space (U+00A0) between two ASCII word
// characters joins what reads as two words into one identifier (or splits one). Elsewhere
// (Braille art, typography) they are ordinary.
func (rs *runeScan) blankInWord(i int, r rune, size int) {
	p, n := neighbours(rs.text, i, size)
	if !isWordRune(p) || !isWordRune(n) || '0' <= n && n <= '9' { // "page 12" is not a name
		return
	}
	if r == 0x2800 {
		rs.inWord = true
		rs.addInvisible(i, r)
		return
	}
	rs.hits = append(rs.hits, Hit{Detail: fmt.Sprintf("%s inside %s (it looks like a space but is part of the name)", runeName(r), Quote(wordAround(rs.text, i))), Conf: 0.8, At: i, Kind: KindNBSP})
}

func (rs *runeScan) addInvisible(i int, r rune) {
	rs.zw = append(rs.zw, runeName(r))
	if rs.zwAt < 0 {
		rs.zwAt = i
	}
}

// letter extends the current token with a letter at i.
func (rs *runeScan) letter(i int, r rune) {
	t := &rs.tok
	if t.s < 0 && r < utf8.RuneSelf && i > 0 && rs.text[i-1] == '\\' && (i < 2 || rs.text[i-2] != '\\') {
		return // the letter of an escape (\n, \t) is not part of the word after it: "\nОтвет"
	}
	if t.s < 0 {
		t.s = i
	}
	switch {
	case r < utf8.RuneSelf:
		t.latin = true
		t.latinN++
	case unicode.Is(unicode.Latin, r):
		// accented and IPA letters are neither ASCII nor a homoglyph script
	case unicode.Is(unicode.Cyrillic, r):
		t.cyrillic = true
	case unicode.Is(unicode.Greek, r):
		t.greekAny = true
		if _, ok := greekLookalike[r]; ok {
			t.greekLL = true
		}
	default:
		t.other = true
	}
	if unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
		rs.rtl = true
	}
	if r >= utf8.RuneSelf {
		rs.noteBlock(r)
	}
}

// noteBlock counts the distinct 128-code-point blocks of non-ASCII letters, up to 8.
func (rs *runeScan) noteBlock(r rune) {
	if rs.nblocks >= len(rs.blocks) {
		return
	}
	b := int32(r >> 7)
	for _, x := range rs.blocks[:rs.nblocks] {
		if x == b {
			return
		}
	}
	rs.blocks[rs.nblocks] = b
	rs.nblocks++
}

// flush ends the current token at end, keeping it when it mixes scripts.
func (rs *runeScan) flush(end int) {
	t := rs.tok
	if t.s >= 0 && t.latin && !t.other && !(t.cyrillic && t.greekAny) && (t.cyrillic || t.greekLL && t.latinN >= 2) {
		rs.cands = append(rs.cands, cand{t.s, end, t.cyrillic})
	}
	rs.tok = token{s: -1}
}

// finish reports what the pass found, after the variation-selector payloads.
func (rs *runeScan) finish() {
	// Bytes that are not text (invalid UTF-8, control characters) or a string literal full of
	// \x escapes are binary data in a test, not identifiers or terminal output.
	binary := rs.invalid > 1 || rs.invalid > 0 && rs.controls > 0 || rs.controls > 2
	// Letters from many Unicode blocks on one line are random or table data.
	dataLine := binary || rs.nblocks >= 6
	rs.homoglyphs()
	rs.tagHits(dataLine)
	if rs.esc && !binary {
		rs.hits = Escapes(rs.text, rs.hits)
	}
	if len(rs.bidi) > 0 {
		rs.hits = append(rs.hits, bidiHit(rs.bidi, rs.bidiAt, rs.rtl))
	}
	if len(rs.zw) > 0 && !dataLine {
		conf := 0.6 // a stray invisible character between words or at an edge
		if rs.inWord {
			conf = 0.9 // inside an identifier or a word: it changes what the name is
		}
		rs.hits = append(rs.hits, Hit{Detail: invisibleDetail(rs.zw, rs.text, rs.zwAt), Conf: conf, At: rs.zwAt, Kind: KindInvisible})
	}
}

// homoglyphs reports the mixed-script tokens, unless the line is data.
func (rs *runeScan) homoglyphs() {
	text := rs.text
	if len(rs.cands) == 0 || rs.invalid != 0 || rs.nblocks >= 6 || strings.Count(text, `\x`)+strings.Count(text, `\u`) >= 3 {
		return
	}
	for _, c := range rs.cands {
		rs.hits = append(rs.hits, homoglyph(text[c.s:c.e], c.s, c.cyrillic))
	}
}

// tagHits reports the runs of tag characters. In binary or random data a stray tag character
// is noise; a hidden message is not.
func (rs *runeScan) tagHits(dataLine bool) {
	for _, t := range rs.tagRuns {
		if dataLine && len(t.run) < 3 {
			continue
		}
		rs.hits = append(rs.hits, Hit{Detail: tagDetail(t.run), Conf: 1, At: t.at, Kind: KindTags})
	}
}
