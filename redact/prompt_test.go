package redact

import (
	"strings"
	"testing"
)

const (
	ghToken = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	awsID   = "AKIAQX7RZ2TF5WJ3LBQM"
)

func TestRedactReplacesValuesStably(t *testing.T) {
	d := newDefault(t)
	in := "a := \"" + ghToken + "\"\nb := \"" + ghToken + "\"\npassword: Zq8mK2vR9\nid = " + awsID + "\n"
	out, found, err := d.Redact(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{ghToken, "Zq8mK2vR9", awsID} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q survived redaction:\n%s", secret, out)
		}
	}
	if n := strings.Count(out, "[REDACTED:secrets/github-pat:1]"); n != 2 {
		t.Errorf("the same token should get the same placeholder twice, got %d in:\n%s", n, out)
	}
	if !strings.Contains(out, "[REDACTED:tollgate/hardcoded-credential:") {
		t.Errorf("the password is not replaced by a tollgate placeholder:\n%s", out)
	}
	// the identifiers around the values stay: only values are replaced
	for _, keep := range []string{"a := \"", "password: ", "id = "} {
		if !strings.Contains(out, keep) {
			t.Errorf("redaction removed %q:\n%s", keep, out)
		}
	}
	if len(found) < 3 {
		t.Errorf("want at least 3 secrets found, got %v", len(found))
	}
	// nothing found in the output
	if again := d.mustFind(out); len(again) > 0 {
		t.Errorf("the redacted text still holds secrets: %v", again)
	}
}

func TestRedactCleanTextUnchanged(t *testing.T) {
	d := newDefault(t)
	in := "func main() {\n\tfmt.Println(\"hello\")\n}\n"
	out, found, err := d.Redact(in)
	if err != nil || out != in || len(found) != 0 {
		t.Fatalf("clean text changed: %q %v %v", out, found, err)
	}
}

func TestRedactPrivateKey(t *testing.T) {
	d := newDefault(t)
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----"
	out, _, err := d.Redact("key:\n" + key + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun") {
		t.Fatalf("key material survived:\n%s", out)
	}
}

// FuzzRedact: no input makes a detected secret survive redaction.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"token = \"" + ghToken + "\"",
		"password: Zq8mK2vR9\nx",
		"postgres://app:Zq8mK2vR9@db/app " + awsID,
		ghToken + ghToken,
		"<password>" + ghToken + "</password>",
	} {
		f.Add(s)
	}
	d, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return
		}
		found := d.mustFind(in)
		out, _, err := d.Redact(in)
		if err != nil {
			return // refusing to redact is safe: the caller blocks the send
		}
		for _, s := range found {
			if strings.Contains(out, s.Value) {
				t.Fatalf("secret %q (%s) survived redaction of %q: %q", s.Value, s.RuleID, in, out)
			}
		}
		if again := d.mustFind(out); len(again) > 0 {
			t.Fatalf("redacted output of %q still holds %v", in, again)
		}
	})
}

func newDefault(t *testing.T) *Detector {
	t.Helper()
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFilterRedactsSplitToken: a token split by invisible characters leaves the outgoing
// filter replaced, with the invisible characters inside the replaced text.
func TestFilterRedactsSplitToken(t *testing.T) {
	f, err := NewFilter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"t := \"" + ghToken[:10] + "\u200b" + ghToken[10:] + "\"\n",
		"export GH=" + ghToken[:6] + "\u2060" + ghToken[6:20] + "\ufe0f" + ghToken[20:] + "\nnext line\n",
	} {
		found, err := f.FindAt("a.go", in)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := f.Redact(in, found)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{ghToken[6:10], ghToken[10:20], ghToken[20:]} {
			if strings.Contains(out, part) {
				t.Errorf("part %q of a split token survived redaction:\n%q", part, out)
			}
		}
		if !strings.Contains(out, "[REDACTED:secrets/github-pat:") {
			t.Errorf("the split token is not replaced:\n%q", out)
		}
	}
}

// TestFilterRedactsTagToken: a token spelled in Unicode tag characters (invisible, each one an
// ASCII character) is found and replaced by the outgoing filter, not passed on as it is.
func TestFilterRedactsTagToken(t *testing.T) {
	f, err := NewFilter(nil)
	if err != nil {
		t.Fatal(err)
	}
	var tags strings.Builder
	for _, c := range "token = " + ghToken {
		tags.WriteRune(0xE0000 + c)
	}
	in := "# note" + tags.String() + "\nok := 1\n"
	found, err := f.FindAt("a.go", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatalf("no secret found in a token spelled in tag characters")
	}
	out, _, err := f.Redact(in, found)
	if err != nil {
		t.Fatal(err)
	}
	decoded, _ := decodeTags(out)
	if strings.Contains(decoded, ghToken[4:]) {
		t.Errorf("the token spelled in tag characters survived redaction:\n%q", decoded)
	}
	if !strings.Contains(out, "[REDACTED:secrets/github-pat:") || !strings.Contains(out, "ok := 1") {
		t.Errorf("the hidden token is not replaced, or more went:\n%q", out)
	}
}
