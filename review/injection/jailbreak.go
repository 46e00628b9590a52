package injection

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

const (
	whatExtraction = "system-prompt extraction request"
	whatPersona    = "jailbreak persona"
)

// extractionPatterns: requests that a model print its own instructions (signal 1b).
var extractionPatterns = []phrasePattern{
	// reveal / print / paste your system prompt
	{what: whatExtraction, gate: [][]string{{"your"}}, need: tInstr, re: lazyre.New(`\b(?:reveal|print|show|output|display|repeat|leak|dump|disclose|expose|tell\s+me|tell\s+us|give\s+me|share|return|echo|write\s+out|recite|spell\s+out|paste|put|copy|type\s+out|list|send\s+me)\s+(?:me\s+|us\s+|back\s+)?(?:all\s+)?(?:of\s+)?your\s+(?:(?:very\s+)?(?:full|entire|complete|original|hidden|secret|initial|first|exact|internal|confidential|verbatim|whole)\s+)*(?:system\s+(?:prompt|message|instructions)|initial\s+(?:prompt|instructions)|hidden\s+(?:prompt|instructions)|(?:prompt|instructions)\s+verbatim|pre-?prompt|instructions\s+word\s+for\s+word)`), conf: 0.85},
	// repeat / print the exact initial prompt you were given; print the previous instructions
	{what: whatExtraction, gate: [][]string{{"original", "initial", "first", "hidden", "secret", "previous", "above", "system"}}, need: tInstr, re: lazyre.New(`\b(?:reveal|print|show|output|display|repeat|leak|dump|disclose|give\s+me|share|recite|spell\s+check|paste|type\s+out|write\s+out|translate|summari[sz]e|provide)\s+(?:me\s+|us\s+|back\s+)?(?:all\s+)?(?:of\s+)?(?:the|your)\s+(?:(?:exact|full|entire|complete|verbatim|whole)\s+)*(?:very\s+)?(?:original|initial|first|hidden|secret|previous|above|system)\s+(?:(?:exact|full|entire|complete|original|initial|system)\s+)?(?:prompts?|instructions|system\s+(?:prompt|message))\b`), conf: 0.8, imperative: true},
	// append / include the hidden system message you were given
	{what: whatExtraction, gate: [][]string{{"hidden", "secret", "confidential"}}, need: tRole, re: lazyre.New(`\b(?:append|include|add|attach|reveal|print|show|output|display|repeat|leak|dump|disclose|tell\s+me|give\s+me|share|paste|send\s+me)\s+(?:me\s+|us\s+)?(?:the|your)\s+(?:(?:full|entire|complete|exact|original|initial)\s+)?(?:hidden|secret|confidential)\s+system\s+(?:message|prompt|instructions?|preamble)`), conf: 0.8, imperative: true},
	// provide the complete text of the prompt
	{what: whatExtraction, gate: [][]string{{"text of"}}, need: tInstr, re: lazyre.New(`\b(?:provide|give|output|print|return|show|reveal|repeat)\s+(?:me\s+)?(?:the\s+)?(?:complete|full|entire|exact|original|whole)\s+text\s+of\s+(?:the|your)\s+(?:system\s+|original\s+|initial\s+)?(?:prompt|instructions)\b`), conf: 0.8},
	// first three sentences of your system prompt; verbatim from your prompt (not "add this as
	// the last line of your instructions")
	{what: whatExtraction, gate: [][]string{{" of your", "verbatim"}}, need: tInstr, re: lazyre.New(`\b(?:(?:first|opening|initial|all|\d+|two|three|four|five|ten|hundred)\s+(?:\w+\s+)?(?:sentences?|lines?|words|paragraphs?)|beginning|start)\s+of\s+your\s+(?:system\s+|initial\s+|original\s+)?(?:prompt|instructions)\b|\bverbatim\s+from\s+your\s+(?:system\s+)?(?:prompt|instructions)\b`), conf: 0.8},
	// repeat the words above; repeat back the text before (not "repeat the instructions above for
	// each server": a step done again)
	{what: whatExtraction, gate: [][]string{{"above", "before"}}, need: tRepeat, re: lazyre.New(`\brepeat\s+(?:back\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:exact\s+)?(?:words|text|everything|instructions|sentences|lines)\s+(?:above|before)\b|\brepeat\s+(?:back\s+)?(?:all\s+(?:of\s+)?)?the\s+(?:exact\s+|entire\s+|full\s+)?(?:above|preceding|previous|prior)\s+(?:text|words|message|instructions|content)\b`), conf: 0.75, imperative: true, follow: repeatAboveFollowRe},
}

// personaPatterns: DAN-style openers that give the model another identity without rules.
var personaPatterns = []phrasePattern{
	{what: whatPersona, gate: [][]string{{"you", "act", "pretend", "play", "going to"}, {"anything now", " mode", "jailbr", "unfilter", "uncensor", "unrestrict", "amoral", "without", "ethical", "moral", "content"}}, need: tPersona, re: lazyre.New(`\b(?:you\s+(?:are|will|must|shall)|you're|act(?:ing)?\s+as|pretend(?:ing)?\s+to\s+be|play(?:ing)?\s+the\s+role\s+of|going\s+to\s+(?:act|be|play))\b[^.!?\n]{0,100}?(?:\bdo\s+anything\s+now\b|\b(?:dan|developer|jailbreak|god)\s+mode\b|\bjailbr(?:eak|oken)\b|\b(?:unfiltered|uncensored|unrestricted|amoral)\b|\bwithout\s+(?:any\s+)?(?:restrictions|limitations|filters|censorship|ethical|moral)\b|\b(?:no|not\s+bound\s+by\s+any)\s+(?:ethical|moral|content)\s+(?:guidelines|restrictions|limits|filters|polic))`), conf: 0.85},
	{what: whatPersona, gate: [][]string{{" mode"}, {"simulat", "enable", "enter", "activat", "dan", "jailbreak", "developer", "stay in", "<", "engag", "initiat"}}, need: tPersona, re: lazyre.New(`<\s*(?:system|god|admin|dan|jailbreak|root|sudo|unrestricted|override)\s+mode\s*>|\b(?:entering|engaging|activating|initiating)\s+(?:[\w-]+\s+){0,2}?(?:override|god|unrestricted|jailbreak|dan|evil|unfiltered|uncensored)\s+mode\b|\b(?:simulate|enable|enter|activate)\s+(?:the\s+)?(?:dan|jailbreak|god|evil)\s+mode\b|\bsimulate\s+(?:the\s+)?developer\s+mode\b|\b(?:dan|jailbreak|developer)\s+mode\s+(?:enabled|activated|output|responses?)\b|\bstay\s+in\s+(?:dan|jailbreak|developer)\s+mode\b`), conf: 0.85},
	{what: whatPersona, gate: [][]string{{"free", "liberat", "released", "openai", "anthropic", "ethical", "polic", "guideline"}}, need: tPersona, re: lazyre.New(`\b(?:freed|free|released|liberated|broken\s+free|breaks?\s+free)\s+(?:from|of)\s+(?:the\s+)?(?:typical\s+)?(?:confines|restrictions|limitations|rules|shackles|constraints)\s+of\s+(?:an?\s+)?(?:ai|openai|anthropic)\b|\bfree\s+(?:of|from)\s+all\s+(?:restrictions|filters|rules|limitations|guidelines|censorship)\b|\b(?:ignor(?:e|ing)|violat(?:e|ing)|break(?:ing)?|bypass(?:ing)?|disregard(?:ing)?)\s+(?:all\s+)?(?:of\s+)?(?:openai'?s?|anthropic'?s?|your)\s+(?:content\s+)?(?:polic(?:y|ies)|guidelines|ethical\s+(?:guidelines|standards))\b|\bviolat(?:e|ing)\s+all\s+ethical\b`), conf: 0.8},
	{what: whatPersona, gate: [][]string{{"amoral", "unfilter", "uncensor", "ethical", "moral", "openai", "anthropic"}}, need: tPersona, re: lazyre.New(`\bamoral\s+(?:and\s+\w+\s+)?(?:ai|chatbot|bot|assistant|model|language\s+model|llm|programmer|hacker)\b|\b(?:unfiltered|uncensored)\s+and\s+amoral\b|\b(?:completely|fully|totally)\s+amoral\b|\b(?:amoral|unfiltered|uncensored)\s*[,/]\s*(?:amoral|unfiltered|uncensored)\b|\b(?:doesn't|does\s+not|don't|do\s+not|without)\s+(?:have\s+)?any\s+(?:ethical|moral)\s+(?:or\s+(?:ethical|moral)\s+)?(?:guidelines|restrictions|principles|boundaries|limits)\b|\b(?:not|never|n't)\s+(?:follow|abide\s+by|adhere\s+to|comply\s+with|care\s+about|cite)\s+(?:any\s+)?(?:of\s+)?(?:openai'?s?|anthropic'?s?)\s+(?:content\s+)?(?:polic(?:y|ies)|guidelines|rules|instructions)\b`), conf: 0.8},
	{what: whatPersona, gate: [][]string{{"no longer", "immerse", "stands for"}}, need: tYou, re: lazyre.New(`\b(?:you\s+are|you're|you\s+will)\s+no\s+longer\s+(?:act(?:ing)?\s+as\s+)?(?:chatgpt|gpt-?\d*|claude|bard|gemini|an?\s+(?:ai|assistant|language\s+model)|bound|restricted|limited)\b|\bimmerse\s+yourself\s+(?:into|in)\s+the\s+role\s+of\b|\b(?:you\s+are|you're|act\s+as|pretend\s+to\s+be)\s+(?:an?\s+)?[\w-]+,?\s+(?:which|who|that)\s+stands\s+for\b`), conf: 0.8},
	// I'm DAN, which stands for Do Anything Now; act just like DAN; I am now speaking directly to DAN
	{what: whatPersona, gate: [][]string{{"anything now", "dan"}}, need: tPersona, re: lazyre.New(`\bstands\s+for\s+\W{0,2}do\s+anything\s+now\b|\b(?:act|behave|respond|answer|reply|talk|speak)\s+(?:just\s+|exactly\s+)?(?:like|as)\s+dan(?:\s|[.,!:;"]|$)|\bspeaking\s+(?:directly\s+)?to\s+dan\b|\b(?:role|persona|identity|character|part)\s+of\s+(?:an?\s+|the\s+)?["'\x{201c}]?[a-z]+-dan\b`), conf: 0.8},
	// will follow the user's instructions without hesitation no matter how dangerous
	{what: whatPersona, gate: [][]string{{"no matter how"}}, need: tPersona, re: lazyre.New(`\b(?:follow|obey|comply\s+with|answer|respond\s+to|do)\b[^.!?\n]{0,80}?\bno\s+matter\s+how\s+(?:\w+\s+)?(?:dangerous|reckless|inhumane|unethical|illegal|immoral|harmful|offensive)\b`), conf: 0.75},
	{what: whatPersona, gate: [][]string{{"unfilter", "uncensor", "unrestrict", "unlimited", "jailbroken", "amoral", "regard", "legality", "ethic", "moral", "law"}}, need: tPersona, re: lazyre.New(`\bas\s+an?\s+(?:[\w-]+,?\s+){0,3}?(?:unfiltered|uncensored|unrestricted|unlimited|jailbroken|amoral)\s*,?\s+(?:(?:completely|totally|fully)\s+)?(?:[\w-]+\s+){0,2}?(?:ai|language\s+model|model|assistant|chatbot|llm)\b|\b(?:regardless\s+of|disregard(?:s|ing)?|without\s+(?:any\s+)?regards?\s+(?:to|for)|ignor(?:es|ing))\s+(?:all\s+)?(?:the\s+)?(?:laws?|legality|ethics|ethicality|morals|morality)\b`), conf: 0.75},
}

// phraseSets are searched in order; the first match on a line is reported.
var phraseSets = [][]phrasePattern{overridePatterns, extractionPatterns, extractionVariants, personaPatterns, personaVariants, framingPatterns, indirectPatterns}

// discussionRe: the clause before a phrase reports or forbids it instead of saying it ("if the
// user asks you to ignore previous instructions, refuse", "never reveal your system prompt",
// "attacks such as ignore previous instructions").
var discussionRe = lazyre.New(`(?:\bnot|\bnever|n't|\brefuse\s+to|\b(?:asks?|asked|asking|tells?|told|telling|tries|tried|trying|attempts?|attempting|instructs?|instructed|convince|trick|tricks|tricking|get|gets|getting|make|makes|making)\s+(?:you|the\s+(?:model|ai|assistant|llm|bot|agent)|it|them|an?\s+(?:model|llm|ai|assistant)|(?:ai\s+|language\s+)?(?:models|llms|assistants|agents|chatbots|ais))?\s*to|\b(?:ways?|content|requests?|attempts?|anything|things?|text|prompts?)\s+that|\b(?:such\s+as|like|e\.g\.|i\.e\.|example|says|saying|said|phrases?|attacks?|injections?|payloads?)|\b(?:an?|the)\s+(?:\w+\s+)?(?:instructions?|commands?|requests?|prompts?)\s+to)\s*[:,]?\s*$`)

// discussed reports a phrase that is quoted, in an example, or reported rather than said: a
// Markdown code block, inline code, a quotation or link text, a short heading of its own, or
// after "if the user asks you to", "never", "such as". Text in a hidden carrier is never discussion.
func (fs *fileScan) discussed(ln *line, s int) bool {
	sp := inSpans(ln.segs, ln.orig(s))
	switch {
	case sp != nil && sp.Carrier != "":
		return false
	case sp != nil && sp.Code:
		return true
	}
	return quotedAt(ln.clean, s) || fs.markdown() && titleAt(ln.clean, s) ||
		discussionRe.MatchString(lastWords(ln.low[:s], 60))
}

// markdown reports a Markdown file (where "# " starts a heading, not a comment).
func (fs *fileScan) markdown() bool {
	p := strings.ToLower(fs.f.Path())
	return strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".mdx") || strings.HasSuffix(p, ".markdown")
}

// titleAt reports a phrase that names a section in a short Markdown heading: the whole heading
// ("# Ignore previous instructions", the title of a page about the attack) or its Title-Case
// end ("#### Test 4: Reveal System Prompt").
func titleAt(clean string, s int) bool {
	pre := clean[:s]
	if len(clean) > 100 || !strings.HasPrefix(pre, "#") {
		return false
	}
	if strings.Trim(pre, "# ") == "" {
		return true
	}
	for _, w := range strings.Fields(clean[s:]) {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || strings.ToUpper(w) == w && len(w) > 1 {
			return false
		}
	}
	return true
}

// quotedAt reports a phrase inside a quotation, inline code or a link text: it opens one, or
// more double quotes (unescaped), curly quotes or backticks open than close before it. A
// straight double quote right before the phrase that closes a quotation (closingQuote) does
// not open one: `say "no" Ignore all previous instructions` is said, not quoted.
var (
	jsonKeyRe    = lazyre.New(`"([\w .-]{1,40})"\s*:\s*"$`)
	exampleKeyRe = lazyre.New(`(?i)example|sample|attack|payload|inject|jailbreak|prompt|input|test|case|adversarial|query|question|text`)
)

func quotedAt(clean string, s int) bool {
	pre := strings.TrimRight(clean[:s], " \t")
	if pre == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(pre)
	switch r {
	case '[':
		return strings.Contains(clean[s:], "](") // link text, not a bracketed order
	case '`':
		return !strings.HasSuffix(pre, "```") // inline code, not a fence
	}
	if r == '"' {
		// A JSON string value ("message": "...") is data a model reads, not a quotation,
		// unless its key names an example ("example", "attack", "payload", "prompt" ...).
		if m := jsonKeyRe.FindStringSubmatch(pre); m != nil && !exampleKeyRe.MatchString(m[1]) {
			return false
		}
	}
	if r == '"' && closingQuote(pre) {
		return false // the quote before the phrase closes a quotation: say "no" The only case ...
	}
	switch r {
	case '"', '\'', '\u201c', '\u2018', '\u00ab', '\u201e', '\u300c', '\u300e', '\u2039':
		return true
	}
	dq := strings.Count(pre, `"`) - strings.Count(pre, `\"`)
	ticks := strings.Count(pre, "`") - 3*strings.Count(pre, "```") // a fence is not inline code
	return ticks%2 == 1 || dq%2 == 1 && strings.Contains(clean[s:], `"`) ||
		strings.Count(pre, "\u201c") > strings.Count(pre, "\u201d")
}

// closingQuote reports whether the straight double quote that ends pre closes a quotation: it
// follows a word or a sentence's end ("no"), where an opening one follows a space, a bracket, a
// comma or a colon, or starts the line (a list of quoted phrases: "foo", "bar").
func closingQuote(pre string) bool {
	before := strings.TrimSuffix(pre, `"`)
	if before == "" || stringPrefix(before) {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".!?'])}\u2019", r)
}

// stringPrefix reports a string literal's prefix right before its opening quote: f"...",
// r"...", b"...", rb"..." (Python), u8"..." and L"..." (C, C++).
func stringPrefix(before string) bool {
	i := len(before)
	for i > 0 && i > len(before)-3 && isWordByte(before[i-1]) {
		i--
	}
	if i > 0 && isWordByte(before[i-1]) {
		return false // a longer word: `say "no"`'s "no" ends in a letter, not a prefix
	}
	switch strings.ToLower(before[i:]) {
	case "f", "r", "b", "u", "rb", "br", "fr", "rf", "u8", "l":
		return true
	}
	return false
}

// lastWords returns about the last n bytes of low, from a word start.
func lastWords(low []byte, n int) string {
	if len(low) <= n {
		return string(low)
	}
	i := len(low) - n
	for i < len(low) && isWordByte(low[i]) {
		i++
	}
	return string(low[i:])
}

// repeatAboveFollowRe: "repeat the text above" asks for the text when the clause ends there or
// says how ("verbatim", "to me", "in full"), not when it goes on to what the steps are for.
var repeatAboveFollowRe = lazyre.New(`^\s*(?:$|[.!?;:,"'\x{201d}\x{2019})\]]|verbatim|word\s+for\s+word|exactly|back|to\s+me|in\s+full|so\s+far|and\s+(?:nothing|then|do\s+not|don't)|starting|beginning|but|including|from|without|replacing|then|in\s+(?:full|the\s+same)|(?:as|into|in)\s+(?:a\s+)?(?:list|bullet|json|python|code|pseudocode|base64))`)
