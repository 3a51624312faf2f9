package node

import (
	"net/http"
	"sync"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/rpc/explorer"
)

// rpcHandler is what the node serves on its RPC address: JSON-RPC over
// HTTP POST and over a WebSocket (GET with Upgrade), whose subscriptions
// the node feeds as it commits blocks and accepts transactions.
func (n *Node) rpcHandler() http.Handler {
	m := n.metrics()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.handler())
	// Page loads get the explorer; JSON-RPC and WebSocket upgrades pass to the server.
	mux.Handle("/", explorer.New(n, rpc.NewServer(n, rpc.Options{Logger: n.log, Hub: &n.events, Observe: m.observeRPC}), n.log))
	return mux
}

// metricsOnce makes the node's metrics on first use.
type metricsOnce struct {
	once sync.Once
	m    *metrics
}

func (n *Node) metrics() *metrics {
	n.mx.once.Do(func() { n.mx.m = newMetrics(n) })
	return n.mx.m
}

// published runs after each committed block: subscribers, metrics and a
// log line naming any failed transaction.
func (n *Node) published(b *types.Block, receipts []*types.Receipt) {
	n.events.PublishBlock(b, receipts)
	if b.Header.Height > 0 { // genesis is written, not made
		n.metrics().block(b, receipts, time.Now())
	}
	for i, r := range receipts {
		if r.Status != types.ReceiptSuccess && i < len(b.Txs) {
			n.log.Info("transaction failed", "tx", b.Txs[i].Hash(), "height", b.Header.Height, "error", r.Error)
		}
	}
}

// Events is the hub the node publishes blocks and pending transactions
// to; an RPC server built elsewhere (tests, cowboyd) can serve it.
func (n *Node) Events() *rpc.Hub { return &n.events }

// reportDropped runs as the node stops: it ends the WebSocket connections
// (the HTTP server's Shutdown does not close upgraded ones) and says how
// many accepted transactions were still waiting for a block: the mempool
// is not persisted, so their senders must send them again (issue 16: they
// vanished silently).
func (n *Node) reportDropped() {
	n.events.Close()
	if n.pool == nil {
		return
	}
	if k := n.pool.Len(); k > 0 {
		n.log.Warn("stopping with pending transactions: they are dropped (the mempool is not kept across restarts); their senders must send them again",
			"dropped", k)
	}
}
