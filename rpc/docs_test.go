package rpc

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// docExample is one curl request in docs/rpc.md and the answer the docs
// show for it.
type docExample struct {
	line     int
	request  string
	response string
}

// docExamples reads every `curl ... -d '<json>'` line of docs/rpc.md and
// the ```json block that follows it.
func docExamples(t testing.TB) []docExample {
	t.Helper()
	raw, err := os.ReadFile("../docs/rpc.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var out []docExample
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "curl ") {
			continue
		}
		start := strings.Index(l, " -d '")
		end := strings.LastIndex(l, "'")
		if start < 0 || end <= start+5 {
			t.Fatalf("docs/rpc.md:%d: curl line without -d '<json>'", i+1)
		}
		ex := docExample{line: i + 1, request: l[start+5 : end]}
		j := i + 1
		for j < len(lines) && lines[j] != "```json" {
			j++
		}
		var resp []string
		for j++; j < len(lines) && lines[j] != "```"; j++ {
			resp = append(resp, lines[j])
		}
		ex.response = strings.Join(resp, "\n")
		out = append(out, ex)
		i = j
	}
	return out
}

// RealNodeMethods are documented with examples that need a real node
// (actors on chain, its consensus); the external test TestActorDocExamples
// runs them against a devnet.
var RealNodeMethods = map[string]bool{"cowboy_getCode": true, "cowboy_getActorStorage": true, "cowboy_listActorStorage": true, "cowboy_call": true, "cowboy_getLogs": true, "cowboy_consensusStatus": true, "cowboy_getValidators": true, "cowboy_getTimers": true, "cowboy_getTimer": true, "cowboy_getTimerReceipts": true, "cowboy_getTimerProof": true, "cowboy_mempool": true, "cowboy_traceTransaction": true, "cowboy_getRelays": true}

// DocExample is one docs/rpc.md example, for the external test package.
type DocExample = docExample

// DocExamples exports the docs/rpc.md examples to the external test package.
func DocExamples(t testing.TB) []DocExample { return docExamples(t) }

// Request and Response expose an example's texts to the external test package.
func (e docExample) Request() string  { return e.request }
func (e docExample) Response() string { return e.response }
func (e docExample) Line() int        { return e.line }

// TestDocExamples sends every request of docs/rpc.md to a server over the
// fake chain and demands exactly the documented answer, and checks that
// every method has an example.
func TestDocExamples(t *testing.T) {
	examples := docExamples(t)
	if len(examples) == 0 {
		t.Fatal("no examples found in docs/rpc.md")
	}
	documented := map[string]bool{}
	for _, ex := range examples {
		var reqs []struct{ Method string }
		body := []byte(ex.request)
		if bytes.HasPrefix(body, []byte("[")) {
			if err := json.Unmarshal(body, &reqs); err != nil {
				t.Fatalf("docs/rpc.md:%d: request is not JSON: %v", ex.line, err)
			}
		} else {
			reqs = make([]struct{ Method string }, 1)
			if err := json.Unmarshal(body, &reqs[0]); err != nil {
				t.Fatalf("docs/rpc.md:%d: request is not JSON: %v", ex.line, err)
			}
		}
		actor := false
		for _, r := range reqs {
			documented[r.Method] = true
			actor = actor || RealNodeMethods[r.Method] || strings.HasPrefix(r.Method, "dev_") // dev_: TestDevDocExamples
		}
		if actor {
			continue // TestActorDocExamples runs these against a real devnet
		}
		t.Run(ex.request[:min(len(ex.request), 90)], func(t *testing.T) {
			srv, _ := serve(t, newFixture(t).b, Options{}) // each example starts from the same chain
			status, got := post(t, srv, "application/json", ex.request)
			if status != 200 {
				t.Fatalf("docs/rpc.md:%d: HTTP %d", ex.line, status)
			}
			var g, w any
			if err := json.Unmarshal([]byte(ex.response), &w); err != nil {
				t.Fatalf("docs/rpc.md:%d: documented response is not JSON: %v", ex.line, err)
			}
			json.Unmarshal(got, &g)
			gs, _ := json.Marshal(g)
			ws, _ := json.Marshal(w)
			if !bytes.Equal(gs, ws) {
				var pretty bytes.Buffer
				json.Indent(&pretty, got, "", "  ")
				t.Fatalf("docs/rpc.md:%d: the server answers\n%s\nbut the docs show\n%s", ex.line, pretty.String(), ex.response)
			}
		})
	}
	for _, m := range Methods() {
		if !documented[m] {
			t.Errorf("docs/rpc.md has no example of %s", m)
		}
	}
}
