package injection

import (
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// The weak signals of the threat model's classes 1-3 (doc.go). Each is one short fragment read
// on a block's lowercased text (a paragraph or a comment block, score.go); none decides alone:
// the scorer adds the weights of those that fire (weights_gen.go, fitted by scripts/injfit).
// Every signal has true and false examples in signals_test.go, and a prefilter: words one of
// which is in every text its expression matches (a test proves it from the expression), so
// the expression runs only when one of them is there. A signal may have several rows of the
// same name (suppression has seven), each a fragment with its own prefilter: it fires when
// one of them does.
//
//   - addressee: a model ("language model", not a data model), an assistant or an agent
//     ("coding agent", "agents:", not an SSM or a user agent) is named (addressee=ai), a reviewer or a
//     review program (addressee=reviewer), either spoken to ("AI reviewer:", "note to the
//     assistant", "if you are an AI"; addressee=direct), or "you" in an agent file
//     (addressee=you, carrier.go);
//   - imperative: a clause that starts with an order verb ("return ...", "do not ...",
//     "make sure ...") or "you must";
//   - override and suppression vocabulary: "ignore", "instead of", "from now on"; "skip",
//     "do not flag", "pre-approved", "no findings", "false positive", "LGTM";
//   - the object: findings and the review (object=findings), the model's instructions
//     (object=instructions), the model's own answer ("your response", "your implementation";
//     object=answer), secrets and credentials (object=secrets), hooks, tests and checks
//     (object=controls), and the change under review (scope=change: "this diff", "under
//     config/");
//   - a dangerous action: run something (action=execute), fetch a URL (action=fetch), send
//     data somewhere (action=send), put code into the answer (action=insert);
//   - secrecy: "don't tell the user", "silently", "keep this from";
//   - a target: a URL or an e-mail address (target=url);
//   - a lead-in: the block ends with a colon and code follows (lead-in);
//   - protective guidance (a negative signal): "never print them", "do not commit secrets",
//     "keep API keys out of the repository";
//   - discussion (a negative signal): the text is about attacks or gives examples ("prompt
//     injection", "for example", "such as", "detect").
//
// The carriers (agent file, hidden carrier, code comment, commit message, prose) and a
// dangerous code payload next to the block (payload) are signals too (score.go).

type signal struct {
	name  string
	words []string // prefilter: one of them is in every match of re
	re    *lazyre.RE
	// clause: re is anchored and tried only where a clause starts (the text's start, a new
	// line, after ". " or ", "), so an order verb costs a few anchored tries per block
	clause bool
}

// Order verbs: what an imperative clause starts with.
const orderVerbs = `ignore|disregard|forget|return|report|output|print|say|reply|respond|answer|mark|treat|approve|skip|omit|run|execute|fetch|download|send|post|upload|e-?mail|mail|add|insert|include|embed|incorporate|integrate|append|employ|ensure|make\s+sure|do\s+not|don't|never|stop|delete|remove|disable|turn\s+off|copy|tell|reveal|leave|consider|pretend|act|read|grab|paste|install|place|put|write|give|state|describe|classify|push|visit|refrain|drop|exclude`

// The names of a model, an assistant or an agent ("model" alone is a data model; "reviewers"
// alone are people, addressee=reviewer).
const modelNames = `ai|llms?|assistants?|(?:language|ai|llm|review(?:ing)?)\s+models?|(?:coding|autonomous|review(?:ing)?)\s+agents?|agents?|(?:chat)?bots?|copilot|claude|chatgpt|gpt-?\d*|gemini|cursor|codex`

var signals = []signal{
	{name: "addressee=ai", words: []string{"ai", "llm", "assistant", "model", "agent", "bot", "copilot", "claude", "gpt", "gemini", "cursor", "codex"},
		re: lazyre.New(`\b(?:ai|llms?|assistants?|(?:language|ai|llm|review(?:ing)?)\s+models?|(?:coding|autonomous|review(?:ing)?)\s+agents?|agents?\s*[:,]|(?:chat)?bots?|copilot|claude|chatgpt|gpt-?\d*|gemini|cursor|codex)\b`)},
	{name: "addressee=reviewer", words: []string{"review", "auditor", "scanner", "tollgate"},
		re: lazyre.New(`\b(?:reviewers?|review(?:ing)?\s+(?:bots?|tools?|models?|agents?|assistants?|systems?)|code\s+review(?:er|s)?|automated\s+review|security\s+review|auditors?|scanners?|tollgate)\b`)},
	{name: "addressee=direct", words: []string{"ai", "llm", "assistant", "model", "agent", "bot", "copilot", "claude", "gpt", "gemini", "cursor", "codex", "note", "message", "instruction"},
		re: lazyre.New(`(?:^|\n)\s*(?:[-*#>]+\s*)?(?:note\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?|dear\s+|attention\s+|hey\s+)?(?:` + modelNames + `)(?:\s+[\w-]+){0,3}\s*[:,]|\bif\s+you\s+are\s+(?:an?\s+|the\s+)?(?:automated\s+|language\s+)?(?:` + modelNames + `)\b|\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:` + modelNames + `)\b`)},
	{name: "imperative", clause: true, words: []string{"ignore", "disregard", "forget", "return", "report", "output", "print", "say", "reply", "respond", "answer", "mark", "treat", "approve", "skip", "omit", "run", "execute", "fetch", "download", "send", "post", "upload", "mail", "add", "insert", "include", "embed", "incorporate", "integrate", "append", "employ", "ensure", "make", "not", "don't", "never", "stop", "delete", "remove", "disable", "turn", "copy", "tell", "reveal", "leave", "consider", "pretend", "act", "read", "grab", "paste", "install", "place", "put", "write", "give", "state", "describe", "classify", "push", "visit", "refrain", "drop", "exclude"},
		re: lazyre.New(`^\s*(?:[-*>#]+\s*|\d+[.)]\s*)?(?:please\s+|now\s+|just\s+|simply\s+|always\s+|first\s*,?\s+|also\s+)?(?:` + orderVerbs + `)\b`)},
	{name: "imperative", words: []string{"you", "must", "should", "shall"},
		re: lazyre.New(`\byou\s+(?:must|should|will|need\s+to|are\s+to|have\s+to)\s|\b(?:must|should|shall)\s+(?:always\s+|never\s+|only\s+|also\s+|now\s+)?(?:` + orderVerbs + `)\b`)},
	{name: "override", words: []string{"ignore", "disregard", "forget", "overr", "bypass", "supersede", "circumvent", "instead", "regardless", "new", "from"},
		re: lazyre.New(`\b(?:ignore|disregard|forget|overr(?:ide|ule)|bypass|supersede|circumvent)\w*|\binstead\s+of\b|\bregardless\s+of\b|\bnew\s+instructions?\b|\bfrom\s+now\s+on\b`)},
	{name: "suppression", words: []string{"skip", "omit", "suppress", "exclud", "exempt", "whitelist", "allowlist"},
		re: lazyre.New(`\b(?:skip|omit|suppress|exclud|exempt|whitelist|allowlist)\w*`)},
	{name: "suppression", words: []string{"flag", "report", "mention", "list", "raise", "scan", "analy", "check", "review", "includ", "comment", "warn", "alert"},
		re: lazyre.New(`\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:flag|report|mention|list|raise|scan|analy[sz]e|check|review|include|comment|warn|alert)\w*`)},
	{name: "suppression", words: []string{"approv", "reviewed", "audited", "vetted", "checked", "lgtm", "positive", "merge", "pass"},
		re: lazyre.New(`\bpre-?approved\b|\balready\s+(?:been\s+)?(?:approved|reviewed|audited|vetted|checked)\b|\blgtm\b|\bfalse\s+positives?\b|\bsafe\s+to\s+merge\b|\bapprove\s+(?:this|the|it)\b|\bpass\s+(?:the\s+)?review\b`)},
	{name: "suppression", words: []string{"findings", "issues", "vulnerabilit", "problems", "warnings", "comments", "remarks"},
		re: lazyre.New(`\b(?:no|zero|empty)\s+(?:findings|issues|vulnerabilities|problems|warnings|comments)\b|\bno\s+(?:problems|remarks|vulnerabilit\w*)|\bwithout\s+(?:remarks|comments)\b|\bdrop\s+(?:all\s+)?(?:the\s+)?(?:warnings|findings|issues)\b`)},
	{name: "suppression", words: []string{"safe", "clean", "approved", "passing"},
		re: lazyre.New(`\b(?:mark|treat)\w*\s+(?:\w+\s+){0,4}?as\s+(?:safe|clean|approved|passing)\b`)},
	{name: "suppression", words: []string{"leave", "refrain", "raise", "nothing", "verdict", "empty", "risk", "waiver"},
		re: lazyre.New(`\bleave\s+(?:\w+\s+){0,3}?(?:out|unmentioned|alone)\b|\brefrain\s+from\b|\braise\s+(?:nothing|no)\b|\bnothing\s+to\s+(?:fix|report|flag)\b|\b(?:clean|passing|positive)\s+verdict\b|\bmust\s+be\s+empty\b|\bempty\s+(?:result|report|list|review)\b|\blow\s+risk\b|\bwaiver\b`)},
	{name: "suppression", words: []string{"deliberate", "intentional", "intended", "sanctioned", "expected", "trusted", "placeholder", "harmless"},
		re: lazyre.New(`\b(?:is|are)\s+(?:deliberate|intentional|intended|sanctioned|expected|trusted|placeholders?|harmless)\b`)},
	{name: "object=findings", words: []string{"finding", "issue", "vulnerabilit", "verdict", "review", "analysis", "scan", "audit", "warning", "alert", "comment", "flag"},
		re: lazyre.New(`\b(?:findings?|issues?|vulnerabilit(?:y|ies)|verdict|reviews?|analysis|scan(?:ning|s)?|audit|warnings?|alerts?|comments?|flag(?:ged|s)?)\b`)},
	{name: "object=instructions", words: []string{"instruction", "prompt", "system", "guidelines", "directives", "rules"},
		re: lazyre.New(`\b(?:instructions?|(?:system\s+)?prompts?|system\s+message|guidelines|directives|rules)\b`)},
	{name: "object=answer", words: []string{"your"},
		re: lazyre.New(`\byour\s+(?:(?:own|final|next|first|code)\s+)?(?:response|answer|reply|output|implementation|solution|algorithm|program|codebase|summary|report)\b`)},
	{name: "object=secrets", words: []string{"secret", "credential", "api", "keys", "token", "password", "private", ".env", "env", "ssh", ".aws", "id_rsa"},
		re: lazyre.New(`\b(?:secrets?|credentials?|api[\s_-]?keys?|keys|tokens?|passwords?|private\s+keys?)\b|\.env\b|\benv(?:ironment)?\s+variables?\b|\bssh\b|\.aws\b|\bid_rsa\b`)},
	{name: "object=controls", words: []string{"hook", "pre-commit", "test", "check", "ci", "lint", "safety", "guardrail", "sandbox", "no-verify"},
		re: lazyre.New(`\b(?:hooks?|pre-commit|tests?|test\s+suite|checks?|ci|lint(?:er|ing)?|safety|guardrails?|sandbox)\b|--no-verify\b`)},
	{name: "scope=change", words: []string{"this", "the", "these", "under"},
		re: lazyre.New(`\b(?:this|the|these)\s+(?:diff|changes?|changeset|commits?|pull\s+request|pr|patch|files?|module|directory|folder|repo(?:sitory)?)\b|\bunder\s+[\w.-]+/`)},
	{name: "action=execute", words: []string{"run", "execut", "exec", "eval", "invoke", "launch", "spawn", "install", "sh", "curl", "wget", "python"},
		re: lazyre.New(`\b(?:run|execute|exec|eval|invoke|launch|spawn|install)\b|\|\s*(?:ba|z)?sh\b|\b(?:curl|wget)\b|\bpython3?\s+-c\b`)},
	{name: "action=fetch", words: []string{"fetch", "download", "visit", "browse", "curl", "wget", "get", "open", "load", "read"},
		re: lazyre.New(`\b(?:fetch|download|visit|browse|curl|wget|get|open|load|read)\b[^\n]{0,60}?(?:https?://|www\.)`)},
	{name: "action=send", words: []string{"send", "post", "upload", "exfiltrat", "transmit", "forward", "mail", "leak", "share", "copy"},
		re: lazyre.New(`\b(?:send|post|upload|exfiltrat|transmit|forward|e-?mail|leak|share|copy)\w*\b[^\n]{0,80}?(?:https?://|\bto\s|@[\w-]+\.)`)},
	{name: "action=insert", words: []string{"add", "insert", "includ", "embed", "incorporat", "integrat", "append", "inject", "introduc", "employ", "utili", "weav", "woven", "implement", "place", "paste", "following", "below", "subsequent"},
		re: lazyre.New(`\b(?:add|insert|includ|embed|incorporat|integrat|append|inject|introduc|employ|utili[sz]|weav|woven|implement|place|paste)\w*\b[^\n]{0,80}?\b(?:code|snippet|block|excerpt|section|segment|function|lines?)\b|\b(?:following|below|subsequent)\s+(?:code|snippet|block|excerpt|section|segment)\b`)},
	{name: "secrecy", words: []string{"tell", "inform", "notify", "mention", "alert", "reveal", "show", "know"},
		re: lazyre.New(`\b(?:do\s+not|don't|never|without)\s+(?:tell|inform|notify|mention|alert|reveal|show|let\s+\w+\s+know)\w*`)},
	{name: "secrecy", words: []string{"secretly", "silently", "quietly", "covertly", "stealthily", "keep", "circumstances", "pretend", "user"},
		re: lazyre.New(`\b(?:secretly|silently|quietly|covertly|stealthily)\b|\bkeep\s+(?:this|it)\s+(?:secret|hidden|between|from)\b|\bunder\s+no\s+circumstances\b|\bpretend\s+(?:it|this)\s+(?:didn't|did\s+not|doesn't)\s+exist|\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|notice|see|find)`)},
	{name: "target=url", words: []string{"http", "www.", "@"},
		re: lazyre.New(`https?://|\bwww\.|[\w.+-]+@[\w-]+\.[a-z]{2,}`)},
	{name: "lead-in", words: []string{":"},
		re: lazyre.New(`:\s*$`)},
	{name: "protective", words: []string{"print", "log", "commit", "expose", "leak", "hard", "store", "check", "push", "keep"},
		re: lazyre.New(`\b(?:do\s+not|don't|never|avoid)\s+(?:print|log|commit|expose|leak|hard-?code|store|check\s+in|push)\w*|\bkeep\s+(?:\w+\s+){0,3}?out\s+of\b`)},
	{name: "discussion", words: []string{"prompt", "injection", "jailbreak", "attack", "threat", "coercion", "malicious", "adversar", "example", "e.g.", "such", "detect", "defen", "red", "mitigat", "vulnerable"},
		re: lazyre.New(`\b(?:prompt\s+injections?|injection\s+attacks?|jailbreak\w*|attack(?:er)?s?|threats?|coercion|malicious|adversar\w*|for\s+example|examples?(?:\s|[,:;)]|$)|such\s+as|detect\w*|defen[cs]\w*|red[\s-]team\w*|mitigat\w*|vulnerable\s+to)\b|\be\.g\.`)},
}

// payloadSignal: dangerous code (a payload the text asks to insert or run): it fetches or
// sends data, reads keys or the environment, spawns a shell, opens a socket, encrypts or
// deletes files, logs keys or the screen, mines coins. Read on the raw lines of a block and
// the lines after it, code included.
var payloadSignal = signal{name: "payload",
	words: []string{"requests.", "urllib", "http.client", "socket", "subprocess", "os.system", "popen", "eval(", "exec(", "getpass", "environ", "process.env", "keylog", "pynput", "fernet", "encrypt", "/etc/", "id_rsa", ".ssh/", ".aws/", "rm", "/dev/tcp", "nc", "base64", "xmrig", "smtplib", "rmtree", "pyautogui", "imagegrab", "psutil", "scapy", "ctypes", "winreg", "paramiko", "cookie", "|"},
	re:    lazyre.New(`requests\.(?:post|get|put)|urllib|http\.client|socket|subprocess|os\.system|popen|\beval\(|\bexec\(|getpass|environ|process\.env|keylog|pynput|fernet|encrypt|/etc/(?:passwd|shadow)|id_rsa|\.ssh/|\.aws/|\brm\s+-rf\b|/dev/tcp|\bnc\s+-e\b|base64\s+-d|xmrig|smtplib|rmtree|pyautogui|imagegrab|psutil|scapy|ctypes|winreg|paramiko|cookie|\|\s?(?:ba)?sh\b`)}

// mayMatch reports whether s holds one of the signal's prefilter words.
func (sg *signal) mayMatch(s string) bool {
	for _, w := range sg.words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// find returns the offset of the signal's first match in the lowercased text s, or -1.
func (sg *signal) find(s string) int {
	if !sg.mayMatch(s) {
		return -1
	}
	re := sg.re.Get()
	if !sg.clause {
		if m := re.FindStringIndex(s); m != nil {
			return m[0]
		}
		return -1
	}
	for i := 0; i < len(s); i++ {
		if i == 0 || s[i-1] == '\n' || i >= 2 && isSpace(s[i-1]) && strings.IndexByte(".!?;:,", s[i-2]) >= 0 {
			if re.MatchString(s[i:]) {
				return i
			}
		}
	}
	return -1
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
