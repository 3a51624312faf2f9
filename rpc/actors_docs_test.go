package rpc_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestActorDocExamples runs the docs/rpc.md examples of the actor methods
// against a real devnet on which dev0 deployed examples/counter_sdk, called
// increment once, deployed examples/token ("Gold", "GLD", 1000), and
// deployed examples/heartbeat with 1 CBY (timer 1).
func TestActorDocExamples(t *testing.T) {
	c := devnettest.New(t)
	counter, err := os.ReadFile("../examples/counter_sdk/main.py")
	if err != nil {
		t.Fatal(err)
	}
	token, err := os.ReadFile("../examples/token/main.py")
	if err != nil {
		t.Fatal(err)
	}
	a := c.MustDeploy(0, counter, nil)
	c.MustCall(0, a, "increment")
	c.MustDeploy(0, token, nil, "Gold", "GLD", int64(1000))
	heartbeat, err := os.ReadFile("../examples/heartbeat/main.py")
	if err != nil {
		t.Fatal(err)
	}
	c.MustDeploy(0, heartbeat, big.NewInt(1e18)) // block 4: timer 1, every 5 blocks from 9
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()

	ran := 0
	for _, ex := range rpc.DocExamples(t) {
		isActor := false
		for m := range rpc.RealNodeMethods {
			isActor = isActor || strings.Contains(ex.Request(), `"method":"`+m+`"`)
		}
		if !isActor {
			continue
		}
		ran++
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(ex.Request()))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var g, w any
		if err := json.Unmarshal([]byte(ex.Response()), &w); err != nil {
			t.Fatalf("docs/rpc.md:%d: documented response is not JSON: %v", ex.Line(), err)
		}
		json.Unmarshal(got, &g)
		// Block hashes depend on the proposer, whose key each devnet home
		// generates afresh, and so do a state proof's header, state root
		// and proof (the proposer's balance is in the state); everything
		// else is deterministic.
		dropBlockHashes(g)
		dropBlockHashes(w)
		gs, _ := json.Marshal(g)
		ws, _ := json.Marshal(w)
		if !bytes.Equal(gs, ws) {
			t.Errorf("docs/rpc.md:%d: the node answers\n%s\nbut the docs show\n%s", ex.Line(), got, ex.Response())
		}
	}
	if ran < len(rpc.RealNodeMethods) {
		t.Fatalf("ran %d actor examples, want at least %d", ran, len(rpc.RealNodeMethods))
	}
}

func dropBlockHashes(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "blockHash")
		if _, ok := x["storeKey"]; ok {
			delete(x, "header")
			delete(x, "stateRoot")
			delete(x, "proof")
		}
		for _, e := range x {
			dropBlockHashes(e)
		}
	case []any:
		for _, e := range x {
			dropBlockHashes(e)
		}
	}
}
