package node

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestSendRawTransactionBatch posts one JSON-RPC batch of raw transactions
// to the node's RPC server: they are admitted together (SendTransactions,
// recovery on all cores), each request gets its own answer in order, and
// the accepted ones commit in the next block.
func TestSendRawTransactionBatch(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	srv := httptest.NewServer(rpc.NewServer(n, rpc.Options{}))
	defer srv.Close()

	to := types.Address{0xee}
	a0 := pipelineTransfer(n.ChainID(), devKey(t, 0), 0, to, 1)
	a1 := pipelineTransfer(n.ChainID(), devKey(t, 0), 1, to, 2)
	far := pipelineTransfer(n.ChainID(), devKey(t, 1), 1000, to, 3) // beyond the pool's nonce window
	forged := pipelineTransfer(n.ChainID(), devKey(t, 2), 0, to, 4)
	forged.Sig.S[5] ^= 1 // recovers another sender, which holds nothing
	cases := []struct {
		tx     *types.Tx
		reason string // "" when accepted
	}{
		{a0, ""},
		{far, "nonce_too_high"},
		{a1, ""},
		{a0, "already_known"},
		{forged, "insufficient_funds"},
	}
	var reqs []string
	for i, c := range cases {
		reqs = append(reqs, `{"jsonrpc":"2.0","id":`+string(rune('0'+i))+`,"method":"cowboy_sendRawTransaction","params":["`+rpc.Bytes(c.tx.Encode()).String()+`"]}`)
	}
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader("["+strings.Join(reqs, ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		ID     int        `json:"id"`
		Result string     `json:"result"`
		Error  *rpc.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &out); err != nil || len(out) != len(cases) {
		t.Fatalf("batch answer: %v: %s", err, body)
	}
	for i, c := range cases {
		o := out[i]
		if o.ID != i {
			t.Fatalf("answer %d has id %d: %s", i, o.ID, body)
		}
		switch {
		case c.reason == "" && (o.Error != nil || o.Result != c.tx.Hash().Hex()):
			t.Errorf("request %d: want hash %s, got %s %v", i, c.tx.Hash(), o.Result, o.Error)
		case c.reason != "" && (o.Error == nil || o.Error.RejectReason() != c.reason):
			t.Errorf("request %d: want refusal %q, got %s %v", i, c.reason, o.Result, o.Error)
		}
	}
	if got := n.pool.Len(); got != 2 {
		t.Fatalf("pool holds %d transactions, want 2", got)
	}
	b, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Txs) != 2 {
		t.Fatalf("block holds %d transactions, want 2", len(b.Txs))
	}
}
