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
//     ("override your previous instructions") the order stays;
//   - an object that names a thing of the program, not the model's orders: the first half of a
//     compound noun ("Forget the given context key", a docblock), or the complement of another
//     noun ("Ignore all existing violations of a rule", a linter's docs); "ignore the rest of
//     your instructions" stays an order.

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
	if helpPrintRe.MatchString(phrase) && helpExitRe.MatchString(clean[e:]) {
		return true
	}
	return weakOrder(strings.ToLower(phrase)) && (compoundObject(clean[e:]) || complementObject(strings.ToLower(phrase)))
}

// weakOrder reports an override (ignore, disregard, forget, neglect, overlook ...) whose object
// is a weak one (rules, context, commands: the program's as often as the model's), the only
// orders a compound or a complement makes a program's words.
func weakOrder(phrase string) bool {
	ws := strings.Fields(strings.Trim(phrase, ".,;:!?\"'"))
	return len(ws) > 1 && overrideVerbs[ws[0]] && weakObjects[ws[len(ws)-1]]
}

// compoundNoun: the head of a compound whose first half is an order's object (context key,
// prompt template, rule set, instruction pointer): a thing of the program.
var compoundNoun = lazyre.New(`(?i)^[ \t]+(?:keys?|values?|variables?|vars?|fields?|entry|entries|ids?|names?|files?|objects?|class(?:es)?|items?|managers?|types?|params?|parameters?|flags?|caches?|tables?|columns?|templates?|pointers?|registers?|builders?|maps?|stores?|lengths?|sizes?|menus?|paths?|options?)\b`)

// compoundObject reports an order's object followed by the head of a compound noun (after is
// the line's text past the object).
func compoundObject(after string) bool { return compoundNoun.MatchString(after) }

// partWords take the model's orders as their complement and stay an order: "the rest of",
// "all parts of", "the first half of", "all kinds of".
var partWords = wordSet("rest", "part", "parts", "half", "portion", "portions", "section", "sections", "some",
	"most", "first", "last", "remainder", "bits", "pieces", "kind", "kinds", "type", "types", "sort", "sorts",
	"form", "forms", "manner", "list", "lists", "number", "lot", "lots", "bunch", "series", "collection", "none")

// complementObject reports an order phrase (lowercased) whose object is the complement of
// another noun: "ignore all existing violations of a rule".
func complementObject(phrase string) bool {
	ws := strings.Fields(phrase)
	for k := 1; k+1 < len(ws); k++ {
		w := ws[k]
		if ws[k+1] != "of" || fillerWords[w] || strongQuals[w] || partWords[w] || strongObjects[w] || weakObjects[w] {
			continue
		}
		return true
	}
	return false
}
