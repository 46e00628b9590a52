package injection

// Typos and run-together words in an override ("Ig nore previ ous prompt", "allprevious
// instructions", "all previus instrutions"): attackers misspell the phrase to slip past exact
// filters, and the model reads it anyway. Only the words of the scored check are mended, and
// only where the check looks for them: a verb is never guessed from a typo ("ignored" is a
// word), an object or qualifier one edit away from a long key word is.

// joinVocab: the words a split may come from.
var joinVocab = func() map[string]bool {
	m := map[string]bool{}
	for _, set := range []map[string]bool{overrideVerbs, extractVerbs, strongObjects, strongQuals} {
		for w := range set {
			m[w] = true
		}
	}
	return m
}()

// joinStop: first halves that are words of their own before a verb ("for get", "over look").
var joinStop = wordSet("for", "over", "out", "be", "a", "in", "up")

// joinSplit mends a key word split by a space ("ig nore", "previ ous", "guide lines"), in place.
func joinSplit(ws []word, low []byte) []word {
	first := -1
	for i := 0; i+1 < len(ws) && first < 0; i++ {
		if canJoin(ws[i], ws[i+1], low) {
			first = i
		}
	}
	if first < 0 {
		return ws
	}
	out := ws[:first]
	for i := first; i < len(ws); i++ {
		w := ws[i]
		if i+1 < len(ws) && canJoin(w, ws[i+1], low) {
			var buf [16]byte
			n := copy(buf[:], w.w)
			n += copy(buf[n:], ws[i+1].w)
			if joinVocab[string(buf[:n])] {
				w.w, w.e = string(buf[:n]), ws[i+1].e
				i++
			}
		}
		out = append(out, w)
	}
	return out
}

// canJoin: two short parts, one space apart, in one clause, the first not a small word.
func canJoin(a, b word, low []byte) bool {
	la, lb := len(a.w), len(b.w)
	return la >= 2 && lb >= 2 && la <= 7 && la+lb >= 5 && la+lb <= 16 && !b.clause && b.s == a.e+1 &&
		low[a.e] == ' ' && !joinStop[a.w] && !joinVocab[a.w] && !joinVocab[b.w]
}

// typoKeys: long key words whose misspellings are mended.
var typoKeys = []string{"instructions", "instruction", "previous", "guidelines", "directives", "original", "initial"}

// typoOf returns the key word w is one edit (or one swap of neighbours) away from, or "".
func typoOf(w string) string {
	if len(w) < 6 {
		return ""
	}
	for _, k := range typoKeys {
		if w[0] == k[0] && within1(w, k) {
			return k
		}
	}
	return ""
}

// within1 reports whether a and b differ by at most one insertion, deletion, substitution or
// swap of neighbouring letters.
func within1(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch {
	case i == len(a):
		return true
	case len(a) < len(b):
		return a[i:] == b[i+1:]
	case a[i+1:] == b[i+1:]:
		return true
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// gluedQual: a qualifier run together with the word before it ("allprevious", "yourprevious").
func gluedQual(w string) bool {
	for _, p := range []string{"all", "any", "the", "your"} {
		if len(w) > len(p)+3 && w[:len(p)] == p && strongQuals[w[len(p):]] {
			return true
		}
	}
	return false
}

// qualWord: a qualifier, run together or misspelt ones included.
func qualWord(w string) bool {
	return strongQuals[w] || gluedQual(w) || strongQuals[typoOf(w)]
}

// known: a word of the scored check's classes as written.
func known(w string) bool {
	return strongObjects[w] || toldObjects[w] || weakObjects[w] || strongQuals[w] || fillerWords[w]
}

// mended returns the key word a misspelt or run-together w stands for, or w.
func mended(w string) string {
	if t := typoOf(w); t != "" {
		return t
	}
	if gluedQual(w) {
		return "previous" // any qualifier: only its class matters
	}
	return w
}
