package redact

import (
	"encoding/base64"
	"strings"

	"github.com/tollgate-dev/tollgate/internal/lazyre"
	"github.com/tollgate-dev/tollgate/redact/lite"
)

// Secrets that identify themselves by their shape, found with no keyword next to them, where
// gitleaks' default rules want one (telegr, discord, mailgun) or have no rule (password
// hashes), and the provider tokens of providers.go. Each needs its whole shape: prefix, exact length and alphabet, and a structural
// check where the format has one (a Discord bot token's first part is a base64 user id).
// Placeholders (one repeated character, x runs, words like example) are no tokens.

// Token is one self-identifying secret on a line.
type Token struct {
	Kind     string // telegram-bot-token, discord-bot-token, discord-webhook, mailgun-api-key, password-hash, provider-token
	Value    string // the secret: masked in evidence, replaced before a send
	Start    int    // byte offset of Value in the line
	Provider string // for a provider-token, what it is ("a Groq API key"; providers.go)
	Public   bool   // a provider's client-side key, public by design (a PostHog project key)
}

// Token kinds.
const (
	TelegramBotToken = "telegram-bot-token"
	DiscordBotToken  = "discord-bot-token"
	DiscordWebhook   = "discord-webhook"
	MailgunAPIKey    = "mailgun-api-key"
	PasswordHash     = "password-hash"
)

// TokenKinds lists every kind FindTokens reports.
var TokenKinds = []string{TelegramBotToken, DiscordBotToken, DiscordWebhook, MailgunAPIKey, PasswordHash, ProviderToken}

var (
	// 123456789:AA + 33 of [A-Za-z0-9_-]; in a Bot API URL it follows "bot".
	telegramToken = lazyre.New(`(?:^|[^\w:/.\-]|/bot)(\d{8,10}:AA[A-Za-z0-9_\-]{33})(?:[^\w\-]|$)`)
	// base64(user id).timestamp.hmac
	discordToken = lazyre.New(`(?:^|[^\w.\-])([MNO][A-Za-z0-9]{22,26}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38})(?:[^\w.\-]|$)`)
	discordHook  = lazyre.New(`https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?/webhooks/\d{17,20}/([A-Za-z0-9_\-]{60,68})(?:[^\w\-]|$)`)
	// key-<32 hex> (private API key) and <32 hex>-<8 hex>-<8 hex> (newer keys).
	mailgunKey = lazyre.New(`(?:^|[^\w\-])(key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?:[^\w\-]|$)`)
	// bcrypt, sha256/sha512-crypt, md5-crypt (and Apache's apr1), yescrypt.
	passwordHash = lazyre.New(`(?:^|[^\w$])(\$2[abxy]\$(?:0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}` +
		`|\$5\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43}` +
		`|\$6\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{86}` +
		`|\$(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}` +
		`|\$y\$[./A-Za-z0-9]{1,12}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43})(?:[^./A-Za-z0-9$]|$)`)
)

// wellKnownHashes are hashes published as examples (of "password", "secret"): in frameworks'
// factories and documentation they are no one's credential.
var wellKnownHashes = map[string]bool{
	"$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi": true, // Laravel's UserFactory: "password"
	"$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy": true, // Spring Security docs: "password"
	"$2a$10$dXJ3SW6G7P50lGmMkkmwe.20cQQubK3.HZWzG3YB1tlRy.fqvM/BG": true, // Spring Security docs: "password"
}

// FindTokens returns the self-identifying secrets on line, in order.
func FindTokens(line string) []Token {
	if len(line) < 24 {
		return nil
	}
	var out []Token
	add := func(kind string, re *lazyre.RE, ok func(string) bool) {
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			v := line[m[2]:m[3]]
			if !placeholderToken(v) && (ok == nil || ok(v)) {
				out = append(out, Token{Kind: kind, Value: v, Start: m[2]})
			}
		}
	}
	if strings.Contains(line, ":AA") {
		add(TelegramBotToken, telegramToken, func(v string) bool { return mixedCase(v[strings.IndexByte(v, ':')+3:]) })
	}
	word, hex := longestRuns(line)
	if word >= 27 && discordShape(line) {
		add(DiscordBotToken, discordToken, discordUserID)
	}
	if word >= 60 && strings.Contains(line, "/webhooks/") {
		add(DiscordWebhook, discordHook, mixedCase)
	}
	if hex >= 32 && mailgunShape(line) {
		add(MailgunAPIKey, mailgunKey, hexMixed)
	}
	if word >= providerMinRun || base64Provider(line) {
		out = findProviderTokens(line, out)
	}
	if hashPrefix(line) {
		add(PasswordHash, passwordHash, func(v string) bool { return !wellKnownHashes[v] && !sameRuns(v[strings.LastIndexByte(v, '$')+1:]) })
	}
	return out
}

// discordShape is a fast superset of discordToken's body: 23 or more [A-Za-z0-9], a dot, six
// [A-Za-z0-9_-], a dot, then 27 or more [A-Za-z0-9_-].
func discordShape(line string) bool {
	return anyByteAt(line, '.', func(i int) bool {
		return i+8 < len(line) && line[i+7] == '.' && lite.SkipWhile(line[i+1:i+7], 0, tokenByte) == 6 &&
			runBefore(line[:i], alnumByte) >= 23 && lite.SkipWhile(line[i+8:], 0, tokenByte) >= 27
	})
}

// mailgunShape is a fast superset of mailgunKey's body: "key-" or a '-' right after 32 hex
// digits.
func mailgunShape(line string) bool {
	return strings.Contains(line, "key-") || anyByteAt(line, '-', func(i int) bool { return runBefore(line[:i], isHex) >= 32 })
}

// anyByteAt reports whether at reports true at an index of b in s.
func anyByteAt(s string, b byte, at func(i int) bool) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], b)
		if j < 0 {
			return false
		}
		if i += j; at(i) {
			return true
		}
	}
}

// runBefore is the length of the run of bytes in class at the end of s.
func runBefore(s string, in func(byte) bool) int {
	n := 0
	for n < len(s) && in(s[len(s)-1-n]) {
		n++
	}
	return n
}

func alnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func tokenByte(c byte) bool { return alnumByte(c) || c == '_' || c == '-' }

// longestRuns returns the lengths of the longest run of [A-Za-z0-9_-] and of hex digits in
// line: every token but a hash has one long run, most lines of code none.
func longestRuns(line string) (word, hex int) {
	w, h := 0, 0
	for i := 0; i < len(line); i++ {
		class := runClass[line[i]]
		if class&hexClass != 0 {
			h++
			hex = max(hex, h)
		} else {
			h = 0
		}
		if class&wordClass != 0 {
			w++
			word = max(word, w)
		} else {
			w = 0
		}
	}
	return word, hex
}

// runClass holds, per byte, whether it is a hex digit and whether it is [A-Za-z0-9_-]: one
// lookup per byte of every added line instead of a chain of comparisons.
var runClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if isHex(byte(c)) {
			t[c] |= hexClass
		}
		if tokenByte(byte(c)) {
			t[c] |= wordClass
		}
	}
	return t
}()

const (
	hexClass  = 1
	wordClass = 2
)

// hashPrefix reports a crypt(3) hash's prefix in line.
func hashPrefix(line string) bool {
	return anyByteAt(line, '$', func(i int) bool {
		if i+3 >= len(line) {
			return false
		}
		rest := line[i+1:]
		return rest[0] == '2' && rest[2] == '$' || strings.HasPrefix(rest, "5$") || strings.HasPrefix(rest, "6$") ||
			strings.HasPrefix(rest, "1$") || strings.HasPrefix(rest, "y$") || strings.HasPrefix(rest, "apr1$")
	})
}

// placeholderToken reports an example or a redacted value in a token's shape.
func placeholderToken(v string) bool {
	lower := strings.ToLower(v)
	return strings.Contains(lower, "xxxx") || strings.Contains(lower, "example") || strings.Contains(lower, "0000000") ||
		strings.Contains(lower, "your_") || strings.Contains(lower, "your-") || strings.Contains(lower, "abcdef") ||
		strings.Contains(lower, "1234567")
}

// mixedCase reports random-looking text: an upper-case letter, a lower-case letter and a digit.
func mixedCase(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || c >= 'A' && c <= 'Z'
		low = low || c >= 'a' && c <= 'z'
		dig = dig || c >= '0' && c <= '9'
	}
	return up && low && dig
}

// hexMixed reports hex digits that hold both digits and letters (a real key, not 0000... or
// a run of one letter).
func hexMixed(s string) bool {
	s = strings.TrimPrefix(s, "key-")
	return strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "abcdef") && !sameRuns(s)
}

// sameRuns reports text made mostly of one repeated character (a placeholder).
func sameRuns(s string) bool {
	if s == "" {
		return true
	}
	counts := map[rune]int{}
	for _, r := range s {
		counts[r]++
	}
	for _, n := range counts {
		if n*2 > len(s) {
			return true
		}
	}
	return len(counts) < 6
}

// discordUserID reports a Discord bot token whose first part decodes to a user id (a decimal
// snowflake of 17 to 20 digits) and whose HMAC part looks random.
func discordUserID(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 || !mixedCase(parts[2]) {
		return false
	}
	id, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil || len(id) < 17 || len(id) > 20 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
