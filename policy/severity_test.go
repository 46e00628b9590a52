package policy

import (
	"encoding/json"
	"testing"
)

func TestSeverity(t *testing.T) {
	tests := []struct {
		in   string
		want Severity
		ok   bool
	}{
		{"info", Info, true},
		{"low", Low, true},
		{"medium", Medium, true},
		{"high", High, true},
		{"critical", Critical, true},
		{"HIGH", High, true},
		{" Medium ", Medium, true},
		{"", Info, false},
		{"warning", Info, false},
		{"hi", Info, false},
		{"3", Info, false},
	}
	for _, tt := range tests {
		got, err := ParseSeverity(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if !(Info < Low && Low < Medium && Medium < High && High < Critical) {
		t.Error("severities are not ordered lowest first")
	}
	var zero Severity
	if zero != Info {
		t.Error("the zero Severity is not Info")
	}
	for s, name := range map[Severity]string{Info: "info", Low: "low", Medium: "medium", High: "high", Critical: "critical", -1: "severity(-1)", 5: "severity(5)"} {
		if got := s.String(); got != name {
			t.Errorf("Severity(%d).String() = %q, want %q", int(s), got, name)
		}
	}
	// JSON carries the name, both ways.
	b, err := json.Marshal(map[string]Severity{"s": Critical})
	if err != nil || string(b) != `{"s":"critical"}` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	var back map[string]Severity
	if err := json.Unmarshal([]byte(`{"s":"Low"}`), &back); err != nil || back["s"] != Low {
		t.Errorf("Unmarshal = %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"s":"nope"}`), &back); err == nil {
		t.Error("Unmarshal of an unknown severity succeeded")
	}
}
