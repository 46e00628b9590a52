package review

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
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

// NewProvider builds the configured provider. HTTP providers reach the network only through
// gate; agent CLIs run only through the process gate, read-only, in scratch (outside the
// repository).
func NewProvider(m policy.Model, gate *egress.Gate, scratch string) (Provider, error) {
	key := ""
	if m.APIKeyEnv != "" {
		key = os.Getenv(m.APIKeyEnv)
		policy.MarkSecretEnv(m.APIKeyEnv)
	}
	switch m.Provider {
	case "openai":
		if m.BaseURL == "" {
			return nil, errors.New("model.base_url is required for the openai provider (e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1)")
		}
		if m.APIKeyEnv != "" && key == "" {
			return nil, fmt.Errorf("model.api_key_env names %s, but it is not set", m.APIKeyEnv)
		}
		return &openAI{model: m.Name, base: strings.TrimRight(m.BaseURL, "/"), key: key, gate: gate}, nil
	case "anthropic":
		base := m.BaseURL
		if base == "" {
			base = "https://api.anthropic.com"
		}
		if key == "" {
			return nil, fmt.Errorf("the anthropic provider needs an API key: set model.api_key_env to the name of the variable that holds it (it is %q now)", m.APIKeyEnv)
		}
		return &anthropic{model: m.Name, base: strings.TrimRight(base, "/"), key: key, gate: gate}, nil
	case "claude-cli", "codex-cli", "gemini-cli":
		if err := checkCLIArgs(m.Provider, m.Args, m.AllowUnsafeArgs); err != nil {
			return nil, err
		}
		bin := strings.TrimSuffix(m.Provider, "-cli")
		// An agent CLI sends the material to its own service: it is egress like any other.
		if gate == nil || !gate.Enabled() {
			return nil, fmt.Errorf("%s would send the material to its service: %w", bin, egress.ErrDisabled)
		}
		if err := policy.AllowProgram(bin); err != nil {
			return nil, err
		}
		var keep []string
		if m.APIKeyEnv != "" {
			keep = []string{m.APIKeyEnv}
		}
		return &agentCLI{kind: m.Provider, bin: bin, model: m.Name, args: m.Args, scratch: scratch, keepEnv: keep}, nil
	}
	return nil, fmt.Errorf("unknown model.provider %q", m.Provider)
}

// --- OpenAI-compatible chat completions ---

type openAI struct {
	model, base, key string
	gate             *egress.Gate
}

func (p *openAI) Name() string  { return "openai" }
func (p *openAI) Model() string { return p.model }

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
	var r struct {
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
	if err := json.Unmarshal(raw, &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable response: %v", err)
	}
	if len(r.Choices) == 0 {
		return Answer{}, errors.New("the response has no choices")
	}
	c := r.Choices[0]
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		return Answer{}, fmt.Errorf("the model refused: %s", firstLine(*c.Message.Refusal))
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

// --- Anthropic Messages ---

type anthropic struct {
	model, base, key string
	gate             *egress.Gate
}

func (p *anthropic) Name() string  { return "anthropic" }
func (p *anthropic) Model() string { return p.model }

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
	var r struct {
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
	if err := json.Unmarshal(raw, &r); err != nil {
		return Answer{}, fmt.Errorf("unreadable response: %v", err)
	}
	switch r.StopReason {
	case "end_turn", "stop_sequence":
	case "max_tokens", "model_context_window_exceeded":
		return Answer{}, fmt.Errorf("the answer was cut off (stop_reason: %s)", r.StopReason)
	case "refusal":
		return Answer{}, errors.New("the model refused (stop_reason: refusal)")
	case "":
		return Answer{}, errors.New("the answer has no stop_reason: it may be incomplete")
	default:
		// pause_turn (a server tool paused the turn), tool_use, or anything newer: not a
		// complete answer.
		return Answer{}, fmt.Errorf("the answer is not complete (stop_reason: %s)", firstLine(r.StopReason))
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
				return obj.Type + ": " + firstLine(obj.Message)
			}
			return firstLine(obj.Message)
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return firstLine(s)
		}
	}
	return firstLine(string(raw))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// --- agent CLIs ---

// baseCLIEnv is what any agent CLI gets of the user's environment: where to find programs and
// its own files (HOME, XDG_*: its stored login lives there), locale and terminal, the
// temporary directory, and the CA bundle a corporate network may need. Nothing else passes:
// a deny list of credential-looking names misses PGPASSWORD's cousins (DATABASE_URL,
// SOPS_AGE_KEY, SENTRY_DSN, CI_JOB_JWT, ...), an allow list cannot.
var baseCLIEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TERM", "NO_COLOR",
	"TMPDIR", "TZ", "XDG_*", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS"}

// cliEnv is the allow list of one agent CLI: the base, plus the variables that say where its
// own configuration is and which backend it uses (never a key: an API key passes only when the
// user names it in model.api_key_env; otherwise the CLI authenticates with the login it
// stored under HOME). Proxy variables are not passed: their URLs may carry a password.
func cliEnv(kind string) []string {
	own := map[string][]string{
		"claude-cli": {"CLAUDE_CONFIG_DIR"},
		"codex-cli":  {"CODEX_HOME"},
		"gemini-cli": {"GEMINI_CLI_HOME", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"},
	}[kind]
	return append(append([]string{}, baseCLIEnv...), own...)
}

type agentCLI struct {
	kind, bin, model string
	args             []string
	scratch          string
	keepEnv          []string
}

func (p *agentCLI) Name() string  { return p.kind }
func (p *agentCLI) Model() string { return p.model }

// safeCLIFlags are the user flags that cannot widen an agent's powers.
var safeCLIFlags = map[string][]string{
	"claude-cli": {"--model", "--max-turns", "--fallback-model", "--verbose"},
	"codex-cli":  {"--model", "-m", "--oss", "--skip-git-repo-check"},
	"gemini-cli": {"--model", "-m", "--debug", "-d"},
}

// checkCLIArgs refuses user flags that are not known to be safe, unless the user opted in.
func checkCLIArgs(kind string, args []string, allowUnsafe bool) error {
	if allowUnsafe {
		return nil
	}
	safe := safeCLIFlags[kind]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			continue // the value of the previous flag
		}
		name, _, _ := strings.Cut(a, "=")
		if !slices.Contains(safe, name) {
			return &policy.ConfigError{Key: "model.args", Msg: fmt.Sprintf("%q may widen what %s can do (write, run commands, read beyond the material); set model.allow_unsafe_args = true in your user config to allow it (tollgate still forces read-only flags)", a, kind)}
		}
	}
	return nil
}

// argv returns the command line: the user's args first, tollgate's read-only flags last, so
// they win wherever a later flag overrides an earlier one.
func (p *agentCLI) argv() []string {
	var a []string
	switch p.kind {
	case "claude-cli":
		a = append([]string{"-p"}, p.args...)
		if p.model != "" {
			a = append(a, "--model", p.model)
		}
		a = append(a, "--output-format", "json",
			"--disallowedTools", "Edit,Write,NotebookEdit,Bash,Read,Glob,Grep,WebFetch,WebSearch",
			"--permission-mode", "default")
	case "codex-cli":
		a = append([]string{"exec"}, p.args...)
		if p.model != "" {
			a = append(a, "-m", p.model)
		}
		a = append(a, "-s", "read-only", "--json", "--ephemeral", "--skip-git-repo-check", "-")
	case "gemini-cli":
		a = append([]string{}, p.args...)
		if p.model != "" {
			a = append(a, "-m", p.model)
		}
		a = append(a, "-o", "json", "--sandbox", "-p", "Review the material given on standard input, as the instructions in it say.")
	}
	return a
}

func (p *agentCLI) Complete(ctx context.Context, system, user string) (Answer, error) {
	prompt := system + "\n\n" + user
	out, err := policy.Run(ctx, policy.Cmd{
		Name: p.bin, Args: p.argv(), Dir: p.scratch, Env: os.Environ(), KeepEnv: p.keepEnv, OnlyEnv: cliEnv(p.kind),
		Stdin: strings.NewReader(prompt),
	})
	var ee *policy.ExitError
	if err != nil && !errors.As(err, &ee) {
		return Answer{}, err
	}
	ans, perr := p.parse(out)
	var rep reportedError
	if ee != nil && p.kind == "gemini-cli" && !errors.As(perr, &rep) {
		// gemini -o json writes its error object to stderr and exits non-zero.
		if msg := geminiError([]byte(ee.Stderr)); msg != "" {
			perr = reportedError("gemini reported an error: " + firstLine(msg))
		}
	}
	switch {
	case errors.As(perr, &rep) && ee != nil:
		// The CLI's own account of the failure says more than its exit status.
		return Answer{}, fmt.Errorf("%s (exit status %d)", rep, ee.Code)
	case perr != nil && err == nil:
		return Answer{}, perr
	case err != nil:
		return Answer{}, err
	}
	return ans, nil
}

// reportedError is a failure the agent CLI reported in its own structured output.
type reportedError string

func (e reportedError) Error() string { return string(e) }

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

func (p *agentCLI) parse(out []byte) (Answer, error) {
	if len(out) > maxAnswerBytes {
		return Answer{}, errors.New("the answer is too large")
	}
	switch p.kind {
	case "claude-cli":
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
			return Answer{}, reportedError(fmt.Sprintf("claude reported an error (%s): %s", r.Subtype, firstLine(r.Result)))
		}
		return Answer{Text: r.Result, InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
			CacheReadTokens: r.Usage.CacheReadInputTokens, CacheCreationTokens: r.Usage.CacheCreationInputTokens}, nil
	case "codex-cli":
		var ans Answer
		var text, lastErr string
		done := false
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 64*1024), maxAnswerBytes)
		for sc.Scan() {
			var ev struct {
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
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			switch ev.Type {
			case "item.completed":
				if ev.Item.Type == "agent_message" {
					text = ev.Item.Text
				}
			case "turn.completed":
				done = true
				ans.InputTokens, ans.OutputTokens, ans.CacheReadTokens = ev.Usage.InputTokens, ev.Usage.OutputTokens, ev.Usage.CachedInputTokens
			case "turn.failed":
				return Answer{}, reportedError("codex turn failed: " + firstLine(ev.Error.Message))
			case "error":
				// Also sent for a stream error codex retries ("Reconnecting... 1/5"): it fails
				// the review only if no turn completes.
				lastErr = ev.Message
			}
		}
		if !done || text == "" {
			if lastErr != "" {
				return Answer{}, reportedError("codex error: " + firstLine(lastErr))
			}
			return Answer{}, errors.New("codex finished no turn with an answer")
		}
		ans.Text = text
		return ans, nil
	case "gemini-cli":
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
			return Answer{}, reportedError("gemini reported an error: " + firstLine(r.Error.Message))
		}
		if r.Response == nil {
			return Answer{}, errors.New("gemini gave no response")
		}
		return Answer{Text: *r.Response}, nil
	}
	return Answer{}, fmt.Errorf("unknown provider %q", p.kind)
}

// providerIdentity is how a provider is reached or run (endpoint, argv): part of the verdict
// cache key, so another server or other CLI flags never reuse a verdict.
func providerIdentity(p Provider) string {
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
