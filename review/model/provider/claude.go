package provider

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tollgate-dev/tollgate/review"
)

// claudeCLI is Claude Code in print mode: `claude -p --output-format json`, every tool that
// writes, runs or reads beyond the prompt disallowed.
type claudeCLI struct{}

func (claudeCLI) argv(user []string, model string) []string {
	a := append([]string{"-p"}, user...)
	if model != "" {
		a = append(a, "--model", model)
	}
	return append(a, "--output-format", "json",
		"--disallowedTools", "Edit,Write,NotebookEdit,Bash,Read,Glob,Grep,WebFetch,WebSearch",
		"--permission-mode", "default")
}

func (claudeCLI) ownEnv() []string { return []string{"CLAUDE_CONFIG_DIR"} }

func (claudeCLI) safeFlags() []string {
	return []string{"--model", "--max-turns", "--fallback-model", "--verbose"}
}

func (claudeCLI) stderrError([]byte) string { return "" }

func (claudeCLI) parse(out []byte) (Answer, error) {
	var r struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
		Usage   struct {
			InputTokens              int `json:"input_tokens"`
			OutputTokens             int `json:"output_tokens"`
			CacheReadInputTokens     int `json:"cache_read_input_tokens"`
			CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable claude output: %v", err)
	}
	if r.IsError || (r.Subtype != "" && r.Subtype != "success") {
		return Answer{}, reportedError(fmt.Sprintf("claude reported an error (%s): %s", r.Subtype, review.FirstLine(r.Result)))
	}
	return Answer{Text: r.Result, InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		CacheReadTokens: r.Usage.CacheReadInputTokens, CacheCreationTokens: r.Usage.CacheCreationInputTokens}, nil
}
