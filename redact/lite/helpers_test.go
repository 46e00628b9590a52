package lite

import (
	"encoding/base64"
	"strings"
)

// Test secrets: shaped like real ones, valid for nothing.
const (
	ghPAT  = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	awsKey = "AKIAZ7Q2MXV4KJ5T3WRN"
)

// pemKey is a PEM block of deterministic bytes: a header, 64-column body lines and a footer.
var pemKey = func() string {
	raw := make([]byte, 300)
	for i := range raw {
		raw[i] = byte(i*131 + 7)
	}
	body := base64.StdEncoding.EncodeToString(raw)
	var b strings.Builder
	b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for len(body) > 64 {
		b.WriteString(body[:64] + "\n")
		body = body[64:]
	}
	b.WriteString(body + "\n-----END RSA PRIVATE KEY-----")
	return b.String()
}()

// containsValue reports whether a reported value occurs in the line it was found on.
func containsValue(line, v string) bool { return v != "" && strings.Contains(line, v) }
