package rpc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Subscriptions (issue 16): over a WebSocket on the RPC address, a client
// sends cowboy_subscribe and receives cowboy_subscription notifications as
// the node commits blocks and accepts transactions, instead of polling.
//
// The node publishes into a Hub; the Hub never blocks the node. Every
// connection has a bounded queue of outgoing messages; a publish that finds
// it full drops that connection (a slow client is cut off, never waited
// for), so a block commit costs one non-blocking channel send per matching
// subscription.

// Subscription kinds, the first param of cowboy_subscribe.
const (
	// SubNewHeads: each block as it joins the chain (header fields, as
	// cowboy_getBlockByNumber without transactions).
	SubNewHeads = "newHeads"
	// SubFinalizedHeads: each finalized block. The node executes and
	// serves only finalized blocks (§6.1), so this is the newHeads stream;
	// it exists so a client can say which guarantee it relies on.
	SubFinalizedHeads = "finalizedHeads"
	// SubLogs: events of new blocks, filtered by {"address", "name"}.
	SubLogs = "logs"
	// SubPendingTransactions: the hash of each transaction this node
	// accepts into its mempool.
	SubPendingTransactions = "pendingTransactions"
	// SubReceipt: the receipt of one transaction (second param, its hash),
	// once, when it is in a block (at once if it already is); then the
	// subscription ends by itself.
	SubReceipt = "transactionReceipt"
)

// DefaultSubQueue is how many outgoing messages a WebSocket connection may
// have waiting before it is dropped as too slow.
const DefaultSubQueue = 256

// MaxSubsPerConn bounds one connection's subscriptions.
const MaxSubsPerConn = 64

// Hub fans published chain events out to WebSocket subscribers. The zero
// value is an empty hub, ready to use. Safe for concurrent use.
type Hub struct {
	mu      sync.Mutex
	subs    map[string]*subscription // by id
	byTx    map[types.Hash][]*subscription
	next    uint64
	dropped atomic.Uint64 // connections dropped as slow
	conns   map[*wsConn]struct{}
	closed  bool // Close was called: no new connections
}

// join registers a connection, so Close can end it; false once closed.
func (h *Hub) join(c *wsConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	if h.conns == nil {
		h.conns = map[*wsConn]struct{}{}
	}
	h.conns[c] = struct{}{}
	return true
}

// Close ends every WebSocket connection (close code 1001, going away) and
// refuses new ones: the node is stopping. http.Server.Shutdown does not
// close connections that were upgraded, so without it a client waiting on
// a subscription would wait on a dead node.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.stop("the node is stopping")
	}
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{subs: map[string]*subscription{}, byTx: map[types.Hash][]*subscription{}}
}

// subscription is one cowboy_subscribe of one connection.
type subscription struct {
	id     string
	kind   string
	conn   *wsConn
	filter LogFilter   // SubLogs: Address and Name
	tx     types.Hash  // SubReceipt
	done   atomic.Bool // SubReceipt: delivered
	// active is set once the subscribe answer is queued, so no
	// notification overtakes the id it is for.
	active atomic.Bool
}

// notification is a cowboy_subscription message.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  struct {
		Subscription string `json:"subscription"`
		Result       any    `json:"result"`
	} `json:"params"`
}

func encodeNotification(id string, result any) []byte {
	var n notification
	n.JSONRPC, n.Method = "2.0", "cowboy_subscription"
	n.Params.Subscription, n.Params.Result = id, result
	b, err := json.Marshal(&n)
	if err != nil {
		// Results are this package's JSON types, which always encode.
		panic(fmt.Sprintf("rpc: encode notification: %v", err))
	}
	return b
}

// add registers a subscription and returns its id.
func (h *Hub) add(s *subscription) (string, *Error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs, h.byTx = map[string]*subscription{}, map[types.Hash][]*subscription{}
	}
	if s.conn.subs >= MaxSubsPerConn {
		return "", newError(CodeLimitExceeded, "this connection already has %d subscriptions, the most allowed", MaxSubsPerConn)
	}
	h.next++
	s.id = "0x" + strconv.FormatUint(h.next, 16)
	h.subs[s.id] = s
	s.conn.subs++
	if s.kind == SubReceipt {
		h.byTx[s.tx] = append(h.byTx[s.tx], s)
	}
	return s.id, nil
}

// remove ends subscription id if conn owns it.
func (h *Hub) remove(c *wsConn, id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.subs[id]
	if !ok || s.conn != c {
		return false
	}
	h.drop(s)
	return true
}

// drop forgets s; h.mu is held.
func (h *Hub) drop(s *subscription) {
	delete(h.subs, s.id)
	s.conn.subs--
	if s.kind == SubReceipt {
		list := h.byTx[s.tx]
		for i, x := range list {
			if x == s {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(h.byTx, s.tx)
		} else {
			h.byTx[s.tx] = list
		}
	}
}

// removeConn forgets c and every subscription of it (its connection closed).
func (h *Hub) removeConn(c *wsConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	for _, s := range h.subs {
		if s.conn == c {
			h.drop(s)
		}
	}
}

// Len is the number of live subscriptions.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Dropped counts the connections dropped because their queue was full.
func (h *Hub) Dropped() uint64 { return h.dropped.Load() }

// PublishBlock announces a block that joined the chain, with its receipts
// (one per transaction, in order). It does not block: a subscriber whose
// queue is full is dropped.
func (h *Hub) PublishBlock(b *types.Block, receipts []*types.Receipt) {
	h.mu.Lock()
	if len(h.subs) == 0 {
		h.mu.Unlock()
		return
	}
	// Collect under the lock, send after it: sending may drop a
	// connection, which takes the lock again.
	type out struct {
		s   *subscription
		msg []byte
	}
	var sends []out
	var head *BlockJSON
	hash := b.Header.Hash()
	for _, s := range h.subs {
		if !s.active.Load() {
			continue
		}
		switch s.kind {
		case SubNewHeads, SubFinalizedHeads:
			if head == nil {
				var err error
				if head, err = NewBlockJSON(b, false); err != nil {
					h.mu.Unlock()
					return // a block that does not render is not announced
				}
			}
			sends = append(sends, out{s, encodeNotification(s.id, head)})
		case SubLogs:
			var idx uint64
			for i, rc := range receipts {
				for _, e := range rc.Events {
					if (s.filter.Address == nil || *s.filter.Address == e.Address) && (s.filter.Name == "" || s.filter.Name == e.Name) {
						l := NewLogJSON(Log{Event: e, Height: b.Header.Height, BlockHash: hash, TxHash: rc.TxHash,
							TxIndex: uint64(i), LogIndex: idx})
						sends = append(sends, out{s, encodeNotification(s.id, &l)})
					}
					idx++
				}
			}
		}
	}
	for i, tx := range b.Txs {
		subs := h.byTx[tx.Hash()]
		if len(subs) == 0 || i >= len(receipts) {
			continue
		}
		rj, err := NewReceiptJSON(receipts[i], tx, TxLocation{BlockHash: hash, Height: b.Header.Height, Index: i})
		if err != nil {
			continue
		}
		for _, s := range subs {
			if s.active.Load() && s.done.CompareAndSwap(false, true) {
				sends = append(sends, out{s, encodeNotification(s.id, rj)})
			}
		}
		for _, s := range append([]*subscription(nil), subs...) {
			if s.active.Load() {
				h.drop(s) // an inactive one checks the store once active
			}
		}
	}
	h.mu.Unlock()
	for _, o := range sends {
		o.s.conn.send(o.msg)
	}
}

// PublishPendingTx announces a transaction accepted into the mempool.
func (h *Hub) PublishPendingTx(tx *types.Tx) {
	h.mu.Lock()
	var targets []*subscription
	for _, s := range h.subs {
		if s.kind == SubPendingTransactions && s.active.Load() {
			targets = append(targets, s)
		}
	}
	h.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	hash := Hash(tx.Hash())
	for _, s := range targets {
		s.conn.send(encodeNotification(s.id, hash))
	}
}

// deliverReceipt sends a receipt found at subscribe time, unless a block
// publish got there first, and ends the subscription.
func (h *Hub) deliverReceipt(s *subscription, rj *ReceiptJSON) {
	if s.done.CompareAndSwap(false, true) {
		s.conn.send(encodeNotification(s.id, rj))
	}
	h.mu.Lock()
	if _, ok := h.subs[s.id]; ok {
		h.drop(s)
	}
	h.mu.Unlock()
}
