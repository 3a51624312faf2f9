package node

import (
	"context"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics: HTTP %d %s", resp.StatusCode, b)
	}
	return string(b)
}

func wantMetric(t *testing.T, text, line string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return
		}
	}
	t.Errorf("/metrics has no line %q", line)
}

// TestMetricsAndMempool: /metrics on the RPC address reports the mempool,
// blocks, transactions, basefees and RPC latency by method; cowboy_mempool
// lists what waits.
func TestMetricsAndMempool(t *testing.T) {
	n, err := Open(Config{Home: t.TempDir(), Genesis: genesis.Devnet(), RPCAddr: "127.0.0.1:0", BlockTime: time.Hour,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	for n.RPCAddr() == "" {
		time.Sleep(time.Millisecond)
	}
	url := "http://" + n.RPCAddr()
	c := rpc.Dial(url)
	dev1, _ := genesis.DevAddress(1)
	tx := signedTransfer(t, n, devKey(t, 0), dev1, big.NewInt(5))
	if _, err := c.SendRawTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var mp rpc.MempoolJSON
	if err := c.Call(ctx, &mp, "cowboy_mempool"); err != nil {
		t.Fatal(err)
	}
	if mp.Count != 1 || len(mp.Transactions) != 1 || mp.Transactions[0].Hash != rpc.Hash(tx.Hash()) {
		t.Fatalf("cowboy_mempool: %+v", mp)
	}
	m := scrape(t, url)
	wantMetric(t, m, "cowboy_mempool_transactions 1")
	wantMetric(t, m, "cowboy_head_height 0")
	wantMetric(t, m, "cowboy_rpc_duration_seconds_count{method=\"cowboy_sendRawTransaction\"} 1")

	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
	m = scrape(t, url)
	for _, l := range []string{"cowboy_mempool_transactions 0", "cowboy_head_height 1", "cowboy_blocks_total 1",
		"cowboy_transactions_total 1", "cowboy_transactions_failed_total 0", "cowboy_finality_latency_seconds_count 1",
		"cowboy_basefee_cycle 1", "cowboy_peers 0"} {
		wantMetric(t, m, l)
	}
	if !strings.Contains(m, "cowboy_rpc_duration_seconds_count{method=\"cowboy_mempool\"} 1") {
		t.Errorf("no latency for cowboy_mempool:\n%s", m)
	}
	var rc rpc.ReceiptJSON
	if err := c.Call(ctx, &rc, "cowboy_getTransactionReceipt", rpc.Hash(tx.Hash())); err != nil || uint64(rc.Status) != types.ReceiptSuccess {
		t.Fatalf("receipt %+v %v", rc, err)
	}
}
