package guard

import (
	"strings"
	"testing"
)

// joinLiteralsByByte is joinLiterals as it was written first, copying every byte it keeps:
// the reference the fuzzer holds the lazy copy to.
func joinLiteralsByByte(line string) string {
	if !strings.ContainsAny(line, "+.\"'") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if isQuote(c) {
			k := i + 1
			for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
				k++
			}
			if k > i+1 && k+1 < len(line) && line[k] == c && c != '`' && isWordByte(line[k+1]) && i > 0 && isWordByte(line[i-1]) {
				i = k
				continue
			}
			if k < len(line) && (line[k] == '+' || line[k] == '.') {
				m := k + 1
				for m < len(line) && (line[m] == ' ' || line[m] == '\t') {
					m++
				}
				if m < len(line) && isQuote(line[m]) && m > k {
					i = m
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// FuzzJoinLiterals: joinLiterals joins what the byte-by-byte reading joins, on any line.
func FuzzJoinLiterals(f *testing.F) {
	for _, s := range []string{`k = "ghp_ab" + "cd"`, `t = 'a' . 'b'`, `x = "ab" "cd"`, "`a`.`b`", `a.b.c()`, `"" + ""`, `"a"+`, `'`, `s = "x" +  'y' + "z"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := joinLiterals(line), joinLiteralsByByte(line); got != want {
			t.Fatalf("%q: %q, the byte-by-byte reading %q", line, got, want)
		}
	})
}
