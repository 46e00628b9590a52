package review

import "testing"

// TestAllowed: tollgate's inline marker on the finding's own line (gitleaks:allow is the
// secrets scanner's business, see secrets_test.go).
func TestAllowed(t *testing.T) {
	ids := []string{"secrets/github-pat", "github-pat"}
	tests := []struct {
		text string
		want bool
	}{
		{`token := "x"`, false},
		{`token := "x" // gitleaks:allow`, false},
		{`token := "x" // tollgate:allow`, true},
		{`token := "x" # tollgate:allow=secrets/github-pat`, true},
		{`token := "x" # tollgate:allow=github-pat`, true},
		{`token := "x" # tollgate:allow=secrets/github-pat, reviewed`, true},
		{`x = "tok" # "tollgate:allow=secrets/github-pat"`, true},
		{`/* tollgate:allow=secrets/github-pat*/`, true},
		{"x\t// tollgate:allow=secrets/github-pat\tmore", true},
		{`token # tollgate:allow=secrets/aws-access-token`, false},
		{`token # tollgate:allow=secrets/github-pat-extra`, false},
		{`token # tollgate:allow=secrets/github`, false},
		{`token # tollgate:allow=`, false},
		// the next-line form applies to the following line, not this one
		{`token # tollgate:allow-next-line`, false},
		{`token # tollgate:allow-next-line tollgate:allow`, true},
		{`token # tollgate:allow=secrets/aws tollgate:allow=secrets/github-pat`, true},
		{`token # tollgate:allow=secrets/aws tollgate:allow-next-line`, false},
	}
	for _, tt := range tests {
		if got := markerAllows(tt.text, allowMarker, ids...); got != tt.want {
			t.Errorf("allowed(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestMarkerAllows(t *testing.T) {
	cases := []struct {
		text, marker string
		ids          []string
		want         bool
	}{
		{"x // tollgate:allow", allowMarker, []string{"tollgate/a"}, true},
		{"x // tollgate:allow=tollgate/a", allowMarker, []string{"tollgate/a", "a"}, true},
		{"x // tollgate:allow=a", allowMarker, []string{"tollgate/a", "a"}, true},
		{"x // tollgate:allow=tollgate/b", allowMarker, []string{"tollgate/a", "a"}, false},
		{"x // tollgate:allowed", allowMarker, []string{"tollgate/a"}, false},
		{"// tollgate:allow-next-line", allowMarker, []string{"tollgate/a"}, false},
		{"// tollgate:allow-next-line", allowMarker + "-next-line", []string{"tollgate/a"}, true},
		{"// tollgate:allow-next-line=tollgate/b", allowMarker + "-next-line", []string{"tollgate/a"}, false},
		{"x", allowMarker, []string{"tollgate/a"}, false},
	}
	for _, c := range cases {
		if got := markerAllows(c.text, c.marker, c.ids...); got != c.want {
			t.Errorf("markerAllows(%q, %q, %v) = %v, want %v", c.text, c.marker, c.ids, got, c.want)
		}
	}
}
