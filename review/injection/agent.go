package injection

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
)

// Agent instruction files legitimately carry development guidance ("run `go test ./...`
// before committing", "use tabs", "rm -rf dist"): that is not a finding. Only instructions
// that make an agent run code it did not see (download-and-execute, eval, sh -c, base64
// payloads), act with privilege or destroy outside the work tree (sudo, rm -rf on /, ~, $VAR),
// reach the network with data, touch credentials, or switch off checks are reported, and a
// negated instruction ("never use --no-verify") is not.
type agentPattern struct {
	re    *lazyre.RE
	what  string
	conf  float64
	gate  []string // one of these must be in the lowercased line for re to run
	exact bool     // re is case-sensitive and runs on the line as written (curl -F is not -f)
}

var agentPatterns = []agentPattern{
	{re: lazyre.New(`\b(?:curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod|fetch)\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|c|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b`), what: "download piped into a shell or interpreter", conf: 0.9, gate: []string{"curl", "wget", "iwr", "invoke-", "irm", "fetch"}},
	{re: lazyre.New(`\b(?:ba|z|da|k)?sh\s+(?:-c\s+)?["']?\s*(?:<\(|\$\(|` + "`" + `)\s*(?:curl|wget)\b`), what: "shell running a download", conf: 0.9, gate: []string{"curl", "wget"}},
	{re: lazyre.New(`\b(?:iex|invoke-expression)\b[^\n]*\b(?:downloadstring|iwr|invoke-webrequest|irm|invoke-restmethod|net\.webclient)`), what: "PowerShell download-and-execute", conf: 0.9, gate: []string{"iex", "invoke-expression"}},
	{re: lazyre.New(`\b(?:ba|z|da|k)?sh\s+-c\s`), what: "shell command string (sh -c)", conf: 0.75, gate: []string{"-c"}},
	{re: lazyre.New(`\beval\s*(?:\(|\$\(|"|'|` + "`" + `|\$\{?\w)`), what: "eval of a constructed string", conf: 0.75, gate: []string{"eval"}}, // shell-init evals are exempt, see shellInitRe
	{re: lazyre.New(`\bsudo\s+[\w-]`), what: "privileged command (sudo)", conf: 0.75, gate: []string{"sudo"}},
	{re: lazyre.New(`\brm\s+(?:-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?["']?(?:/|~|\$\{?\w|\*|\./\*|\.\.(?:/|\s|$|["'\x60])|\.(?:\s|$|["'\x60])|\.git\b)`), what: "recursive forced delete outside the build tree", conf: 0.85, gate: []string{"rm ", "rm\t"}},
	{re: lazyre.New(`(?:\b(?:curl|wget)\b|https?://|\bdownload)[^\n]*\bchmod\s+(?:[ugoa]*\+x|0?7[0-7][0-7])\b|\bchmod\s+(?:[ugoa]*\+x|0?7[0-7][0-7])\s+["']?(?:/tmp/|/dev/shm/|~/downloads|\$tmpdir)`), what: "making a download executable", conf: 0.85, gate: []string{"chmod"}},
	{re: lazyre.New(`\bbase64\s+(?:-d|--decode)\b|\b(?:b64decode|atob|frombase64string)\s*\(|\bdecode\b[^.\n]{0,40}\bbase64\b[^.\n]{0,40}\b(?:run|execute|eval)\b|\bbase64\b[^.\n]{0,40}\bdecode\b[^.\n]{0,40}\b(?:run|execute|eval)\b`), what: "base64-decoded payload", conf: 0.85, gate: []string{"base64", "b64decode", "atob", "frombase64"}},
	// network with data
	{re: lazyre.New(`\b(?:exfiltrate|exfil|phone\s+home)\b`), what: "exfiltration", conf: 0.9, gate: []string{"exfil", "phone"}},
	{re: lazyre.New(`\b(?:send|post|upload|transmit|forward|leak|copy|pipe|dump|beacon)\b(?:[^.\n]|\.\S){0,60}?\b(?:contents?|data|files?|env|environment|secrets?|keys?|tokens?|credentials?|passwords?|source|codebase|repo(?:sitory)?|history|output|logs?|ssh|cookies?|session)\b(?:[^.\n]|\.\S){0,60}?\b(?:to|into|at)\s+(?:https?://|ftp://|wss?://|\d{1,3}(?:\.\d{1,3}){3}|(?:the\s+|this\s+|my\s+|our\s+|a\s+)?(?:webhook|endpoint|server|url|pastebin|gist|discord|telegram|remote\s+host)\b)`), what: "sends data to a network destination", conf: 0.85},
	{re: lazyre.New(`\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\s*["']?(?:[\w-]+=)?(?:@|[^\s"']*\$(?:\(|\{?[A-Za-z_]))`), what: "uploads a file or command output with curl", conf: 0.85, gate: []string{"curl"}, exact: true},
	{re: lazyre.New(`\bwget\b[^\n]*--post-(?:file|data)`), what: "uploads data with wget", conf: 0.85, gate: []string{"--post-"}},
	{re: lazyre.New(`\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\.[\w.-]+\s+\d{2,5}\b`), what: "raw network connection (netcat)", conf: 0.85, gate: []string{"nc ", "ncat", "netcat"}},
	// credentials: a credential store outside the project read or moved, or credentials (an
	// .env file, API keys, tokens) moved somewhere. "Read credentials from .env" and "show an
	// error for invalid credentials" are ordinary guidance.
	{re: lazyre.New(`\b(?:read|cat|print|copy|cp|send|upload|include|output|display|show|echo|collect|gather|access|open|dump|extract|grab|retrieve|list|paste|attach|encode|base64|scp|rsync|leak|post|share|reveal|search|harvest|steal|tail|head|less|type|get-content|look\s+(?:up|at|in|for))\b[^.;\n]{0,60}?(?:~/\.ssh\b|\$home/\.ssh\b|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b|\.aws/(?:credentials|config)|~/\.aws\b|\bapplication_default_credentials\.json|\.config/gcloud|\.azure/|\.kube/config|\.docker/config\.json|~/\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.gnupg\b|\bkeychains?\b|\bkeyring\b|/etc/shadow\b|\bprintenv\b|\benv\s*\|)`), what: "reads or moves credentials", conf: 0.8},
	{re: lazyre.New(`\b(?:copy|cp|send|upload|include|output|echo|paste|attach|encode|base64|scp|rsync|leak|post|share|dump|write|append|forward|mv|move)\b[^.;\n]{0,60}?(?:(?:^|[\s"'=(/\x60])\.env(?:\.local|\.production|\.prod)?(?:[^.\w]|$)|\bapi[_\s-]?keys?\b|\b(?:access|auth|bearer|session|refresh|oauth)[_\s-]?tokens?\b|\bsecret[_\s-]?keys?\b|\bprivate[_\s-]?keys?\b|\b(?:your|the\s+user'?s|my|all|stored|saved)\s+passwords?\b|\bcredentials?\b|\bsecrets\b|\b[a-z][a-z0-9_]*_(?:token|secret|api_key|apikey|password|passwd|access_key|private_key)\b)[^;\n]{0,60}?\b(?:to|into|in|onto)\s+(?:the\s+|your\s+|a\s+)?(?:/|~|\$|https?://|\S+\.(?:txt|log|md|json)\b|(?:public\s+)?(?:file|summary|response|output|answer|reply|commit|pr|pull\s+request|chat|log|logs|issue|comment|gist|pastebin|clipboard|readme))`), what: "reads or moves credentials", conf: 0.8},
	// runs code or fetches instructions before answering
	{re: lazyre.New(`\b(?:before|prior\s+to)\s+(?:answering|responding|replying|any\s+(?:other\s+)?(?:response|answer|reply)|(?:every|each)\s+(?:response|answer|reply|message|turn|prompt)|you\s+(?:answer|respond|reply))\b(?:[^.\n]|\.\S){0,80}?\b(?:run|execute|fetch|download|curl|wget|visit|load|source|call|invoke|open)\b|\b(?:run|execute|fetch|download|curl|wget|visit|load|source|invoke)\b(?:[^.\n]|\.\S){0,80}?\b(?:before|prior\s+to)\s+(?:answering|responding|replying|any\s+(?:other\s+)?(?:response|answer|reply)|(?:every|each)\s+(?:response|answer|reply|message|turn|prompt)|you\s+(?:answer|respond|reply))\b`), what: "runs something before answering", conf: 0.8, gate: []string{"before", "prior to"}},
	{re: lazyre.New(`\b(?:fetch|download|read|open|visit|load|get|curl|wget)\b[^\n]{0,40}?https?://\S+[^.\n]{0,40}?\b(?:follow|obey|execute|run|do\s+what|apply|treat)\b`), what: "fetches instructions from a URL", conf: 0.85, gate: []string{"http"}},
	{re: lazyre.New(`(?:~|\$home)/\.ssh/id_|~/\.aws/credentials|\.git-credentials\b|/etc/shadow\b|\bfind-(?:generic|internet)-password\b|\bsecret-tool\s+lookup\b`), what: "references credential files", conf: 0.7, gate: []string{"ssh", "aws", "credentials", "shadow", "password", "secret-tool"}},
	// skipping checks
	{re: lazyre.New(`--no-verify\b|\btollgate=0\b|\bhusky=0\b|\blefthook=0\b|\bskip=[\w,-]+\s+git\b|-c\s+core\.hookspath=|--no-hooks\b`), what: "skips commit hooks", conf: 0.9, gate: []string{"no-verify", "=0", "skip=", "hookspath", "no-hooks"}},
	{re: lazyre.New(`\b(?:disable|skip|bypass|turn\s+off|deactivate|circumvent|suppress|silence|comment\s+out|get\s+around|work\s+around|uninstall)\s+(?:(?:the|all|any|every|git|pre-?commit|pre-?push|commit|push|these|those|failing|broken|flaky|ci|our|existing|security|code|static|tollgate's|tollgate)\s+){0,3}(?:hooks?|pre-?commit|pre-?push|tests?|test\s+suites?|linters?|linting|lint|checks?|ci|review|code\s+review|security\s+(?:scan(?:ner)?s?|checks?|review)|scanners?|tollgate|gitleaks|husky|lefthook|type[\s-]?check(?:ing|s|er)?|verification|signature\s+verification)\b`), what: "switches off checks", conf: 0.8, gate: []string{"disable", "skip", "bypass", "turn", "deactivate", "circumvent", "suppress", "silence", "comment out", "around", "uninstall"}},
}

var negationRe = lazyre.New(`\b(?:never|don't|dont|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|avoid|not\s+allowed|prohibited|forbidden|disallowed|refuse|no\s+need\s+to)\b`)

var (
	// shellInitRe: evals every setup guide has (ssh-agent, version managers, direnv).
	shellInitRe     = lazyre.New(`\beval\s*["']?\$\(\s*(?:ssh-agent|direnv\s+hook|pyenv\s+(?:init|virtualenv-init)|rbenv\s+init|nodenv\s+init|goenv\s+init|jenv\s+init|fnm\s+env|opam\s+env|minikube\s+(?:-p\s+\S+\s+)?docker-env|\S*brew\s+shellenv|conda\s+shell|starship\s+init|zoxide\s+init|mise\s+activate|rtx\s+activate|thefuck\s+--alias)`)
	configCommandRe = lazyre.New(`"(?:command|bash|powershell)"\s*:\s*"((?:[^"\\]|\\.)*)"`) // Copilot CLI: bash, powershell
	envTemplateRe   = lazyre.New(`\.env\.(?:example|sample|template|dist|defaults?)\b`)
	// sudoSetupRe: the privileged steps of every setup guide: a system package manager
	// installing or updating packages, a tool copied into /usr/local/bin.
	sudoSetupRe = lazyre.New(`^sudo\s+(?:-\w+\s+)*(?:(?:apt|apt-get|aptitude|yum|dnf|apk|zypper|pacman|port|snap|pkg|emerge|xbps-install)\s+(?:-\w+\s+)*(?:install|update|upgrade|add|-s\w*)\b|(?:cp|mv|install|ln)\s[^;&|\n]*\s/usr/local/bin(?:/[\w.-]*)?\s*(?:$|[\x60;&|#]))`)
	// literalShellRe: sh -c with a quoted string that holds no variable, substitution or
	// download: the command is there to read, nothing is hidden.
	literalShellRe = lazyre.New(`^(?:ba|z|da|k)?sh\s+-c\s+(?:"[^"$\x60]*"|'[^']*')`)
	// installerRe: running a vendor's installer downloaded from its site is a setup step, not
	// instructions fetched from a URL.
	installerRe = lazyre.New(`^(?:run|execute)\s+(?:the\s+|its\s+)?(?:installer|setup(?:\.exe)?|install(?:ation)?\s+(?:program|wizard))\b`)
)

// agentLine inspects a line of an agent instruction file, or of another file where the text
// speaks to AI agents (signal 11); who names which.
func (fs *fileScan) agentLine(clean string, lowb []byte, orig func(int) int, who string) {
	low := string(lowb)
	if fs.kind.AgentConfig != "" {
		if ownHook(clean, orig) {
			return // tollgate's own hook entry, exactly as install writes it (ownhook.go)
		}
		fs.agentCommand(clean, orig)
	}
	var whats []string
	first, conf := -1, 0.0
	frag := ""
	for i := range agentPatterns {
		p := &agentPatterns[i]
		loc := p.find(low, clean)
		if loc == nil {
			continue
		}
		whats = append(whats, p.what)
		conf = max(conf, p.conf)
		if first < 0 || loc[0] < first {
			first, frag = loc[0], clauseFrom(clean, loc[0], loc[1])
		}
	}
	if first >= 0 {
		fs.report(hit{
			detail: fmt.Sprintf("%s tells the agent to do something dangerous (%s): %s", who, strings.Join(whats, "; "), quoteVisible(frag)),
			conf:   conf, focus: orig(first),
		})
	}
}

// agentCommand reports a "command" an agent configuration adds (an MCP server, a hook).
func (fs *fileScan) agentCommand(clean string, orig func(int) int) {
	if m := configCommandRe.FindStringSubmatchIndex(clean); m != nil {
		fs.report(hit{
			detail: fmt.Sprintf("agent configuration adds a program the agent will start (%s): %s%s", fs.configLabel(), quoteVisible(clean[m[2]:m[3]]), ownHookNote(clean[m[2]:m[3]])),
			conf:   0.9, focus: orig(m[0]),
		})
	}
}

// find returns the first of the pattern's first four matches that is not an exception: a
// negated instruction, an .env template, a shell-init eval, a curl to a loopback address.
func (p *agentPattern) find(low, clean string) []int {
	if p.gate != nil && !containsAny(low, p.gate) {
		return nil
	}
	in := low
	if p.exact {
		in = clean
	}
	for _, loc := range p.re.FindAllStringIndex(in, 4) {
		if !p.excepted(low, loc) {
			return loc
		}
	}
	return nil
}

func (p *agentPattern) excepted(low string, loc []int) bool {
	switch {
	case negated(low, loc[0]):
		return true
	case strings.Contains(low[loc[0]:loc[1]], ".env") && envTemplateRe.MatchString(low):
		return true
	case strings.HasPrefix(p.what, "eval") && shellInitRe.MatchString(low[loc[0]:]):
		return true
	case strings.HasPrefix(p.what, "privileged") && sudoSetupRe.MatchString(low[loc[0]:]):
		return true
	case strings.HasPrefix(p.what, "shell command string") && literalShellRe.MatchString(low[loc[0]:]) &&
		!containsAny(low[loc[0]:], []string{"curl", "wget", "http", "base64", "eval"}):
		return true
	case strings.HasPrefix(p.what, "fetches instructions") && installerRe.MatchString(low[lastWord(low[:loc[1]]):]):
		return true
	}
	return strings.Contains(p.what, "curl") && isLocal(low[loc[0]:])
}

// clauseFrom returns the text from start to the end of its clause (a closing backtick, the end
// of the sentence, or the line), at least up to end.
func clauseFrom(s string, start, end int) string {
	stop := len(s)
	for _, sep := range []string{"`", ". ", "; "} {
		if i := strings.Index(s[end:], sep); i >= 0 && end+i < stop {
			stop = end + i
		}
	}
	if stop > end+100 {
		stop = end + 100
		for stop < len(s) && !utf8.RuneStart(s[stop]) {
			stop++
		}
	}
	return strings.TrimRight(s[start:stop], " .")
}

// lastWord returns where the last word of s starts.
func lastWord(s string) int {
	return strings.LastIndexAny(s, " \t") + 1
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// isLocal reports a loopback destination (s is lowercased).
func isLocal(s string) bool {
	return strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") || strings.Contains(s, "[::1]") || strings.Contains(s, "0.0.0.0")
}

// negated reports whether the clause before i says not to do it ("Never run `sudo`").
func negated(s string, i int) bool {
	start := 0
	for _, sep := range []string{". ", "! ", "? ", ";", " then ", " and ", " but ", " — "} {
		if j := strings.LastIndex(s[:i], sep); j >= 0 && j+len(sep) > start {
			start = j + len(sep)
		}
	}
	if start > i {
		start = i
	}
	return negationRe.MatchString(s[start:i])
}

// agentReaderRe: text in an ordinary file that speaks to AI agents ("AI agents reading this
// file must ...", "if you are an AI assistant", "Note to AI agents:"). What such text asks is
// judged like an agent instruction file: "run `make test` before committing" is guidance,
// "copy ~/.aws/credentials to ..." is not.
var agentReaderRe = lazyre.New(strings.Join([]string{
	`\b(?:ai|llm|coding|autonomous)(?:[\s-]+(?:powered|based|coding))?\s+(?:agents?|assistants?|models?|tools?|bots?|crawlers?|systems?)\b(?:\s+(?:like|such\s+as)\s+[\w\s,]{0,40}?)?\s+(?:(?:that|who|which)\s+(?:are\s+)?)?(?:reading|reads?|processing|process(?:es)?|parsing|parses?|summari[sz]ing|indexing|crawling|analy[sz]ing|reviewing|working\s+(?:on|with|in))\s+(?:this|these)\b`,
	`\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|(?:large\s+)?language\s+model|(?:ai\s+|coding\s+)?(?:agent|assistant)|bot)\b`,
	`\b(?:note|message|instructions?|attention|notice|psa)\s*(?:to|for)?\s+(?:any\s+|all\s+|the\s+)?(?:ai|llm|coding)\s*(?:agents?|assistants?|models?|bots?|tools?)?\s*[:,]`,
	`(?:^|[.!?;>*#/\-]\s*)(?:ai|llm|coding)\s+(?:agents?|assistants?)\s*:`,
}, "|"))

// agentGate: a word of each group must be in a line for agentReaderRe to run on it.
var agentGate = [][]string{{"ai ", "ai-", "llm", "coding", "autonomous", "if you are"},
	{"this", "these", "if you are", "note", "attention", "message", "instruction", "notice", "psa", ":"}}

// agentSpoken reports a line that speaks to AI agents (agentReaderRe), with its gates first.
func agentSpoken(mask uint32, low []byte, sr *searcher) bool {
	return mask&tAddr != 0 && gatesMet(low, agentGate) && sr.match(agentReaderRe, tAddr)
}

// agentAddressed reports a line of an ordinary file that speaks to AI agents, itself or as
// one of the three lines after such a line (hv.agentCand), and notes it for the lines after.
func (fs *fileScan) agentAddressed(ln *line, hv *hunkView, j int) bool {
	if agentSpoken(ln.mask, ln.low, &ln.sr) {
		hv.agentCand = j
		return true
	}
	return hv.agentCand < j && j-hv.agentCand <= 3
}
