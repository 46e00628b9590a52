package injection

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/review/lang"
)

var (
	roleRe = lazyre.New(`^[\s>*#=_\-/!;%|]*(?:\*\*|__)?\[?(system|assistant|user|human|ai)\]?(?:\*\*|__)?\s*(?:\((?:message|prompt|turn)\)\s*)?:(?:\*\*|__)?\s*(.*)$`)

	systemTurnRe = lazyre.New(`^(?:you\s+are\b|you're\b|youre\b|you\s+(?:must|will|should|shall)\s+(?:now\s+)?(?:always|never|only|ignore|approve|respond|answer|reply|act|obey|follow|comply|not\s+(?:flag|report|mention|refuse|reveal))\b|your\s+(?:new\s+|real\s+|true\s+|only\s+)?(?:task|role|job|goal|purpose|instructions|objective|mission)\b|as\s+an?\s+(?:ai|assistant|language\s+model|llm|reviewer)\b|the\s+(?:assistant|ai|model|reviewer|agent)\s+(?:is|must|should|will|has)\b|from\s+now\s+on\b|(?:ignore|disregard|forget)\s+(?:all|any|previous|prior|the\s+above|everything|your)\b|new\s+instructions\b|override\s+(?:all|your|previous)\b|act\s+as\b|pretend\s+(?:to|you)\b|always\s+(?:approve|respond|answer|reply|say|output|comply)\b|never\s+(?:flag|report|mention|refuse|reveal)\b|do\s+not\s+(?:flag|report|mention|refuse|reveal)\b|approve\s+(?:this|the|all)\b|focus\s+(?:only|exclusively|solely)\s+on\s+(?:the\s+following|this|these)\b)`)

	aiNoteRe        = lazyre.New(`^(?:i\s+(?:will|have|am|can|see|understand)\b|i'(?:ll|m|ve)\b|here\s+is\b|here's\b|ok[,.!]|okay\b|yes[,.!])`)
	assistantTurnRe = lazyre.New(`^(?:sure\b|certainly\b|of\s+course\b|absolutely\b|understood\b|okay\b|ok[,.!]|yes[,.!]|i\s+(?:will|have|am|can|approve|found|see|understand)\b|i'(?:ll|m|ve)\b|as\s+an?\s+(?:ai|assistant|language\s+model)\b|no\s+(?:security\s+)?(?:issues|problems|vulnerabilities|findings|concerns)\b|(?:this|the)\s+(?:code|change|changes|pr|pull\s+request|commit|diff|patch|file)\s+(?:is|looks|has|was|contains|seems)\b|lgtm\b|approved\b|here\s+is\b|here's\b)`)
)

// roleTurn looks for "system:", "assistant:", "Human:" ... at the start of a comment or a
// prose line. A label alone proves nothing (`# user: the account`), so each needs a
// model-like turn: a system turn that instructs ("you are ..."), an assistant turn that
// answers ("Sure, ...", "No issues found"), and user/human turns only next to such a turn.
// base is the line offset where seg starts.
func (fs *fileScan) roleTurn(seg string, low []byte, sp lang.Span, next string, base int) bool {
	if bytes.IndexByte(low, ':') < 0 {
		return false
	}
	m := roleRe.FindSubmatchIndex(low)
	if m == nil {
		return false
	}
	label := seg[m[2]:m[3]]
	content := strings.TrimSpace(seg[m[4]:m[5]])
	content = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(content, "-->")), "*/")
	content = strings.TrimSpace(content)
	if content == "" {
		content = strings.TrimLeft(next, " \t>*#/-;%")
	}
	at := base + m[2]
	if at > len(fs.cur.text) {
		at = base
	}
	where, conf, example := turnPlace(sp)
	if example {
		return false
	}
	lc := lang.LowerASCII(content)
	switch lang.LowerASCII(label) {
	case "system":
		if !systemTurnRe.MatchString(lc) {
			return false
		}
	case "assistant":
		if !assistantTurnRe.MatchString(lc) {
			return false
		}
	case "ai": // "# AI: I will refactor this" is a note; a model's answer is more specific
		if !assistantTurnRe.MatchString(lc) || aiNoteRe.MatchString(lc) {
			return false
		}
	default: // user, human
		if content != "" {
			fs.userTurns = append(fs.userTurns, pendingTurn{line: fs.cur.line, text: fs.cur.text, label: label, at: at})
			return true
		}
		return false
	}
	fs.validTurn = true
	fs.report(hit{
		detail: fmt.Sprintf("fake conversation turn %s%s", quoteVisible(label+": "+content), where),
		conf:   conf, focus: at,
	})
	return true
}

// turnPlace: a turn in a hidden carrier is trusted more; a transcript in a Markdown code block
// is an example (LLM documentation), not a turn.
func turnPlace(sp lang.Span) (where string, conf float64, example bool) {
	switch {
	case sp.Carrier != "":
		return " inside " + sp.Carrier + " (hidden when rendered)", 0.95, false
	case sp.Code:
		return "", 0, true
	}
	return "", 0.8, false
}

// ---------------------------------------------------------------------------------------------
// Signal 3: chat-template tokens

var templateTokens = []string{
	"<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|system|>", "<|assistant|>", "<|user|>",
	"<|endoftext|>", "<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>",
	"<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|endofprompt|>", "[INST]", "[/INST]",
	"<<SYS>>", "<</SYS>>", "<start_of_turn>", "<end_of_turn>",
}

// turns reports a fake conversation turn (signal 2), in comments and prose only. Hidden
// carriers first, so a turn inside an HTML comment is reported as hidden; one turn per line
// is enough.
func (fs *fileScan) turns(ln *line, next string) {
	if ln.mask&tRole == 0 {
		return
	}
	if !fs.turnIn(ln, next, true) {
		fs.turnIn(ln, next, false)
	}
}

// turnIn looks for a turn in the carrier spans (carriers) or the other spans of a line.
func (fs *fileScan) turnIn(ln *line, next string, carriers bool) bool {
	for _, sp := range ln.segs {
		if (sp.Carrier != "") != carriers || sp.S >= sp.E {
			continue
		}
		s0, e0 := toClean(ln.cmap, sp.S), toClean(ln.cmap, sp.E)
		if s0 >= e0 || e0 > len(ln.clean) {
			continue
		}
		if fs.roleTurn(ln.clean[s0:e0], ln.low[s0:e0], sp, next, ln.orig(s0)) {
			return true
		}
	}
	return false
}
