package rules

import (
	"context"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
)

// keyFileSeverityOf scans one added file (binary: a file of no lines) and returns the
// severity of its private-key-file finding, 0 if there is none.
func keyFileSeverityOf(t *testing.T, path, text string, binary bool) policy.Severity {
	t.Helper()
	u := difftest.AddedUnit(path, text)
	if binary {
		u.Files[0].Binary, u.Files[0].Hunks = true, nil
	}
	var r review.Result
	if err := (Scanner{}).Scan(context.Background(), u, &r); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.RuleID == privateKeyFile.ID {
			return f.Severity
		}
	}
	return 0
}

// TestKeyFileSeverity: an unencrypted private key and a key store block; a key encrypted with
// a passphrase, and a key store named for its default password or as a dummy, are low.
func TestKeyFileSeverity(t *testing.T) {
	body := "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
	pem := func(kind, headers string) string {
		return "-----BEGIN " + kind + "-----\n" + headers + body + "-----END " + kind + "-----\n"
	}
	openssh := func(cipher string) string {
		return "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + cipher + "AAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"
	}
	cases := []struct {
		name, path, text string
		binary           bool
		blocking         bool
	}{
		// catches: still block
		{"rsa key", "deploy/server.key", pem("RSA PRIVATE KEY", ""), false, true},
		{"pkcs8 key", "certs/api.pem", pem("PRIVATE KEY", ""), false, true},
		{"openssh key, no cipher", "keys/id_ed25519", openssh("BG5vbmU"), false, true},
		{"prod key store", "config/prod.p12", "", true, true},
		{"jks", "src/main/resources/server.jks", "", true, true},
		{"changelog-named store is no default", "release/change.jks", "", true, true},
		// left at low
		{"traditional encrypted", "deploy/server.key", pem("RSA PRIVATE KEY", "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0F3A\n\n"), false, false},
		{"pkcs8 encrypted", "certs/api.pem", pem("ENCRYPTED PRIVATE KEY", ""), false, false},
		{"openssh aes256-ctr", "keys/id_ed25519", openssh("CmFlczI1Ni1jdHI"), false, false},
		{"changeit store", "certs/truststore-changeit.jks", "", true, false},
		{"changeme p12", "pkcs12.changeme.p12", "", true, false},
		{"dummy store", "config/dummy.jks", "", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sev := keyFileSeverityOf(t, c.path, c.text, c.binary)
			if sev == 0 {
				t.Fatalf("%s: no private-key-file finding", c.path)
			}
			if blocking := sev > policy.Low; blocking != c.blocking {
				t.Errorf("%s: severity %v, want blocking=%v", c.path, sev, c.blocking)
			}
		})
	}
}
