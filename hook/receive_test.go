package hook

import (
	"strings"
	"testing"
)

func TestParseReceiveLines(t *testing.T) {
	zero := strings.Repeat("0", 40)
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 64)
	tests := []struct {
		name, in string
		want     []PushRef
		err      bool
	}{
		{"empty", "", nil, false},
		{"update", zero + " " + a + " refs/heads/main\n", []PushRef{{LocalRef: "refs/heads/main", LocalOID: a, RemoteRef: "refs/heads/main", RemoteOID: zero}}, false},
		{"sha256 and CRLF", b + " " + b + " refs/tags/v1\r\n\n", []PushRef{{LocalRef: "refs/tags/v1", LocalOID: b, RemoteRef: "refs/tags/v1", RemoteOID: b}}, false},
		{"pre-push shape", "refs/heads/main " + a + " refs/heads/main " + a + "\n", nil, true},
		{"short oid", "abc " + a + " refs/heads/x\n", nil, true},
		{"missing ref", zero + " " + a + "\n", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseReceiveLines(strings.NewReader(tt.in))
		if (err != nil) != tt.err {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: got %+v, want %+v", tt.name, got[i], tt.want[i])
			}
		}
	}
}
