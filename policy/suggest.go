package policy

import "strings"

// Suggest returns the option closest to typed when it is a plausible typo (an edit distance of
// at most a third of its length, and at least 1; or typed is a prefix of exactly one option),
// "" otherwise. It serves flags, commands and config keys alike ("did you mean ...?").
func Suggest(typed string, options []string) string {
	best, bestD := "", 0
	var prefixed []string
	for _, o := range options {
		if strings.HasPrefix(o, typed) && typed != "" {
			prefixed = append(prefixed, o)
		}
		d := distance(strings.ToLower(typed), strings.ToLower(o))
		if best == "" || d < bestD {
			best, bestD = o, d
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	if best != "" && bestD > 0 && bestD <= max(1, len(best)/3) {
		return best
	}
	return ""
}

// distance is the Damerau-Levenshtein (optimal string alignment) distance of a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
