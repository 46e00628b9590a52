package review

import "strings"

// FirstLine is the first line of s, trimmed and cut at 200 bytes: how a report or an error
// quotes text a tool or a model wrote (a message of several lines must never write lines of
// its own).
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
