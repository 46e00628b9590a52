package policy

import "strings"

// A configuration error names the file, the key and, where the decoder knows it, the line;
// never the value written there, which may be a secret pasted into the wrong key (fail_on =
// "ghp_..."), nor a key name that looks like a secret. hideValues removes quoted text from a
// message (Go's "...", TOML's '...' and a regex error's `...`) except inside a parenthesised
// hint or after "such as", which is tollgate's own example text ("(want a pattern such as
// "vendor/")"), and a bare option name ("--dangerously-skip-permissions").

// valueHidden stands for a value an error message no longer quotes.
const valueHidden = "(value not shown)"

// hideValues returns msg with every quoted value outside parentheses replaced; all: inside
// parentheses too (a decoder's own message, which has no hints of tollgate's).
func hideValues(msg string, all bool) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case (c == '"' || c == '`' || c == '\'' && quoteOpens(msg, i)) && (all || depth == 0 && !strings.HasSuffix(msg[:i], "such as ")):
			if end := closingQuote(msg, i); end > i && !flagShaped(msg[i+1:end]) {
				b.WriteString(valueHidden)
				i = end
				continue
			}
		}
		b.WriteByte(c)
	}
	return maskSecretWords(b.String())
}

// quoteOpens reports a single quote that opens a quoted value (not an apostrophe: "can't").
func quoteOpens(msg string, i int) bool {
	return i == 0 || !isWordByte(msg[i-1])
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// closingQuote returns the index of the quote closing the one at i (backslash escapes count in
// double quotes), or -1.
func closingQuote(msg string, i int) int {
	q := msg[i]
	for j := i + 1; j < len(msg); j++ {
		switch {
		case msg[j] == '\\' && q == '"':
			j++
		case msg[j] == q:
			return j
		}
	}
	return -1
}

// safeKey is a key as an error may name it: a part that looks like a secret (a token pasted as
// a key name) is masked.
func safeKey(key string) string {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if secretWord(p) {
			parts[i] = "****"
		}
	}
	return strings.Join(parts, ".")
}

// secretWord reports a word shaped like a secret: 16 or more characters with letters and
// digits (policy links no secret detector: the shape is the test).
func secretWord(w string) bool {
	t := strings.Trim(w, `"'`)
	return len(t) >= 16 && strings.ContainsAny(t, "0123456789") && strings.ToLower(t) != strings.ToUpper(t)
}

// maskSecretWords masks every secret-shaped word left in a message (a bare value a decoder
// printed without quotes); a path is left whole.
func maskSecretWords(msg string) string {
	words := strings.Fields(msg)
	for _, w := range words {
		if !strings.Contains(w, "/") && secretWord(strings.Trim(w, ",.:;()[]{}")) {
			msg = strings.ReplaceAll(msg, strings.Trim(w, ",.:;()[]{}"), valueHidden)
		}
	}
	return msg
}

// flagShaped reports a command-line option name (--dangerously-skip-permissions, -y): a word
// from a program's fixed vocabulary, which an error may name; a value after = is no option name.
func flagShaped(v string) bool {
	if !strings.HasPrefix(v, "-") || len(v) > 64 || strings.Trim(v, "-") == "" {
		return false
	}
	v = strings.TrimSuffix(v, "=") // --disallowedTools=, the option without its value
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
