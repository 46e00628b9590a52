package guard

import "testing"

// An open quote: bash runs the complete lines before the one that opens it, nothing of that
// line, and nothing joined to it by a continuation; the open line is judged closed, as what the
// agent means to run. Any other parse error is asked.
var unclosedTable = []tableRow{
	// nothing runs, and the line closed holds nothing to object to: no objection
	{"N", "echo 'unterminated"},
	{"N", "ls\necho \"find . -delete"},
	{"N", "sh -c \"echo 'x\""},
	{"N", "git log --format='%h %s"},
	// closed, the line is what the agent means to run: judged as if it ran
	{"A", "rm -rf / ; echo 'x"},
	{"A", "git reset --hard 'unterminated"},
	{"A", "git push --force origin main 'x"},
	{"A", "mkfs.ext4 /dev/sda \"oops"},
	{"A", "find . -delete 'x"},
	// the complete lines before it run, and are judged
	{"A", "rm -rf /\necho 'x"},
	{"A", "git reset --hard\nrg \"todo"},
	// a line joined to the open one by a continuation cannot be told apart by itself: asked
	{"A", "echo ok &&\nrm -rf / 'x"},
	{"A", "if true; then\necho 'x"},
	// an open quote that still spells a hook bypass is denied, as before
	{"D", "git commit --no-verify -m 'wip"},
	{"D", "echo ok\nHUSKY=0 git commit -m 'wip"},
	// other parse errors stay asked
	{"A", "echo $(("},
	{"A", "for x in; do"},
}

func TestUnclosedQuoteTable(t *testing.T) { checkRows(t, unclosedTable, testOptions(), "") }

// TestUnclosedQuoteNotAutoAllowed: guard.auto_allow never turns text tollgate did not read
// whole into Allow.
func TestUnclosedQuoteNotAutoAllowed(t *testing.T) {
	o := testOptions()
	o.AutoAllow = true
	if ans := Decide(Call{Kind: Shell, Command: "echo 'unterminated"}, o); ans.Verdict != NoObjection || ans.Rule != ruleUnrunnable {
		t.Errorf("got %s %s: %s", ans.Verdict, ans.Rule, ans.Reason)
	}
	if ans := Decide(Call{Kind: Shell, Command: "echo ok"}, o); ans.Verdict != Allow {
		t.Errorf("a read command under auto_allow: got %s %s", ans.Verdict, ans.Rule)
	}
}
