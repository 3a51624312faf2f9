// Package llmsim is a small deterministic OpenAI-compatible
// chat-completions server for tests and devnets: the same request always
// gets the same answer, so a committee of honest runners agrees, and a
// runner told to lie is the only one that differs. It is not a model.
//
// POST /v1/chat/completions answers:
//
//   - a prompt containing "yes or no" (any case): "yes" when keccak256 of
//     the prompt starts with an even byte, else "no";
//   - a prompt containing "json": {"answer": <the yes/no rule>, "words": N}
//     (N words in the prompt), as a JSON document;
//   - anything else: "echo: " and the prompt.
//
// usage counts words (prompt_tokens, completion_tokens, total_tokens); an
// answer longer than max_tokens words is cut and finish_reason is
// "length". The model "unavailable" answers 404 (model not found), and
// GET /v1/models lists "sim-1" and "sim-2".
package llmsim

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Request is the part of a chat-completions request llmsim reads.
type Request struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// Temperature and Seed are accepted and ignored: llmsim is
	// deterministic anyway.
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *uint64  `json:"seed,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Response is a chat-completions response.
type Response struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   Usage    `json:"usage"`
}

// Choice is one completion.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Usage counts tokens (words, here).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Answer is llmsim's deterministic completion of prompt.
func Answer(prompt string) string {
	lower := strings.ToLower(prompt)
	h := crypto.Keccak256([]byte(prompt))
	yn := "yes"
	if h[0]%2 == 1 {
		yn = "no"
	}
	switch {
	case strings.Contains(lower, "json"):
		b, _ := json.Marshal(map[string]any{"answer": yn, "words": len(strings.Fields(prompt))})
		return string(b)
	case strings.Contains(lower, "yes or no"):
		return yn
	}
	return "echo: " + prompt
}

// Complete answers one request as the server does; an error is the HTTP
// status and message.
func Complete(req Request) (*Response, int, string) {
	if req.Model == "unavailable" {
		return nil, http.StatusNotFound, "model not found: unavailable"
	}
	if len(req.Messages) == 0 {
		return nil, http.StatusBadRequest, "messages must not be empty"
	}
	var prompt []string
	for _, m := range req.Messages {
		prompt = append(prompt, m.Content)
	}
	last := req.Messages[len(req.Messages)-1].Content
	out := Answer(last)
	words := strings.Fields(out)
	finish := "stop"
	if req.MaxTokens > 0 && len(words) > req.MaxTokens {
		out, finish = strings.Join(words[:req.MaxTokens], " "), "length"
		words = words[:req.MaxTokens]
	}
	pt := len(strings.Fields(strings.Join(prompt, " ")))
	return &Response{ID: fmt.Sprintf("sim-%x", crypto.Keccak256([]byte(last))), Object: "chat.completion", Model: req.Model,
		Choices: []Choice{{Message: Message{Role: "assistant", Content: out}, FinishReason: finish}},
		Usage:   Usage{PromptTokens: pt, CompletionTokens: len(words), TotalTokens: pt + len(words)}}, 0, ""
}

// Handler serves the OpenAI-compatible endpoints.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req Request
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			writeErr(w, http.StatusBadRequest, "bad request: "+err.Error())
			return
		}
		resp, code, msg := Complete(req)
		if resp == nil {
			writeErr(w, code, msg)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"sim-1","object":"model"},{"id":"sim-2","object":"model"}]}`)
	})
	return mux
}

func writeErr(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}

// Serve listens on addr (":0" picks a port) and serves until the listener
// closes; it returns the listener so the caller knows the address.
func Serve(addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("llmsim: listen %s: %w", addr, err)
	}
	go http.Serve(l, Handler())
	return l, nil
}
