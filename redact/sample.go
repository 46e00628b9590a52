package redact

import (
	"encoding/base64"
	"strings"
)

// What a found value says about itself: a documentation sample, a word, an RFC's example.
// These judge severity only (a finding they call a sample is reported at low, never dropped):
// Scan, Mask and the outgoing filter do not use them.

// sampleWords are the words a made-up value carries (lower case).
var sampleWords = []string{"example", "sample", "dummy", "fake", "test", "placeholder", "changeme",
	"change_me", "change-me", "your_", "your-", "yourkey", "redacted", "xxxx", "****", "notsecret",
	"not-secret", "not_secret", "insecure", "foobar", "lorem"}

// LooksLikeSample reports a value written to look like a secret without being one: it names
// itself an example (EXAMPLE, test, fake, dummy, your-key, xxxx), runs a sequence (abcdef,
// 123456, 0000000), or is mostly one character.
func LooksLikeSample(v string) bool {
	lower := strings.ToLower(v)
	return namesSample(lower) || sequential(lower, 6) || repeated(lower, 6)
}

// namesSample reports a lower-cased value that names itself a sample (example, dummy, ...).
// A password may end in 123456; only a value's words judge what a decoded one is.
func namesSample(lower string) bool {
	for _, w := range sampleWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// sequential reports n characters in a row that count up by one (abcdef, 123456).
func sequential(s string, n int) bool { return runOf(s, n, 1) }

// repeated reports one character n times in a row (0000000, aaaaaa).
func repeated(s string, n int) bool { return runOf(s, n, 0) }

// runOf reports n alphanumeric characters in a row, each step more than the one before it.
func runOf(s string, n int, step byte) bool {
	run := 1
	for i := 1; i < len(s); i++ {
		if isAlnum(s[i]) && s[i] == s[i-1]+step {
			run++
			if run >= n {
				return true
			}
			continue
		}
		run = 1
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// rfcSamples are values printed in specifications as examples: the WebSocket handshake's key
// and accept value (RFC 6455), AWS's documented access key pair, HTTP Basic's Aladdin (RFC 7617).
var rfcSamples = map[string]string{
	"dGhlIHNhbXBsZSBub25jZQ==":                 "the WebSocket key of RFC 6455's example",
	"s3pPLMBiTxaQ9kYGzzhZRbK+xOo=":             "the WebSocket accept value of RFC 6455's example",
	"QWxhZGRpbjpvcGVuIHNlc2FtZQ==":             "the Basic credentials of RFC 7617's example",
	"AKIAIOSFODNN7EXAMPLE":                     "AWS's documented example access key",
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "AWS's documented example secret key",
}

// GenericNotSecret says why a value gitleaks' generic-api-key found (match is the whole
// match, key and operator included) is not a secret, "" when it may be one: a sample
// (LooksLikeSample), a specification's example, base64 that decodes to a phrase or a sample
// ("not-secret", "the sample nonce"), or, under a key that does not name a password, secret
// or token, a value made of words (float32-slice, skip-tls-verify, read_only_mode); an
// environment variable's name (OPENAI_API_KEY) under any key.
func GenericNotSecret(match, value string) string {
	if why, ok := rfcSamples[value]; ok {
		return why
	}
	if LooksLikeSample(value) {
		return "a sample value"
	}
	if text, ok := decodedText(value); ok {
		if namesSample(strings.ToLower(text)) || strings.Count(strings.TrimSpace(text), " ") >= 2 {
			return "base64 of plain words (" + quoteShort(text) + ")"
		}
	}
	key := strings.ToLower(match)
	if i := strings.Index(match, value); i > 0 {
		key = key[:i]
	}
	if envVarName(value) {
		return "the name of an environment variable"
	}
	if wordShaped(value) && !containsAnyWord(key, "passw", "secret", "token", "credential", "pwd") {
		return "a name made of words, under a key that names no secret"
	}
	return ""
}

// envVarName reports a value spelled like an environment variable's name: upper-case words
// joined by underscores (OPENAI_API_KEY), each a word by wordShaped's measure.
func envVarName(v string) bool {
	if strings.ToUpper(v) != v || !strings.Contains(v, "_") {
		return false
	}
	return wordShaped(strings.ToLower(v))
}

// decodedText returns the base64 value decoded, when it is base64 of printable ASCII text.
func decodedText(v string) (string, bool) {
	if len(v) < 8 || len(v)%4 != 0 && !strings.HasSuffix(v, "=") {
		return "", false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "=")); err != nil {
			return "", false
		}
	}
	if len(b) == 0 {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return "", false
		}
	}
	return string(b), true
}

// wordShaped reports a value made of two or more words joined by - _ . or a space, each
// letters (a word may end in up to three digits: float32, sha256), a vowel in each longer word
// and no capital after a word's first letter: a name, not a key.
func wordShaped(v string) bool {
	// a command-line option and a short setting (--skip-tls-verify=1) are words too
	v = strings.TrimLeft(v, "-")
	if k := strings.IndexByte(v, '='); k > 0 && len(v)-k-1 <= 5 {
		v = v[:k]
	}
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !word(p) {
			return false
		}
	}
	return true
}

// word reports a word: lower-case letters (a capital first) with a vowel unless it is short,
// then at most three digits.
func word(p string) bool {
	letters := strings.TrimRight(p, "0123456789")
	if len(letters) < 2 || len(p)-len(letters) > 3 {
		return false
	}
	vowel := false
	for i := 0; i < len(letters); i++ {
		c := letters[i]
		switch {
		case c >= 'a' && c <= 'z':
		case i == 0 && c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		default:
			return false
		}
		vowel = vowel || strings.IndexByte("aeiouy", c) >= 0
	}
	return vowel || len(letters) <= 4 // tls, ssl, http, json
}

func containsAnyWord(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// quoteShort quotes at most 24 bytes of s for a message.
func quoteShort(s string) string {
	if len(s) > 24 {
		s = s[:24] + "..."
	}
	return `"` + s + `"`
}

// openSSHKey starts the base64 body of an OpenSSH private key ("openssh-key-v1\0" and the
// cipher name's length); openSSHNone follows it when the key is not encrypted (cipher "none").
const (
	openSSHKey  = "b3BlbnNzaC1rZXktdjEAAAAA"
	openSSHNone = "BG5vbmU"
)

// EncryptedKey reports a private key in text that is encrypted with a passphrase: a PEM
// block with "Proc-Type: 4,ENCRYPTED" (OpenSSL's traditional format), a PKCS#8 "ENCRYPTED
// PRIVATE KEY" block, or an OpenSSH key whose cipher is not "none". Such a key is of no use
// without its passphrase, which is not in the file.
func EncryptedKey(text string) bool {
	if strings.Contains(text, "Proc-Type: 4,ENCRYPTED") || strings.Contains(text, "-----BEGIN ENCRYPTED PRIVATE KEY-----") {
		return true
	}
	i := strings.Index(text, openSSHKey)
	return i >= 0 && !strings.HasPrefix(text[i+len(openSSHKey):], openSSHNone)
}
