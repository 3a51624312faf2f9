package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
)

// LLM calls an OpenAI-compatible chat-completions endpoint (§17.2
// LlmRequest) with temperature 0 and the job's seed, so runners of one
// committee running the same model get the same answer where the server
// allows it (§5.4 determinism).
type LLM struct {
	URL     string // base URL, e.g. http://127.0.0.1:8080 (…/v1/chat/completions is appended)
	APIKey  string // sent as a bearer token when set
	Client  *http.Client
	Retries int           // attempts on connection errors and 5xx (default 3)
	Backoff time.Duration // first backoff (default 200ms)
}

// llmTimeout bounds one request when LLM has no Client of its own.
const llmTimeout = 60 * time.Second

type llmInput struct {
	Prompt string `json:"prompt"`
	System string `json:"system,omitempty"`
}

// Execute runs one LLM job. A 5xx or an unreachable server after the
// retries, or a 404 (model not found), is an external fault; another 4xx
// is the actor's fault (malformed input); finish_reason "length" means
// max_tokens was too tight (impossible job), reported with the tokens
// used so the runner is paid pro rata.
func (l *LLM) Execute(ctx context.Context, j Job) Result {
	var in llmInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.Prompt == "" {
		return fault(runner.StatusActorFault, "the input needs a prompt")
	}
	msgs := []map[string]string{}
	if in.System != "" {
		msgs = append(msgs, map[string]string{"role": "system", "content": in.System})
	}
	msgs = append(msgs, map[string]string{"role": "user", "content": in.Prompt})
	req := map[string]any{"model": j.Model, "messages": msgs, "temperature": 0, "seed": j.Seed}
	if j.MaxTokens > 0 {
		req["max_tokens"] = j.MaxTokens
	}
	body, _ := json.Marshal(req)
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: llmTimeout}
	}
	attempts := l.Retries
	if attempts <= 0 {
		attempts = 3
	}
	backoff := firstBackoff(l.Backoff)
	var res Result
	retry(ctx, attempts, backoff, func() bool {
		hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(l.URL, "/")+"/v1/chat/completions", bytes.NewReader(body))
		if err != nil {
			res = fault(runner.StatusExternal, "llm request: %v", err)
			return false
		}
		hr.Header.Set("Content-Type", "application/json")
		if l.APIKey != "" {
			hr.Header.Set("Authorization", "Bearer "+l.APIKey)
		}
		resp, err := client.Do(hr)
		if err != nil {
			res = fault(runner.StatusExternal, "llm endpoint unreachable: %v", err)
			return true
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		switch {
		case resp.StatusCode >= 500:
			res = fault(runner.StatusExternal, "llm endpoint: HTTP %d", resp.StatusCode)
			return true
		case resp.StatusCode == http.StatusNotFound:
			res = fault(runner.StatusExternal, "model unavailable: %s", strings.TrimSpace(string(raw)))
			return false
		case resp.StatusCode >= 400:
			res = fault(runner.StatusActorFault, "llm endpoint refused the input: HTTP %d", resp.StatusCode)
			return false
		}
		var out struct {
			Choices []struct {
				Message      struct{ Content string } `json:"message"`
				FinishReason string                   `json:"finish_reason"`
			} `json:"choices"`
			Usage struct {
				TotalTokens uint64 `json:"total_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(raw, &out); err != nil || len(out.Choices) == 0 {
			res = fault(runner.StatusExternal, "llm endpoint: unreadable response")
			return true
		}
		c := out.Choices[0]
		if c.FinishReason == "length" {
			res = Result{Status: runner.StatusImpossible, Output: []byte(fmt.Sprintf("max_tokens %d reached", j.MaxTokens)), Usage: out.Usage.TotalTokens}
			return false
		}
		res = Result{Status: runner.StatusOK, Output: []byte(c.Message.Content), Usage: out.Usage.TotalTokens}
		return false
	})
	return res
}
