package executor

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
)

// TestHTTPEdges pins the figures a runner is paid by and the limits it
// refuses at: usage in KiB rounded up, a body of exactly MaxFetchBytes
// accepted, a 5xx retried and a 4xx not, and jsonpath index bounds.
func TestHTTPEdges(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/bytes":
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			w.Write([]byte(strings.Repeat("a", n)))
		case "/list":
			w.Write([]byte(`{"l":[1,2,3],"s":"x"}`))
		case "/500":
			w.WriteHeader(500)
		case "/499":
			w.WriteHeader(499)
		case "/400":
			w.WriteHeader(400)
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	in := func(s string) json.RawMessage { return json.RawMessage(strings.ReplaceAll(s, "URL", srv.URL)) }
	tests := []struct {
		name     string
		input    json.RawMessage
		retries  int
		status   uint8
		output   string
		usage    uint64
		wantHits int64
	}{
		{"empty body: 0 KiB", in(`{"url":"URL/bytes?n=0"}`), 0, runner.StatusOK, "", 0, 1},
		{"1 byte: 1 KiB", in(`{"url":"URL/bytes?n=1"}`), 0, runner.StatusOK, "a", 1, 1},
		{"1024 bytes: 1 KiB", in(`{"url":"URL/bytes?n=1024"}`), 0, runner.StatusOK, "a", 1, 1},
		{"1025 bytes: 2 KiB", in(`{"url":"URL/bytes?n=1025"}`), 0, runner.StatusOK, "a", 2, 1},
		{"exactly the fetch limit", in(`{"url":"URL/bytes?n=` + strconv.Itoa(MaxFetchBytes) + `"}`), 0, runner.StatusOK, "a", MaxFetchBytes / 1024, 1},
		{"500 retried 3 times by default", in(`{"url":"URL/500"}`), 0, runner.StatusExternal, "127.0.0.1: HTTP 500", 0, 3},
		{"500 retried as configured", in(`{"url":"URL/500"}`), 2, runner.StatusExternal, "127.0.0.1: HTTP 500", 0, 2},
		{"499 not retried", in(`{"url":"URL/499"}`), 0, runner.StatusExternal, "127.0.0.1: HTTP 499", 0, 1},
		{"400 not retried", in(`{"url":"URL/400"}`), 0, runner.StatusExternal, "127.0.0.1: HTTP 400", 0, 1},
		{"last index", in(`{"url":"URL/list","jsonpath":"$.l[2]"}`), 0, runner.StatusOK, "3", 1, 1},
		{"index past the end", in(`{"url":"URL/list","jsonpath":"$.l[3]"}`), 0, runner.StatusExternal, "jsonpath $.l[3]: no index 3", 1, 1},
		{"negative index", in(`{"url":"URL/list","jsonpath":"$.l[-1]"}`), 0, runner.StatusExternal, "jsonpath $.l[-1]: no index -1", 1, 1},
		{"first index", in(`{"url":"URL/list","jsonpath":"$.l[0]"}`), 0, runner.StatusOK, "1", 1, 1},
		{"key of a string", in(`{"url":"URL/list","jsonpath":"$.s.x"}`), 0, runner.StatusExternal, "jsonpath $.s.x: not an object", 1, 1},
		{"unclosed index", in(`{"url":"URL/list","jsonpath":"$.l[0"}`), 0, runner.StatusExternal, "jsonpath $.l[0: unclosed [", 1, 1},
		{"no $", in(`{"url":"URL/list","jsonpath":"l"}`), 0, runner.StatusExternal, `jsonpath "l" must start with $`, 1, 1},
		{"regex without a group", in(`{"url":"URL/list","regex":"[0-9],[0-9]"}`), 0, runner.StatusOK, "1,2", 1, 1},
		{"dot then bracket: an empty key", in(`{"url":"URL/list","jsonpath":"$.[0]"}`), 0, runner.StatusExternal, `jsonpath $.[0]: no key ""`, 1, 1},
		{"not http(s)", json.RawMessage(`{"url":"ftp://127.0.0.1/"}`), 0, runner.StatusActorFault, `http input: url "ftp://127.0.0.1/" is not an http(s) URL`, 0, 0},
		{"regex no match", in(`{"url":"URL/list","regex":"zz"}`), 0, runner.StatusExternal, "regex did not match", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits.Store(0)
			e := &HTTP{Domains: []string{"127.0.0.1"}, Retries: tt.retries, Backoff: time.Millisecond}
			r := e.Execute(context.Background(), Job{Kind: "http", Input: tt.input})
			if r.Status != tt.status || !strings.HasPrefix(string(r.Output), tt.output) || r.Usage != tt.usage {
				t.Fatalf("status %d usage %d output %.60q, want %d %d %q", r.Status, r.Usage, r.Output, tt.status, tt.usage, tt.output)
			}
			if got := hits.Load(); got != tt.wantHits {
				t.Fatalf("%d requests, want %d", got, tt.wantHits)
			}
		})
	}
}

// TestResultSizeLimit: a result of exactly MaxResultBytes is delivered,
// one byte more is an impossible job.
func TestResultSizeLimit(t *testing.T) {
	for _, tt := range []struct {
		n      int
		status uint8
	}{{runner.MaxResultBytes, runner.StatusOK}, {runner.MaxResultBytes + 1, runner.StatusImpossible}} {
		e := Kinds{"fixed": fixed(tt.n)}
		if r := e.Execute(context.Background(), Job{Kind: "fixed"}); r.Status != tt.status {
			t.Fatalf("%d-byte result: status %d, want %d", tt.n, r.Status, tt.status)
		}
	}
}

type fixed int

func (f fixed) Execute(context.Context, Job) Result {
	return Result{Status: runner.StatusOK, Output: make([]byte, f)}
}

// TestNoMaxWall: without a max wall time a cancelled context (the daemon
// shutting down) is not reported as the job's wall time exceeded; the
// executor's own result stands.
func TestNoMaxWall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := Kinds{"fixed": fixed(3)}
	if r := e.Execute(ctx, Job{Kind: "fixed"}); r.Status != runner.StatusOK || len(r.Output) != 3 {
		t.Fatalf("status %d output %q, want the executor's result", r.Status, r.Output)
	}
}

// TestRetry: f runs at most attempts times, stops at the first answer
// that is not retryable, and never runs for attempts of 0.
func TestRetry(t *testing.T) {
	for _, tt := range []struct {
		attempts, failures, wantCalls int
	}{
		{0, 5, 0}, {1, 5, 1}, {3, 5, 3}, {3, 0, 1}, {3, 1, 2}, {3, 2, 3},
	} {
		calls := 0
		retry(context.Background(), tt.attempts, time.Nanosecond, func() bool {
			calls++
			return calls <= tt.failures
		})
		if calls != tt.wantCalls {
			t.Fatalf("attempts %d, %d failures: %d calls, want %d", tt.attempts, tt.failures, calls, tt.wantCalls)
		}
	}
}

// TestSchedule pins the attempts and first backoff of each executor.
func TestSchedule(t *testing.T) {
	for _, tt := range []struct {
		retries      int
		backoff      time.Duration
		wantAttempts int
		wantBackoff  time.Duration
	}{
		{0, 0, 3, defaultBackoff},
		{-1, -1, 1, defaultBackoff},
		{1, time.Nanosecond, 1, time.Nanosecond},
		{5, time.Second, 5, time.Second},
	} {
		h := &HTTP{Retries: tt.retries, Backoff: tt.backoff}
		if a, b := h.schedule(); a != tt.wantAttempts || b != tt.wantBackoff {
			t.Fatalf("HTTP retries %d backoff %v: %d attempts, backoff %v; want %d, %v", tt.retries, tt.backoff, a, b, tt.wantAttempts, tt.wantBackoff)
		}
	}
	if defaultBackoff != 200*time.Millisecond {
		t.Fatalf("default backoff %v", defaultBackoff)
	}
}

// TestLLMRequest pins the request an LLM job sends: a system message only
// when the input has one, max_tokens only when the job sets it, the
// bearer token only when configured.
func TestLLMRequest(t *testing.T) {
	var got struct {
		Messages  []map[string]string `json:"messages"`
		MaxTokens *uint64             `json:"max_tokens"`
	}
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Messages, got.MaxTokens = nil, nil
		auth = r.Header.Get("Authorization")
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			w.WriteHeader(400)
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],"usage":{"total_tokens":7}}`))
	}))
	defer srv.Close()
	for _, tt := range []struct {
		name      string
		input     string
		maxTokens uint64
		key       string
		wantRoles string
		wantMax   string
		wantAuth  string
	}{
		{"prompt only", `{"prompt":"p"}`, 0, "", "user", "none", ""},
		{"system and prompt", `{"prompt":"p","system":"s"}`, 0, "", "system,user", "none", ""},
		{"max_tokens 1", `{"prompt":"p"}`, 1, "k", "user", "1", "Bearer k"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := &LLM{URL: srv.URL, APIKey: tt.key}
			r := e.Execute(context.Background(), Job{Kind: "llm", Input: json.RawMessage(tt.input), MaxTokens: tt.maxTokens})
			if r.Status != runner.StatusOK || string(r.Output) != "ok" || r.Usage != 7 {
				t.Fatalf("status %d output %q usage %d", r.Status, r.Output, r.Usage)
			}
			var roles []string
			for _, m := range got.Messages {
				roles = append(roles, m["role"])
			}
			max := "none"
			if got.MaxTokens != nil {
				max = strconv.FormatUint(*got.MaxTokens, 10)
			}
			if strings.Join(roles, ",") != tt.wantRoles || max != tt.wantMax || auth != tt.wantAuth {
				t.Fatalf("roles %v max_tokens %s auth %q, want %s %s %q", roles, max, auth, tt.wantRoles, tt.wantMax, tt.wantAuth)
			}
		})
	}
}

// TestLLMStatus pins how an endpoint's HTTP status is read: 500 and up an
// external fault retried, 404 the model missing, 400 to 499 the actor's
// input refused, neither retried.
func TestLLMStatus(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		code, _ := strconv.Atoi(strings.Split(r.URL.Path, "/")[1])
		w.WriteHeader(code)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		code     int
		status   uint8
		output   string
		wantHits int64
	}{
		{500, runner.StatusExternal, "llm endpoint: HTTP 500", 2},
		{499, runner.StatusActorFault, "llm endpoint refused the input: HTTP 499", 1},
		{404, runner.StatusExternal, "model unavailable", 1},
		{400, runner.StatusActorFault, "llm endpoint refused the input: HTTP 400", 1},
		{399, runner.StatusExternal, "llm endpoint: unreadable response", 2},
	} {
		hits.Store(0)
		e := &LLM{URL: srv.URL + "/" + strconv.Itoa(tt.code), Retries: 2, Backoff: time.Nanosecond}
		r := e.Execute(context.Background(), Job{Kind: "llm", Input: json.RawMessage(`{"prompt":"p"}`)})
		if r.Status != tt.status || !strings.HasPrefix(string(r.Output), tt.output) || hits.Load() != tt.wantHits {
			t.Fatalf("HTTP %d: status %d output %q after %d requests, want %d %q after %d", tt.code, r.Status, r.Output, hits.Load(), tt.status, tt.output, tt.wantHits)
		}
	}
}
