package rules

import (
	"path"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
)

// Key files that hold no usable secret are low, not blocking (tollgate/private-key-file):
//   - a key store (PKCS#12, JKS, BKS) whose file name names a well-known default password
//     (changeit, changeme) or calls it a dummy, fake, sample or example: such stores are
//     fixtures, and their password is public (a binary key store's content is not read, so
//     its name is the evidence);
//   - a PEM or OpenSSH private key encrypted with a passphrase (redact.EncryptedKey), of no
//     use without it.
//
// An unencrypted private key still blocks, whatever its name.

// defaultStoreWords name a key store as a fixture or by its well-known default password.
var defaultStoreWords = []string{"changeit", "changeme", "dummy", "fake", "sample", "example"}

// keyFileSeverity lowers a private-key-file finding of what (a fileRule's what) at path p
// with content text ("" for a binary file) when the file holds no usable secret.
func keyFileSeverity(what, p, text string, sev policy.Severity, msg string) (policy.Severity, string) {
	if sev <= policy.Low {
		return sev, msg
	}
	switch {
	case what == keyStoreWhat && containsAnyOf(strings.ToLower(path.Base(p)), defaultStoreWords):
		return lowerFor(sev, msg, "named for a well-known default password or as a dummy: a fixture")
	case (what == pemKeyWhat || what == sshKeyWhat) && redact.EncryptedKey(text):
		return lowerFor(sev, msg, "encrypted with a passphrase")
	}
	return sev, msg
}

func containsAnyOf(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
