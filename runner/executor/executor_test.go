package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

func TestLLM(t *testing.T) {
	srv := httptest.NewServer(llmsim.Handler())
	defer srv.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) }))
	defer down.Close()
	prompt := "Is the sky blue? Answer yes or no."
	for _, tc := range []struct {
		name   string
		url    string
		job    Job
		status uint8
		output string
	}{
		{"answer", srv.URL, Job{Kind: "llm", Model: "sim-1", Input: json.RawMessage(`{"prompt":"` + prompt + `"}`)}, runner.StatusOK, llmsim.Answer(prompt)},
		{"max_tokens too tight", srv.URL, Job{Kind: "llm", Model: "sim-1", Input: json.RawMessage(`{"prompt":"say hello world"}`), MaxTokens: 1}, runner.StatusImpossible, "max_tokens 1 reached"},
		{"model unavailable", srv.URL, Job{Kind: "llm", Model: "unavailable", Input: json.RawMessage(`{"prompt":"x"}`)}, runner.StatusExternal, "model unavailable"},
		{"no prompt", srv.URL, Job{Kind: "llm", Model: "sim-1", Input: json.RawMessage(`{"text":"x"}`)}, runner.StatusActorFault, "the input needs a prompt"},
		{"server down", down.URL, Job{Kind: "llm", Model: "sim-1", Input: json.RawMessage(`{"prompt":"x"}`)}, runner.StatusExternal, "llm endpoint: HTTP 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := Kinds{"llm": &LLM{URL: tc.url, Backoff: time.Millisecond}}
			r := e.Execute(context.Background(), tc.job)
			if r.Status != tc.status || !strings.HasPrefix(string(r.Output), tc.output) {
				t.Fatalf("status %d output %q", r.Status, r.Output)
			}
		})
	}
}

func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/price":
			fmt.Fprint(w, `{"data":{"prices":[{"usd":"42.5"},{"usd":"43"}]}}`)
		case "/page":
			fmt.Fprint(w, `<html><title>Cowboy</title></html>`)
		case "/big":
			w.Write(make([]byte, MaxFetchBytes+1))
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	e := Kinds{"http": &HTTP{Domains: []string{"127.0.0.1"}, Backoff: time.Millisecond}}
	in := func(s string) json.RawMessage { return json.RawMessage(strings.ReplaceAll(s, "URL", srv.URL)) }
	for _, tc := range []struct {
		name   string
		input  json.RawMessage
		status uint8
		output string
	}{
		{"jsonpath", in(`{"url":"URL/price","jsonpath":"$.data.prices[1].usd"}`), runner.StatusOK, "43"},
		{"regex", in(`{"url":"URL/page","regex":"<title>(.*)</title>"}`), runner.StatusOK, "Cowboy"},
		{"whole body", in(`{"url":"URL/page"}`), runner.StatusOK, "<html>"},
		{"not allowed", json.RawMessage(`{"url":"http://example.org/"}`), runner.StatusExternal, "domain example.org is not on"},
		{"404", in(`{"url":"URL/none"}`), runner.StatusExternal, "127.0.0.1: HTTP 404"},
		{"too big", in(`{"url":"URL/big"}`), runner.StatusImpossible, "the response is over"},
		{"bad path", in(`{"url":"URL/price","jsonpath":"$.nope"}`), runner.StatusExternal, "jsonpath $.nope: no key"},
		{"bad method", in(`{"url":"URL/page","method":"DELETE"}`), runner.StatusActorFault, "http input: method DELETE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Execute(context.Background(), Job{Kind: "http", Input: tc.input})
			if r.Status != tc.status || !strings.HasPrefix(string(r.Output), tc.output) {
				t.Fatalf("status %d output %q", r.Status, r.Output)
			}
			if tc.status == runner.StatusOK && r.Usage == 0 {
				t.Fatal("no usage")
			}
		})
	}
}

func TestMaxWallTime(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // answers only after the executor gave up
	}))
	defer slow.Close()
	defer close(release) // before Close, which waits for the handler
	e := Kinds{"llm": &LLM{URL: slow.URL, Retries: 1}}
	r := e.Execute(context.Background(), Job{Kind: "llm", Model: "sim-1", Input: json.RawMessage(`{"prompt":"x"}`), MaxWall: 50 * time.Millisecond})
	if r.Status != runner.StatusImpossible || !strings.Contains(string(r.Output), "max wall time") {
		t.Fatalf("status %d output %q", r.Status, r.Output)
	}
}
