package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/review"
)

// openAI is an OpenAI-compatible chat completions endpoint (OpenAI, Ollama's /v1, ...).
type openAI struct {
	model, base, key string
	gate             *egress.Gate
}

func (p *openAI) Name() string  { return "openai" }
func (p *openAI) Model() string { return p.model }

type openAIReply struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

func (p *openAI) Complete(ctx context.Context, system, user string) (Answer, error) {
	body := map[string]any{
		"model": p.model,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
		},
		"temperature":     0,
		"response_format": map[string]string{"type": "json_object"},
	}
	headers := map[string]string{}
	if p.key != "" {
		headers["Authorization"] = "Bearer " + p.key
	}
	raw, err := postJSON(ctx, p.gate, p.base+"/chat/completions", headers, body)
	if err != nil {
		return Answer{}, err
	}
	var r openAIReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable response: %v", err)
	}
	if len(r.Choices) == 0 {
		return Answer{}, errors.New("the response has no choices")
	}
	c := r.Choices[0]
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		return Answer{}, fmt.Errorf("the model refused: %s", review.FirstLine(*c.Message.Refusal))
	}
	switch c.FinishReason {
	case "length":
		return Answer{}, errors.New("the answer was cut off (finish_reason: length)")
	case "content_filter":
		return Answer{}, errors.New("the answer was withheld (finish_reason: content_filter)")
	}
	if c.Message.Content == nil {
		return Answer{}, errors.New("the response has no content")
	}
	return Answer{Text: *c.Message.Content, InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens,
		CacheReadTokens: r.Usage.PromptTokensDetails.CachedTokens}, nil
}
