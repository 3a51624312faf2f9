package rpc_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestDevDocExamples runs the docs/rpc.md examples of the dev_* methods,
// in order, against a fresh devnet, and checks every dev_* method has one.
// Block hashes and state roots depend on the devnet's proposer key (made
// per home), so they are not compared; heights and times are (the test
// devnet's clock is fixed).
func TestDevDocExamples(t *testing.T) {
	c := devnettest.New(t)
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()
	seen := map[string]bool{}
	for _, ex := range rpc.DocExamples(t) {
		if !strings.Contains(ex.Request(), `"method":"dev_`) {
			continue
		}
		var req struct{ Method string }
		json.Unmarshal([]byte(ex.Request()), &req)
		seen[req.Method] = true
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(ex.Request()))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if os.Getenv("TUTORIAL_TRANSCRIPT") != "" {
			t.Logf("docs/rpc.md:%d:\n%s", ex.Line(), got)
			continue
		}
		var g, w any
		if err := json.Unmarshal([]byte(ex.Response()), &w); err != nil {
			t.Fatalf("docs/rpc.md:%d: documented response is not JSON: %v", ex.Line(), err)
		}
		json.Unmarshal(got, &g)
		dropDevHashes(g)
		dropDevHashes(w)
		gs, _ := json.Marshal(g)
		ws, _ := json.Marshal(w)
		if !bytes.Equal(gs, ws) {
			t.Errorf("docs/rpc.md:%d: the node answers\n%s\nbut the docs show\n%s", ex.Line(), got, ex.Response())
		}
	}
	for _, m := range rpc.Methods() {
		if strings.HasPrefix(m, "dev_") && !seen[m] {
			t.Errorf("docs/rpc.md has no example of %s", m)
		}
	}
}

func dropDevHashes(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "hash")
		delete(x, "stateRoot")
		for _, e := range x {
			dropDevHashes(e)
		}
	case []any:
		for _, e := range x {
			dropDevHashes(e)
		}
	}
}
