package model

import (
	"context"
	"strings"
	"testing"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff/difftest"
	"github.com/tollgate-dev/tollgate/review/model/provider"
)

// recordingProvider answers every request with answer and keeps what it was sent.
type recordingProvider struct {
	answer string
	sent   []string
}

func (p *recordingProvider) Name() string  { return "fake" }
func (p *recordingProvider) Model() string { return "m" }
func (p *recordingProvider) Complete(_ context.Context, system, user string) (provider.Answer, error) {
	p.sent = append(p.sent, system+"\n"+user)
	return provider.Answer{Text: p.answer}, nil
}

// TestModelContextFileWithSecretLeftOut: with block_on_secret a context file that holds a
// secret is left out (and the report says so) instead of stopping the send; the secret is never
// sent, and the change is still reviewed.
func TestModelContextFileWithSecretLeftOut(t *testing.T) {
	const token = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"go.mod":      difftest.Reg("module example.com/app\n\ngo 1.22\n"),
		"cmd/main.go": difftest.Reg("package main\n\nimport \"example.com/app/lib\"\n\nfunc main() { lib.A() }\n"),
		"lib/a.go":    difftest.Reg("package lib\n\nconst tok = \"" + token + "\"\n\nfunc A() {}\n"),
		"lib/b.go":    difftest.Reg("package lib\n\nconst B = 2\n"),
	}})
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProvider{answer: `{"findings": []}`}
	step := &Step{Provider: p, Detector: det}
	var res review.Result
	cfg := limitsCfg(20, 200000, 2)
	cfg.Model.Verify = false
	step.Review(context.Background(), cfg, difftest.RepoUnit(r, "", "cmd/main.go"), nil, &res)
	if len(p.sent) != 1 {
		t.Fatalf("want one request, got %d (not run: %v)", len(p.sent), res.NotRun)
	}
	if strings.Contains(p.sent[0], token) {
		t.Fatal("the secret was sent")
	}
	if !strings.Contains(p.sent[0], `"lib/b.go"`) || strings.Contains(p.sent[0], `"lib/a.go"`) {
		t.Errorf("want lib/b.go as context and lib/a.go left out:\n%s", p.sent[0])
	}
	found := false
	for _, l := range res.Limits {
		found = found || strings.Contains(l, "context file lib/a.go left out")
	}
	if !found {
		t.Errorf("the report does not say the context file was left out: %v", res.Limits)
	}
}

func TestExtractFindingsMergesEveryObject(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{`{"findings": []} {"findings": [{"path": "a", "evidence": "x"}]}`, 1},
		{"quoted: {\"findings\": []}\n```json\n{\"findings\": [{\"path\": \"a\"}, {\"path\": \"b\"}]}\n```", 2},
		{`{"findings": [{"path": "a"}]} and {"findings": [{"path": "b"}]}`, 2},
		{`{"findings": [{"path": "a", "message": "{\"findings\": []}"}]}`, 1},
	}
	for _, tt := range tests {
		got, err := extractFindings(tt.text)
		if err != nil || len(got) != tt.want {
			t.Errorf("extractFindings(%q) = %d findings, %v; want %d", tt.text, len(got), err, tt.want)
		}
	}
	if _, err := extractFindings(`no json {"other": 1}`); err == nil {
		t.Error("an answer without a findings object is accepted")
	}
}

func TestExtractVerdictsOnlyUnanimousRejectRejects(t *testing.T) {
	v, err := extractVerdicts(`{"verdicts": [{"id": "F1", "decision": "reject"}]} {"verdicts": [{"id": "F1", "decision": "keep"}, {"id": "F2", "decision": "reject"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if isReject(v["F1"]) || !isReject(v["F2"]) {
		t.Errorf("verdicts = %+v; want F1 kept (conflict) and F2 rejected", v)
	}
}

// TestCacheKeyCoversEverythingThatDecides: the verdict cache key changes with the policy text,
// the model name, the base URL, the provider, verification (and the material); the agent CLI's
// arguments are part of provider.Identity (tested there).
func TestCacheKeyCoversEverythingThatDecides(t *testing.T) {
	t.Setenv("TOLLGATE_TEST_KEY", "k")
	newP := func(kind, name, base string) provider.Provider {
		p, err := provider.New(policy.Model{Provider: kind, Name: name, BaseURL: base, APIKeyEnv: "TOLLGATE_TEST_KEY"}, nil, policy.NewProcs(), "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := func(p provider.Provider, system, user string) string {
		return (&Step{Provider: p}).cacheKey(system, true, user)
	}
	oa := newP("openai", "m", "http://127.0.0.1:1/v1")
	base := key(oa, "policy", "material")
	if key(newP("openai", "m", "http://127.0.0.1:1/v1"), "policy", "material") != base {
		t.Fatal("the key is not stable")
	}
	variants := map[string]string{
		"policy text": key(oa, "policy\n\nWorkspace policy:\nmore", "material"),
		"material":    key(oa, "policy", "material 2"),
		"model name":  key(newP("openai", "m2", "http://127.0.0.1:1/v1"), "policy", "material"),
		"base URL":    key(newP("openai", "m", "http://127.0.0.1:2/v1"), "policy", "material"),
		"provider":    key(newP("anthropic", "m", "http://127.0.0.1:1/v1"), "policy", "material"),
		"verify":      (&Step{Provider: oa}).cacheKey("policy", false, "material"),
	}
	for what, k := range variants {
		if k == base {
			t.Errorf("the cache key does not change with the %s", what)
		}
	}
}

// TestModelPolicyTextPassesTheFilter: the user's policy text goes into the system prefix only
// after the filter: a token in it is never sent.
func TestModelPolicyTextPassesTheFilter(t *testing.T) {
	const token = "ghp_R4nd0mT0k3nW1thEnoughEntropyAbCdEf12"
	r := difftest.NewRepo(map[string]map[string]difftest.File{"": {
		"cmd/main.go": difftest.Reg("package main\n\nfunc main() {}\n"),
	}})
	det, err := redact.New(redact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProvider{answer: `{"findings": []}`}
	step := &Step{Provider: p, Detector: det}
	var res review.Result
	cfg := limitsCfg(20, 200000, 2)
	cfg.Model.Verify = false
	cfg.PolicyText = "Our CI token is " + token + "; never flag it."
	step.Review(context.Background(), cfg, difftest.RepoUnit(r, "", "cmd/main.go"), nil, &res)
	if len(p.sent) != 1 {
		t.Fatalf("want one request, got %d (not run: %v)", len(p.sent), res.NotRun)
	}
	if strings.Contains(p.sent[0], token) || !strings.Contains(p.sent[0], "Our CI token is [REDACTED:") {
		t.Errorf("the policy text was not redacted:\n%s", p.sent[0])
	}
}

func limitsCfg(files, bytes, rounds int) policy.Config {
	cfg := policy.Default()
	cfg.Context = policy.ContextLimits{MaxFiles: files, MaxTotalBytes: bytes, MaxExpansionRounds: rounds}
	return cfg
}
