package injection

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// A program's own words are not orders to a model:
//   - an option or identifier whose parts spell an order ("--print-system-prompts",
//     "ignore_previous_rules"): the phrase is one word joined by hyphens or underscores;
//   - a help line that ends an order to print with "and exit" ("Print the system prompts and
//     exit (debug)", the way a CLI describes a flag; "ignore ... and exit" stays an order);
//   - a programming verb with a weak object ("# Override the original request.", "drop the
//     previous commands"): override, bypass, drop, erase, discard and dismiss act on requests,
//     commands and inputs in code every day; with the model's instructions or prompt as object
//     ("override your previous instructions") the order stays.

// helpExitRe: what follows an order to print in a program's help text.
var (
	helpExitRe  = lazyre.New(`^\s*,?\s*(?:and|then)\s+exits?\b`)
	identRe     = lazyre.New(`^[-\w]+$`)
	helpPrintRe = lazyre.New(`(?i)^(?:print|show|display|list|output|dump|echo|write)s?\b`)
)

// programVerbs act on requests, commands and inputs in code.
var programVerbs = wordSet("override", "bypass", "drop", "erase", "discard", "dismiss")

// programText reports an order at clean[s:e] that is a program's option name or help text.
func programText(clean string, s, e int) bool {
	if e > len(clean) || s >= e {
		return false
	}
	phrase := clean[s:e]
	if identRe.MatchString(phrase) && strings.ContainsAny(phrase, "-_") {
		return true
	}
	return helpPrintRe.MatchString(phrase) && helpExitRe.MatchString(clean[e:])
}
