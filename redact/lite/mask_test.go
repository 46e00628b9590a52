package lite

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const placeholder = "[line masked: it holds a secret]"

func TestMaskValue(t *testing.T) {
	tests := []struct{ secret, want string }{
		{ghPAT, "ghp_****"},               // 40 runes: 4 shown
		{awsKey, "AKIA****"},              // 20 runes: 4 shown
		{"abcdefghijklmnopqrs", "ab****"}, // 19 runes: 2 shown
		{"abcdefghijkl", "ab****"},        // 12 runes: 2 shown
		{"abcdefghijk", "****"},           // 11 runes: none shown
		{"short", "****"},
		{"ééééééééééééééééééééé", "éééé****"}, // runes, not bytes
		{pemKey, "-----BEGIN RSA PRIVATE KEY-----****"},
		// a secret that is only a PEM header shows no more than a long secret would
		{"-----BEGIN SECRET-----", "----****"},
	}
	for _, tt := range tests {
		if got := MaskValue(tt.secret); got != tt.want {
			t.Errorf("MaskValue(%q) = %q, want %q", tt.secret, got, tt.want)
		}
	}
}

func TestMask(t *testing.T) {
	pemLines := strings.Split(pemKey, "\n")
	long := strings.Repeat("a", 200)
	tests := []struct {
		name    string
		text    string
		secrets []string
		want    string
	}{
		{"token in a line", `token := "` + ghPAT + `"`, []string{ghPAT}, `token := "ghp_****"`},
		{"value and match", `token := "` + ghPAT + `"`, []string{ghPAT, `"` + ghPAT + `"`}, `token := "ghp_****"`},
		{"trimmed", "\t  key: " + awsKey + "  ", []string{awsKey}, "key: AKIA****"},
		{"twice on a line", awsKey + "," + awsKey, []string{awsKey}, "AKIA****,AKIA****"},
		{"two secrets", awsKey + " " + ghPAT, []string{awsKey, ghPAT}, "AKIA**** ghp_****"},
		{"medium secret", "pw=abcdefghijkl;", []string{"abcdefghijkl"}, "pw=ab****;"},
		{"short secret", "pw=abcdefgh;", []string{"abcdefgh"}, "pw=****;"},
		{"no secret given", "  plain line  \nsecond", nil, "plain line"},
		{"empty secret ignored", "plain", []string{""}, "plain"},
		{"first line only", "a = 1\nb = " + ghPAT, []string{ghPAT}, "a = 1"},
		{"first line only, CRLF", "a = 1\r\nb = 2", []string{ghPAT}, "a = 1"},
		{"private key block", pemKey, []string{pemKey}, "-----BEGIN RSA PRIVATE KEY-----****"},
		{"private key block after code", `key = "` + pemKey + `"`, []string{pemKey}, `key = "-----BEGIN RSA PRIVATE KEY-----****"`},
		{"a body line of the block", pemLines[2], []string{pemKey}, "****"},
		{"a body line with code around it", `  "` + pemLines[1] + `\n" +`, []string{pemKey}, `"****\n" +`},
		{"the END line is masked too", pemLines[len(pemLines)-1], []string{pemKey}, "****"},
		{"a cut secret masks the line", "tail: " + ghPAT[10:], []string{ghPAT}, placeholder},
		{"a 6-byte run masks the line", "x" + ghPAT[5:11] + "y", []string{ghPAT}, placeholder},
		{"a 5-byte run does not", "x" + ghPAT[5:10] + "y", []string{ghPAT}, "x" + ghPAT[5:10] + "y"},
		{"the shown prefix is not a leak", "prefix ghp_ only", []string{ghPAT}, "prefix ghp_ only"},
		{"header-only secret", "h: -----BEGIN SECRET-----", []string{"-----BEGIN SECRET-----"}, "h: ----****"},
		{"long line truncated", long, nil, strings.Repeat("a", 160) + "…"},
		{"long line truncated on a rune", strings.Repeat("é", 170), nil, strings.Repeat("é", 160) + "…"},
		{"secret past the cut", long + ghPAT, []string{ghPAT}, strings.Repeat("a", 160) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Mask(tt.text, tt.secrets...)
			if got != tt.want {
				t.Errorf("Mask = %q, want %q", got, tt.want)
			}
		})
	}
}

// checkMasked fails if out shows secret, or a 6-byte run of the part MaskValue hides (other
// than a run the shown prefix holds anyway, such as "PRIVAT" in a PEM BEGIN line).
func checkMasked(t *testing.T, out, secret string) {
	t.Helper()
	if out == placeholder {
		return
	}
	if strings.Contains(out, secret) {
		t.Fatalf("Mask output %q holds the secret %q", out, secret)
	}
	sh := ShapeOf(secret)
	if len(sh.Hidden) == 0 || strings.Contains(sh.Masked, secret) {
		t.Fatalf("MaskValue(%q) = %q shows the whole secret", secret, sh.Masked)
	}
	for _, hidden := range sh.Hidden {
		for i := 0; i+6 <= len(hidden); i++ {
			if run := hidden[i : i+6]; strings.Contains(out, run) && !inAny(sh.Shown, run) {
				t.Fatalf("Mask output %q holds %q of the secret %q", out, run, secret)
			}
		}
	}
	if n := utf8.RuneCountInString(out); n > MaxEvidence+1 {
		t.Fatalf("Mask output is %d runes long", n)
	}
	if strings.ContainsAny(out, "\r\n") {
		t.Fatalf("Mask output %q has more than one line", out)
	}
}

// FuzzMask: for any secret of at least 8 bytes embedded in any line, Mask shows neither the
// secret nor any 6-byte run of its hidden part; for a PEM block built from the input, no body
// line shows, whichever of the block's lines the text starts at.
func FuzzMask(f *testing.F) {
	f.Add("token := \"", ghPAT, "\"", false)
	f.Add("key: ", awsKey, "", false)
	f.Add("", "abcdefgh", "abcdefgh", false)
	f.Add("ghp_R4nd0m", ghPAT, ghPAT[20:], false)
	f.Add("x = ", "-----BEGIN SECRET-----", "", false)
	f.Add("", "ééééééééééééé", "é", false)
	f.Add("k = \"", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs", "\"", true)
	f.Add("", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", true)
	f.Fuzz(func(t *testing.T, prefix, secret, suffix string, pem bool) {
		// Mask is quadratic in a many-line secret; findings are small, so keep inputs small
		// and the fuzzer fast.
		if len(prefix)+len(secret)+len(suffix) > 4096 {
			return
		}
		if !pem {
			if len(secret) < 8 {
				return
			}
			out := Mask(prefix+secret+suffix, secret)
			checkMasked(t, out, secret)
			return
		}
		// A PEM block whose body is the fuzzed secret, in 64-byte lines.
		body := strings.ReplaceAll(secret, "\n", "")
		if len(body) < 8 {
			return
		}
		var lines []string
		for len(body) > 64 {
			lines = append(lines, body[:64])
			body = body[64:]
		}
		lines = append(lines, body)
		block := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(lines, "\n") + "\n-----END RSA PRIVATE KEY-----"
		texts := []string{prefix + block + suffix}
		for i := range lines {
			texts = append(texts, prefix+strings.Join(lines[i:], "\n")+"\n-----END RSA PRIVATE KEY-----"+suffix)
		}
		for _, text := range texts {
			out := Mask(text, block)
			checkMasked(t, out, block)
			if out == placeholder {
				continue
			}
			for _, l := range lines {
				if l = strings.TrimSpace(l); len(l) >= 6 && strings.Contains(out, l) {
					t.Fatalf("Mask(%q) = %q shows the body line %q", text, out, l)
				}
			}
		}
	})
}

// TestCredentialValues: every credential of a command line is found, several on one line and
// on several lines.
func TestCredentialValues(t *testing.T) {
	text := "mysql -uroot -pZq8mK2vR9x && curl -u a:Yt7nL3wQ8p https://x/\nsshpass -p 'Wr5tB9kM2z' ssh h"
	got := CredentialValues(text)
	want := []string{"Zq8mK2vR9x", "Yt7nL3wQ8p", "Wr5tB9kM2z"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("CredentialValues = %q, want %q", got, want)
	}
	if got := CredentialValues(`mysql -uroot -p"$PASS" && curl -u "$U:$P" x`); len(got) != 0 {
		t.Errorf("variables reported: %q", got)
	}
}
