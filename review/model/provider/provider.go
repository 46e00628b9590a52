package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/policy/egress"
)

// Answer is one model reply.
type Answer struct {
	Text                                 string
	InputTokens, OutputTokens            int
	CacheReadTokens, CacheCreationTokens int
}

// Provider sends one request: a stable system prefix and the user message.
type Provider interface {
	Name() string
	Model() string
	Complete(ctx context.Context, system, user string) (Answer, error)
}

// maxAnswerBytes bounds a reply read from a server or CLI.
const maxAnswerBytes = 8 << 20

// New builds the configured provider. HTTP providers reach the network only through gate;
// agent CLIs run only through procs, read-only, in scratch (outside the repository). The
// variable model.api_key_env names is marked secret on procs (when given): no other process
// started through it gets the key.
func New(m policy.Model, gate *egress.Gate, procs *policy.Procs, scratch string) (Provider, error) {
	key := ""
	if m.APIKeyEnv != "" {
		key = os.Getenv(m.APIKeyEnv)
		if procs != nil {
			procs.MarkSecretEnv(m.APIKeyEnv)
		}
	}
	switch m.Provider {
	case "openai":
		return newOpenAI(m, key, gate)
	case "anthropic":
		return newAnthropic(m, key, gate)
	case "claude-cli", "codex-cli", "gemini-cli":
		return newAgentCLI(m, gate, procs, scratch)
	}
	return nil, fmt.Errorf("unknown model.provider %q", m.Provider)
}

func newOpenAI(m policy.Model, key string, gate *egress.Gate) (Provider, error) {
	if m.BaseURL == "" {
		return nil, errors.New("model.base_url is required for the openai provider (e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1)")
	}
	if m.APIKeyEnv != "" && key == "" {
		return nil, fmt.Errorf("model.api_key_env names %s, but it is not set", m.APIKeyEnv)
	}
	return &openAI{model: m.Name, base: strings.TrimRight(m.BaseURL, "/"), key: key, gate: gate}, nil
}

func newAnthropic(m policy.Model, key string, gate *egress.Gate) (Provider, error) {
	base := m.BaseURL
	if base == "" {
		base = "https://api.anthropic.com"
	}
	if key == "" {
		return nil, fmt.Errorf("the anthropic provider needs an API key: set model.api_key_env to the name of the variable that holds it (it is %q now)", m.APIKeyEnv)
	}
	return &anthropic{model: m.Name, base: strings.TrimRight(base, "/"), key: key, gate: gate}, nil
}

// Identity is how a provider is reached or run (endpoint, argv): part of the verdict cache
// key, so another server or other CLI flags never reuse a verdict.
func Identity(p Provider) string {
	switch p := p.(type) {
	case *openAI:
		return p.base
	case *anthropic:
		return p.base
	case *agentCLI:
		return strings.Join(p.argv(), "\x00")
	}
	return ""
}
