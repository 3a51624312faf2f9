package rpc

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzServeJSON feeds arbitrary bodies to the server. Whatever arrives, the
// answer is a well-formed JSON-RPC response (or batch of them) with status
// 200, no body with 204, or a 4xx; never a panic or a 5xx. Seeds live in
// testdata/fuzz/FuzzServeJSON.
func FuzzServeJSON(f *testing.F) {
	fx := newFixture(f)
	srv := NewServer(fx.b, Options{MaxBodyBytes: 64 << 10, MaxBatch: 8, Logger: slog.New(slog.DiscardHandler)})
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		out := w.Body.Bytes()
		switch {
		case w.Code == http.StatusNoContent:
			if len(out) != 0 {
				t.Fatalf("204 with a body: %q", out)
			}
		case w.Code == http.StatusOK:
			checkResponses(t, out)
		case w.Code >= 400 && w.Code < 500:
		default:
			t.Fatalf("HTTP %d for %q", w.Code, body)
		}
	})
}

// checkResponses insists on JSON-RPC 2.0 response objects: "jsonrpc":"2.0",
// an id, and exactly one of result and error.
func checkResponses(t *testing.T, out []byte) {
	t.Helper()
	var list []json.RawMessage
	if bytes.HasPrefix(out, []byte("[")) {
		if err := json.Unmarshal(out, &list); err != nil || len(list) == 0 {
			t.Fatalf("batch response %q: %v", out, err)
		}
	} else {
		list = []json.RawMessage{out}
	}
	for _, raw := range list {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("response %q is not an object: %v", raw, err)
		}
		if string(m["jsonrpc"]) != `"2.0"` {
			t.Fatalf("response %q lacks jsonrpc 2.0", raw)
		}
		if _, ok := m["id"]; !ok {
			t.Fatalf("response %q lacks an id", raw)
		}
		_, hasResult := m["result"]
		e, hasError := m["error"]
		if hasResult == hasError {
			t.Fatalf("response %q must have exactly one of result and error", raw)
		}
		if hasError {
			var re Error
			if err := json.Unmarshal(e, &re); err != nil || re.Code == 0 || re.Message == "" {
				t.Fatalf("error object %q: %v", e, err)
			}
			if re.Code == CodeInternal {
				t.Fatalf("internal error for fuzzed input: %q", raw)
			}
		}
	}
}
