package lite

// Secret is one detected secret.
type Secret struct {
	RuleID      string
	Description string
	Line        int // 1-based line of the match start, in the numbering the caller gave
	EndLine     int
	StartColumn int    // 1-based byte column of the match's first byte on line Line
	EndColumn   int    // 1-based byte column of the match's last byte on line EndLine
	Value       string // the secret itself: never print it
	Match       string // the whole match: never print it
	LineText    string // the line(s) the match is on: never print it unmasked
	PathOnly    bool   // matched on the file name alone
}
