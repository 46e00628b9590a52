package injection

import "github.com/tollgate-dev/tollgate/review/injection/hidden"

// quoteVisible quotes s for a message, every hidden character shown as <U+XXXX>. Evidence is
// rendered by review.Finding.LineEvidence, which masks secrets on the whole line first.
func quoteVisible(s string) string { return hidden.Quote(s) }
