package node

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// metrics is what the node exports at /metrics on its RPC address
// (Prometheus text format). Each node has its own registry, so several
// nodes in one process (tests) do not collide.
type metrics struct {
	reg      *prometheus.Registry
	blocks   prometheus.Counter
	txs      prometheus.Counter
	failed   prometheus.Counter
	finality prometheus.Histogram
	rpc      *prometheus.HistogramVec
	rpcErrs  *prometheus.CounterVec
}

func newMetrics(n *Node) *metrics {
	m := &metrics{reg: prometheus.NewRegistry(),
		blocks: prometheus.NewCounter(prometheus.CounterOpts{Name: "cowboy_blocks_total", Help: "Blocks committed since the node started."}),
		txs:    prometheus.NewCounter(prometheus.CounterOpts{Name: "cowboy_transactions_total", Help: "Transactions in blocks committed since the node started."}),
		failed: prometheus.NewCounter(prometheus.CounterOpts{Name: "cowboy_transactions_failed_total", Help: "Included transactions whose execution failed."}),
		finality: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "cowboy_finality_latency_seconds",
			Help:    "From a block's timestamp to its commit on this node (final: only final blocks are executed, §6.1).",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32}}),
		rpc: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cowboy_rpc_duration_seconds", Help: "JSON-RPC call latency by method.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)}, []string{"method"}),
		rpcErrs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cowboy_rpc_errors_total", Help: "JSON-RPC calls answered with an error, by method."}, []string{"method"}),
	}
	m.reg.MustRegister(m.blocks, m.txs, m.failed, m.finality, m.rpc, m.rpcErrs,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_head_height", Help: "Height of the latest committed block."},
			func() float64 { return float64(n.Head().Height) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_mempool_transactions", Help: "Transactions waiting in the mempool."},
			func() float64 { return float64(n.pool.Len()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_basefee_cycle", Help: "Basefee per Cycle the next block charges, base units."},
			func() float64 { return float64(fees.NextBasefees(n.Head()).Cycle) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_basefee_cell", Help: "Basefee per Cell the next block charges, base units."},
			func() float64 { return float64(fees.NextBasefees(n.Head()).Cell) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_peers", Help: "Connected p2p peers (0 on a devnet)."},
			func() float64 {
				if ci, ok := n.Consensus(); ok {
					return float64(ci.Peers)
				}
				return 0
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cowboy_ws_subscriptions", Help: "Live WebSocket subscriptions."},
			func() float64 { return float64(n.events.Len()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cowboy_ws_dropped_total", Help: "WebSocket clients dropped for reading too slowly."},
			func() float64 { return float64(n.events.Dropped()) }),
	)
	return m
}

// observeRPC is the RPC server's Observe hook.
func (m *metrics) observeRPC(method string, d time.Duration, failed bool) {
	m.rpc.WithLabelValues(method).Observe(d.Seconds())
	if failed {
		m.rpcErrs.WithLabelValues(method).Inc()
	}
}

// block counts a committed block.
func (m *metrics) block(b *types.Block, receipts []*types.Receipt, now time.Time) {
	m.blocks.Inc()
	m.txs.Add(float64(len(b.Txs)))
	for _, r := range receipts {
		if r.Status != types.ReceiptSuccess {
			m.failed.Inc()
		}
	}
	if lat := now.Sub(time.Unix(int64(b.Header.Time), 0)).Seconds(); lat >= 0 {
		m.finality.Observe(lat)
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// The node lists its mempool (cowboy_mempool).
var _ rpc.MempoolReporter = (*Node)(nil)

// Mempool counts the pending transactions and lists up to max that the
// next block could take, in its order.
func (n *Node) Mempool(max int) (int, []*types.Tx) {
	return n.pool.Len(), n.pool.Select(committedView{stateReader{n.db, n.cache}}, fees.NextBasefees(n.Head()), max)
}
