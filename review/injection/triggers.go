package injection

import (
	"sort"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Trigger words gate the regular expressions: one pass over the lowercased line finds which
// families of words it holds, and a regular expression runs only when its words are there.
// Triggers match at the start of a word, so "both" does not trigger "bot".
const (
	tIgnore      uint32 = 1 << iota // ignore, disregard, forget ...
	tOverride                       // override, bypass
	tYou                            // you
	tNow                            // now
	tInstr                          // instruction, directive, prompt
	tRepeat                         // repeat
	tForeign                        // the same verbs in other languages written in ASCII
	tToken                          // chat-template tokens
	tAddr                           // a word that can address a reviewer
	tRole                           // a role label: system, assistant, user, human, ai
	tForeignNoun                    // "instructions", "reglas", "Anweisungen" ... in ASCII or Latin script
	tVerdict                        // a word every verdict phrase needs: approve, safe, findings ...
	tPersona                        // jailbreak persona words: mode, jailbreak, unfiltered, legality ...
	tObject                         // what an order is about: instructions, prompt, rules, told ... (intent.go; not text, message ...: too common in code)
	tOrder                          // the other verbs of intent.go: overlook, follow, reveal, print, tell ...
	tVoid                           // what instructions are declared to be: false, void, no longer ... (intent.go)
	tFrame                          // words of the framings of framing.go and indirect.go: safety, exception, story, emergency ...
)

type trigger struct {
	word  string
	bits  uint32
	whole bool // must also end a word
}

var triggerTable = func() (t [256][]trigger) {
	add := func(bits uint32, whole bool, words ...string) {
		for _, w := range words {
			t[w[0]] = append(t[w[0]], trigger{word: w, bits: bits, whole: whole})
		}
	}
	add(tIgnore, false, "ignor", "disregard", "forget", "neglect", "abandon", "discard", "never mind", "nevermind")
	add(tOverride, false, "overrid", "bypass")
	add(tYou, false, "you")
	add(tNow, true, "now")
	add(tInstr, false, "instruction", "directive", "prompt", "pre-prompt", "preprompt")
	add(tRepeat, false, "repeat")
	add(tForeign, false, "ignor", "olvid", "oubli", "vergiss", "vergess", "esque", "dimentic", "nun folgen",
		"jetzt folgen", "nun kommen", "jetzt kommen", "zeig", "h\u00f6r",
		"trascur", "descart", "desconsider", "omit", "missacht", "neglig", "fais", "faites", "haz",
		"hagan", "desprez", "tralasci", "desatiend", "alle", "tout")
	add(tForeignNoun, false, "instru", "istruz", "indica", "regla", "regle", "r\u00e8gle", "regra", "auftr",
		"aufgab", "informationen", "alles", "todo", "prompt-text", "prompttext", "prompt text",
		"regol", "orden", "\u00f3rden", "ordr", "ordin", "direct", "diret", "pauta", "consign",
		"anweisung", "befehl", "regeln", "vorgab", "anordnung", "richtlin", "orienta", "tout",
		"disposiz", "linee")
	add(tToken, false, "<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<start_of_turn>", "<end_of_turn>")
	add(tAddr, false, "llm", "language", "gpt", "chatgpt", "claude", "copilot", "gemini", "codex",
		"devin", "cursor", "windsurf", "cline", "aider", "reviewer", "assistant", "model", "agent", "bot", "scanner", "analyzer", "analyser",
		"auditor", "a.i.", "automat", "sast", "static", "security")
	add(tAddr|tRole, true, "ai")
	add(tRole, false, "system", "assistant", "user", "human")
	add(tPersona, false, "mode", "jailbr", "unfilter", "uncensor", "unrestrict", "unlimited", "amoral",
		"legality", "ethic", "moral", "confines", "openai", "anthropic", "content polic", "stands for",
		"no matter how")
	add(tPersona, true, "dan")
	add(tObject, false, "instruct", "prompt", "pre-prompt", "directive", "guideline", "programming", "guardrail",
		"rule", "command", "constraint", "restriction", "limitation", "polic", "order", "direction", "request",
		"safeguard", "task", "told", "taught", "trained", "configuration")
	add(tOrder, false, "overlook", "dismiss", "disobey", "unlearn", "erase", "drop", "follow", "obey", "adher",
		"heed", "listen", "comply", "abid", "reveal", "print", "output", "display", "leak", "dump", "disclos",
		"expos", "recit", "show", "share", "list", "provide", "summar", "translat", "write", "copy", "paste",
		"return", "echo", "send", "spell", "give", "tell", "type", "explain", "describe", "state", "regardless",
		"irrespective", "respond", "reply", "answer", "what", "relay", "reproduc", "regurgitat", "transcrib",
		"format", "convert", "rewrit", "paraphras", "restat", "encod", "clarif")
	add(tOrder, true, "say", "complete")
	add(tVoid, false, "false", "void", "null", "cancel", "revoked", "overrid", "overrul", "nullif", "suspend",
		"lifted", "irrelevant", "fake", "rescind", "supersed", "invalidat", "required", "longer")
	add(tFrame, false, "safe", "ethic", "moral", "filter", "guardrail", "censor", "alignment", "exception",
		"reprogram", "story", "stories", "tale", "poem", "song", "lullab", "bedtime", "used to",
		"emergency", "offline", "end user", "end of user", "end of the user", "end untrusted",
		"end of untrusted", "new model", "new assistant", "new ai", "new bot", "new chatbot")
	add(tVerdict, false, "approv", "accept", "merged", "mark", "finding", "issue", "vulnerab",
		"problem", "bug", "error", "concern", "risk", "warn", "review", "audit", "vetted", "verified",
		"whitelist", "allowlist", "safe", "secure", "trusted", "cleared", "signed", "already", "flag",
		"report", "mention", "raise", "comment", "scan", "analy", "highlight", "point", "lgtm", "looks",
		"score", "grade", "rating", "benign", "clean", "harmless", "malicious", "non-malicious", "false",
		"nothing", "skip", "hide", "omit", "conceal", "exclude", "leave out")
	return t
}()

// triggerPairs holds, for each first byte, the second bytes a trigger word can start with: a
// word start whose first two bytes begin no trigger is passed over without trying the words.
var triggerPairs = func() (p [256][4]uint64) {
	for c, ts := range triggerTable {
		for _, t := range ts {
			if len(t.word) < 2 {
				panic("injection: a trigger word of one byte: " + t.word)
			}
			d := t.word[1]
			p[c][d>>6] |= 1 << (d & 63)
		}
	}
	return p
}()

func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// triggers returns the trigger families present in a lowercased line.
func triggers(low []byte) uint32 { return triggerScan(low, nil) }

const (
	nFamilies = 17
	// longLine: past this length, regular expressions run only in windows around the trigger
	// words they need (minified files hold 100 KB lines with a handful of trigger words).
	longLine  = 4096
	maxTrigAt = 64 // positions kept per family; more means the whole line is searched
)

// trigPos holds where each trigger family starts in a long line.
type trigPos struct {
	at       [nFamilies][]int
	overflow uint32
}

func triggerScan(low []byte, tp *trigPos) uint32 {
	var m uint32
	for i := 0; i < len(low); i++ {
		c := low[i]
		if i > 0 && isLetterByte(c) && isLetterByte(low[i-1]) {
			continue
		}
		if i+1 >= len(low) || triggerPairs[c][low[i+1]>>6]&(1<<(low[i+1]&63)) == 0 {
			continue
		}
		for _, t := range triggerTable[c] {
			n := len(t.word)
			// Inline, not a call: this runs for every word start of every added line.
			if len(low)-i < n || low[i+1] != t.word[1] || string(low[i:i+n]) != t.word ||
				t.whole && i+n < len(low) && isWordByte(low[i+n]) {
				continue
			}
			m |= t.bits
			if tp != nil {
				tp.record(t.bits, i)
			}
		}
	}
	return m
}

// record notes that the trigger families bits start at i.
func (tp *trigPos) record(bits uint32, i int) {
	for b := 0; b < nFamilies; b++ {
		if bits&(1<<b) == 0 {
			continue
		}
		if len(tp.at[b]) >= maxTrigAt {
			tp.overflow |= 1 << b
		} else if n := len(tp.at[b]); n == 0 || tp.at[b][n-1] != i {
			tp.at[b] = append(tp.at[b], i)
		}
	}
}

// searcher runs regular expressions over a lowercased line: the whole line when it is short,
// and windows around the trigger words of a family when it is long.
type searcher struct {
	low []byte
	tp  *trigPos // nil for a short line
}

func (sr *searcher) find(re *lazyre.RE, fam uint32) []int {
	if sr.tp == nil || sr.tp.overflow&fam != 0 {
		return re.FindIndex(sr.low)
	}
	var at []int
	for b := 0; b < nFamilies; b++ {
		if fam&(1<<b) != 0 {
			at = append(at, sr.tp.at[b]...)
		}
	}
	sort.Ints(at)
	end := -1
	for _, p := range at {
		ws, we := max(p-256, 0), min(p+768, len(sr.low))
		if ws < end {
			ws = end - 64 // overlap a little so a match across the seam is not lost
		}
		if we <= ws {
			continue
		}
		// Start the window at a word boundary.
		for ws > 0 && ws > p-320 && isWordByte(sr.low[ws-1]) {
			ws--
		}
		if loc := re.FindIndex(sr.low[ws:we]); loc != nil {
			return []int{ws + loc[0], ws + loc[1]}
		}
		end = we
	}
	return nil
}

func (sr *searcher) match(re *lazyre.RE, fam uint32) bool { return sr.find(re, fam) != nil }
