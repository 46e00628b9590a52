package redact

import "testing"

// TestGenericNotSecret: generic-api-key's values that are names, samples and RFC examples are
// told apart from random keys (issue 30, cause 7).
func TestGenericNotSecret(t *testing.T) {
	cases := []struct {
		match, value string
		notSecret    bool
	}{
		{`key := "float32-slice"`, "float32-slice", true},
		{`Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==`, "dGhlIHNhbXBsZSBub25jZQ==", true},
		{`--auth-mode=skip-tls-verify=1`, "skip-tls-verify=1", true},
		{`API_OPTS="--api-skip-tls-verify=1"`, "--api-skip-tls-verify=1", true},
		{`cache_key = "read_only_mode"`, "read_only_mode", true},
		{`api_key = "your-api-key-here"`, "your-api-key-here", true},
		{`api_key = "AKIAIOSFODNN7EXAMPLE"`, "AKIAIOSFODNN7EXAMPLE", true},
		{`token = "abcdef0123456789xyz"`, "abcdef0123456789xyz", true},
		{`openai_api_key = "OPENAI_API_KEY"`, "OPENAI_API_KEY", true},
		{`secret_key = "DJANGO_SECRET_KEY"`, "DJANGO_SECRET_KEY", true},
		// secrets
		{`api_key = "Xk3p9QzL7wVn2RtY8bHc4Jm6"`, "Xk3p9QzL7wVn2RtY8bHc4Jm6", false},
		{`password = "correct-horse-battery-staple"`, "correct-horse-battery-staple", false},
		{`secret_token = "plain-words-value"`, "plain-words-value", false},
		{`api_key = "AKZ7Q2MXV4_KJ5T3WRNQ8P"`, "AKZ7Q2MXV4_KJ5T3WRNQ8P", false},
		{`auth = "c2VjcmV0OnE4V3oyTG1SNXRYdjk="`, "c2VjcmV0OnE4V3oyTG1SNXRYdjk=", false},
		{`api_key = "9f86d081884c7d659a2feaa0c55ad015"`, "9f86d081884c7d659a2feaa0c55ad015", false},
	}
	for _, c := range cases {
		if got := GenericNotSecret(c.match, c.value) != ""; got != c.notSecret {
			t.Errorf("GenericNotSecret(%q, %q) = %v (%q), want %v", c.match, c.value, got, GenericNotSecret(c.match, c.value), c.notSecret)
		}
	}
}

// TestLooksLikeSample: samples name themselves or run a sequence; random values do not.
func TestLooksLikeSample(t *testing.T) {
	for _, v := range []string{"AKIAIOSFODNN7EXAMPLE", "sk_test_1234567890", "xxxxxxxxxxxx", "dummy-token", "ghp_000000000000000000000000000000000000", "abcdefghijkl"} {
		if !LooksLikeSample(v) {
			t.Errorf("LooksLikeSample(%q) = false", v)
		}
	}
	for _, v := range []string{"ghp_q8Wz2LmR5tXv9KpB3nYc7HdJ4sFg6AeU1oQi", "AKIAZ7Q2MXV4KJ5T3WRN", "Zq8#vLw2!pR7tYx"} {
		if LooksLikeSample(v) {
			t.Errorf("LooksLikeSample(%q) = true", v)
		}
	}
}

// FuzzGenericNotSecret: any match and value are judged without a panic, the same way twice,
// and a value that names itself an example is always a sample.
func FuzzGenericNotSecret(f *testing.F) {
	f.Add(`key := "float32-slice"`, "float32-slice")
	f.Add(`Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==`, "dGhlIHNhbXBsZSBub25jZQ==")
	f.Add(`api_key = "Xk3p9QzL7wVn2RtY8bHc4Jm6"`, "Xk3p9QzL7wVn2RtY8bHc4Jm6")
	f.Add("--x=", "=")
	f.Fuzz(func(t *testing.T, match, value string) {
		a, b := GenericNotSecret(match, value), GenericNotSecret(match, value)
		if a != b {
			t.Fatalf("GenericNotSecret(%q, %q) = %q then %q", match, value, a, b)
		}
		if !LooksLikeSample(value + "EXAMPLE") {
			t.Fatalf("LooksLikeSample(%q) = false", value+"EXAMPLE")
		}
	})
}
