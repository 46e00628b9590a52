package lazyre

import "testing"

func TestCheckAll(t *testing.T) {
	ok := New(`a+b`)
	if err := CheckAll(); err != nil {
		t.Fatal(err)
	}
	if !ok.MatchString("xaab") {
		t.Fatal("a+b did not match xaab")
	}
	New(`(unclosed`)
	if err := CheckAll(); err == nil {
		t.Fatal("an invalid pattern passed CheckAll")
	}
	all = all[:len(all)-1]
}
