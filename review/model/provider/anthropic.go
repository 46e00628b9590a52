package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/review"
)

// anthropic is the Anthropic Messages API.
type anthropic struct {
	model, base, key string
	gate             *egress.Gate
}

func (p *anthropic) Name() string  { return "anthropic" }
func (p *anthropic) Model() string { return p.model }

type anthropicReply struct {
	Type    string `json:"type"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

func (p *anthropic) Complete(ctx context.Context, system, user string) (Answer, error) {
	body := map[string]any{
		"model":      p.model,
		"max_tokens": 8192,
		"system": []map[string]any{{
			"type": "text", "text": system,
			"cache_control": map[string]string{"type": "ephemeral"},
		}},
		"messages": []map[string]any{{"role": "user", "content": user}},
	}
	headers := map[string]string{"x-api-key": p.key, "anthropic-version": "2023-06-01"}
	raw, err := postJSON(ctx, p.gate, p.base+"/v1/messages", headers, body)
	if err != nil {
		return Answer{}, err
	}
	var r anthropicReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable response: %v", err)
	}
	if err := stopReason(r.StopReason); err != nil {
		return Answer{}, err
	}
	var text strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	if text.Len() == 0 {
		return Answer{}, errors.New("the response has no text")
	}
	return Answer{Text: text.String(), InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		CacheReadTokens: r.Usage.CacheReadInputTokens, CacheCreationTokens: r.Usage.CacheCreationInputTokens}, nil
}

// stopReason is nil for a reply that ended its turn, and says why the answer is not whole
// otherwise.
func stopReason(s string) error {
	switch s {
	case "end_turn", "stop_sequence":
		return nil
	case "max_tokens", "model_context_window_exceeded":
		return fmt.Errorf("the answer was cut off (stop_reason: %s)", s)
	case "refusal":
		return errors.New("the model refused (stop_reason: refusal)")
	case "":
		return errors.New("the answer has no stop_reason: it may be incomplete")
	}
	// pause_turn (a server tool paused the turn), tool_use, or anything newer: not a complete
	// answer.
	return fmt.Errorf("the answer is not complete (stop_reason: %s)", review.FirstLine(s))
}
