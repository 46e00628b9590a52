package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tollgate-dev/tollgate/review"
)

// geminiCLI is `gemini -p -o json --sandbox`, the material on standard input.
type geminiCLI struct{}

func (geminiCLI) argv(user []string, model string) []string {
	a := append([]string{}, user...)
	if model != "" {
		a = append(a, "-m", model)
	}
	return append(a, "-o", "json", "--sandbox", "-p", "Review the material given on standard input, as the instructions in it say.")
}

func (geminiCLI) ownEnv() []string {
	return []string{"GEMINI_CLI_HOME", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"}
}

func (geminiCLI) safeFlags() []string { return []string{"--model", "-m", "--debug", "-d"} }

// stderrError: gemini -o json writes its error object to stderr and exits non-zero.
func (geminiCLI) stderrError(stderr []byte) string {
	if msg := geminiError(stderr); msg != "" {
		return "gemini reported an error: " + review.FirstLine(msg)
	}
	return ""
}

// geminiError returns the message of gemini's JSON error object in b ("" if there is none).
func geminiError(b []byte) string {
	i := bytes.IndexByte(b, '{')
	if i < 0 {
		return ""
	}
	var r struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.NewDecoder(bytes.NewReader(b[i:])).Decode(&r) != nil || r.Error == nil {
		return ""
	}
	return r.Error.Message
}

func (geminiCLI) parse(out []byte) (Answer, error) {
	var r struct {
		Response *string `json:"response"`
		Error    *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable gemini output: %v", err)
	}
	if r.Error != nil {
		return Answer{}, reportedError("gemini reported an error: " + review.FirstLine(r.Error.Message))
	}
	if r.Response == nil {
		return Answer{}, errors.New("gemini gave no response")
	}
	return Answer{Text: *r.Response}, nil
}
