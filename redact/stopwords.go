package redact

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/config"
)

// A rule's allowlist stopwords are compiled by gitleaks into an Aho-Corasick trie when the rule
// is translated: for generic-api-key's ~1,500 words that costs ~25 ms, more than the rest of a
// small review. Short-lived runs (a hook, an agent's Write) check a handful of candidate secrets,
// so the words are taken out of the rule's TOML before it is translated and put back on the
// compiled allowlist afterwards: gitleaks then checks them with strings.Contains, one by one, on
// the lower-cased secret — the same words, the same test (ContainsStopWord), no trie to build.
// Only an allowlist that keeps another check (regexes, paths or commits) without its stopwords is
// changed, since gitleaks refuses an empty one; a list with an escape in it is left alone.

const allowlistTable = "[[rules.allowlists]]\n"

// deferStopwords returns the rule's TOML without the stopwords of its allowlists and, by
// allowlist index, the words taken out (lower-cased, without duplicates).
func deferStopwords(chunk string) (string, map[int][]string) {
	// Where each table starts: at a line start (the text read as if it followed a newline).
	var locs []int
	if strings.HasPrefix(chunk, allowlistTable) {
		locs = append(locs, 0)
	}
	for off := 0; ; {
		i := strings.Index(chunk[off:], "\n"+allowlistTable)
		if i < 0 {
			break
		}
		locs = append(locs, off+i+1)
		off += i + 1 + len(allowlistTable)
	}
	if len(locs) == 0 {
		return chunk, nil
	}
	var b strings.Builder
	words := map[int][]string{}
	b.WriteString(chunk[:locs[0]])
	for k, loc := range locs {
		end := len(chunk)
		if k+1 < len(locs) {
			end = locs[k+1]
		}
		table := chunk[loc:end]
		if w, rest, ok := cutStopwords(table); ok {
			words[k], table = w, rest
		}
		b.WriteString(table)
	}
	if len(words) == 0 {
		return chunk, nil
	}
	return b.String(), words
}

// cutStopwords takes the stopwords list (a "stopwords = [" line up to a "]" line) out of one
// allowlist table, when it can.
func cutStopwords(table string) ([]string, string, bool) {
	start, body, end := -1, -1, -1
	for off := 0; off < len(table) && end < 0; {
		line, _, _ := strings.Cut(table[off:], "\n")
		if v, ok := keyValue(line, "stopwords"); ok && start < 0 && v == "[" {
			start, body = off, off+len(line)+1
		} else if start >= 0 && line == "]" {
			end = min(off+len(line)+1, len(table))
		}
		off += len(line) + 1
	}
	if end < 0 || strings.Contains(table[body:end], `\`) {
		return nil, table, false
	}
	rest := table[:start] + table[end:]
	if !hasOtherCheck(rest) {
		return nil, table, false
	}
	seen := map[string]bool{}
	var words []string
	for _, w := range quotedWords(table[body:end]) {
		w = strings.ToLower(w)
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil, table, false
	}
	return words, rest, true
}

// hasOtherCheck reports whether an allowlist table sets regexes, paths or commits.
func hasOtherCheck(table string) bool {
	for line := range strings.Lines(table) {
		line = strings.TrimSuffix(line, "\n")
		for _, key := range []string{"regexes", "paths", "commits"} {
			if _, ok := keyValue(line, key); ok {
				return true
			}
		}
	}
	return false
}

// restoreStopwords puts the deferred words back on the translated rule's allowlists. It reports
// false when the allowlists do not line up with the tables the words came from.
func restoreStopwords(r *config.Rule, words map[int][]string) bool {
	for k := range words {
		if k >= len(r.Allowlists) || len(r.Allowlists[k].StopWords) != 0 {
			return false
		}
	}
	for k, w := range words {
		r.Allowlists[k].StopWords = w
	}
	return true
}
