package llmsim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCompletions(t *testing.T) {
	srv := httptest.NewServer(Handler())
	defer srv.Close()
	for _, tc := range []struct {
		req    string
		status int
		want   string
		finish string
	}{
		{`{"model":"sim-1","messages":[{"role":"user","content":"Is the sky blue? Answer yes or no."}],"temperature":0,"seed":7}`, 200, Answer("Is the sky blue? Answer yes or no."), "stop"},
		{`{"model":"sim-1","messages":[{"role":"user","content":"hello there world"}],"max_tokens":2}`, 200, "echo: hello", "length"},
		{`{"model":"sim-1","messages":[{"role":"user","content":"give json"}]}`, 200, `{"answer":"` + Answer("give json yes or no")[:0], "stop"},
		{`{"model":"unavailable","messages":[{"role":"user","content":"x"}]}`, 404, "", ""},
		{`{"model":"sim-1","messages":[]}`, 400, "", ""},
	} {
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewBufferString(tc.req))
		if err != nil {
			t.Fatal(err)
		}
		var r Response
		json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Fatalf("%s: status %d", tc.req, resp.StatusCode)
		}
		if tc.status != 200 {
			continue
		}
		if got := r.Choices[0].Message.Content; !strings.HasPrefix(got, tc.want) || r.Choices[0].FinishReason != tc.finish {
			t.Fatalf("%s: %q %s", tc.req, got, r.Choices[0].FinishReason)
		}
		if r.Usage.TotalTokens != r.Usage.PromptTokens+r.Usage.CompletionTokens || r.Usage.CompletionTokens == 0 {
			t.Fatalf("usage %+v", r.Usage)
		}
	}
	if Answer("a yes or no question") != Answer("a yes or no question") {
		t.Fatal("not deterministic")
	}
}
