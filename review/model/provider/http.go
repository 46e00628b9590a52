package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"

	"github.com/tollgate-dev/tollgate/policy/egress"
	"github.com/tollgate-dev/tollgate/review"
)

// postJSON sends body through the egress gate and returns the response body of a 2xx reply.
func postJSON(ctx context.Context, gate *egress.Gate, endpoint string, headers map[string]string, body any) ([]byte, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("bad model endpoint %q", endpoint)
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := egress.NewRequest(ctx, endpoint, payload)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := gate.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("no answer in time: %w", ctx.Err())
		}
		return nil, fmt.Errorf("failed to reach the model: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("no answer in time: %w", ctx.Err())
		}
		return nil, fmt.Errorf("failed to read the answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, apiError(raw))
	}
	return raw, nil
}

// apiError extracts the message of an OpenAI- or Anthropic-style error body.
func apiError(raw []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			if obj.Type != "" {
				return obj.Type + ": " + review.FirstLine(obj.Message)
			}
			return review.FirstLine(obj.Message)
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return review.FirstLine(s)
		}
	}
	return review.FirstLine(string(raw))
}
