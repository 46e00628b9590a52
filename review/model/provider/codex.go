package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"

	"github.com/tollgate-dev/tollgate/review"
)

// codexCLI is `codex exec` in a read-only sandbox, its events read as JSONL.
type codexCLI struct{}

func (codexCLI) argv(user []string, model string) []string {
	a := append([]string{"exec"}, user...)
	if model != "" {
		a = append(a, "-m", model)
	}
	return append(a, "-s", "read-only", "--json", "--ephemeral", "--skip-git-repo-check", "-")
}

func (codexCLI) ownEnv() []string { return []string{"CODEX_HOME"} }

func (codexCLI) safeFlags() []string {
	return []string{"--model", "-m", "--oss", "--skip-git-repo-check"}
}

func (codexCLI) stderrError([]byte) string { return "" }

// codexEvent is one JSONL event of codex exec --json.
type codexEvent struct {
	Type string `json:"type"`
	Item struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Usage struct {
		InputTokens       int `json:"input_tokens"`
		CachedInputTokens int `json:"cached_input_tokens"`
		OutputTokens      int `json:"output_tokens"`
	} `json:"usage"`
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

// codexRun is what the events of one run said so far.
type codexRun struct {
	ans           Answer
	text, lastErr string
	done          bool
}

// event takes one event in; an error is a turn that failed.
func (c *codexRun) event(ev codexEvent) error {
	switch ev.Type {
	case "item.completed":
		if ev.Item.Type == "agent_message" {
			c.text = ev.Item.Text
		}
	case "turn.completed":
		c.done = true
		c.ans.InputTokens, c.ans.OutputTokens, c.ans.CacheReadTokens = ev.Usage.InputTokens, ev.Usage.OutputTokens, ev.Usage.CachedInputTokens
	case "turn.failed":
		return reportedError("codex turn failed: " + review.FirstLine(ev.Error.Message))
	case "error":
		// Also sent for a stream error codex retries ("Reconnecting... 1/5"): it fails the
		// review only if no turn completes.
		c.lastErr = ev.Message
	}
	return nil
}

func (codexCLI) parse(out []byte) (Answer, error) {
	var run codexRun
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), maxAnswerBytes)
	for sc.Scan() {
		var ev codexEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if err := run.event(ev); err != nil {
			return Answer{}, err
		}
	}
	if !run.done || run.text == "" {
		if run.lastErr != "" {
			return Answer{}, reportedError("codex error: " + review.FirstLine(run.lastErr))
		}
		return Answer{}, errors.New("codex finished no turn with an answer")
	}
	run.ans.Text = run.text
	return run.ans, nil
}
