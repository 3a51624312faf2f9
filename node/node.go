package node

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/blake16"
	"github.com/cowboy-chain/cowboy/mempool"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// Config is everything a node needs to start; cmd/cowboyd fills it from
// flags.
type Config struct {
	Home      string        // data directory; created if absent
	ChainID   uint64        // must match the chain stored in Home
	BlockTime time.Duration // 0: a block as soon as a transaction arrives
	RPCAddr   string        // host:port for JSON-RPC; "" disables it
	Genesis   *genesis.Genesis
	Logger    *slog.Logger
	// MaxBlockTxs bounds how many transactions one block takes from the
	// pool; the block caps bound it too. Default 10,000.
	MaxBlockTxs int
	// Now stamps blocks; tests replace it. Default time.Now.
	Now func() time.Time
	// Network, if set, runs a multi-validator chain (simplex consensus
	// over p2p, validator.go) instead of the single-validator devnet.
	Network *NetworkConfig
	// RetainHeights is how many recent heights stay provable
	// (cowboy_getProof with a height): store.Options.Retain. Default 256.
	RetainHeights int
}

// Node is a running single-validator chain.
type Node struct {
	cfg      Config
	log      *slog.Logger
	lock     *homeLock
	db       *store.Store
	pool     *mempool.Pool
	proposer types.Address
	events   rpc.Hub     // WebSocket subscriptions (node/rpcmux.go)
	mx       metricsOnce // Prometheus metrics (node/metrics.go)
	cache    *stateCache

	prodMu sync.Mutex // one block production at a time
	mu     sync.RWMutex
	head   *types.Header
	wake   chan struct{}

	inflight *stagedBlock // the block being committed (blockpipe.go); guarded by prodMu
	payloads payloadCache // decoded proposals (pipeline.go)
	recent   recentTxs    // the last blocks' transactions, senders cached
	blocks   blockCache   // the last blocks read by hash, decoded (pipeline.go)
	senders  senderCache  // senders of the last committed transactions (pipeline.go)

	pipelined atomic.Uint64 // blocks built while the block below them was still committing (blockpipe.go)
	// checkCarried, set only by tests, makes pipeTip wait for the block
	// under a carried view to commit and compare the view with the
	// committed state (verifyCarried).
	checkCarried bool

	rpcLn  net.Listener
	rpcSrv *http.Server

	net *network // nil on the single-validator devnet

	dev devState // devnet controls: clock offset (dev.go)
}

// Open locks the home directory, opens (or creates) the chain in it and
// loads the head. It does not start producing blocks: call Run.
func Open(cfg Config) (*Node, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if cfg.MaxBlockTxs == 0 {
		cfg.MaxBlockTxs = 10_000
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Genesis == nil {
		return nil, errors.New("node: no genesis")
	}
	cfg.ChainID = cfg.Genesis.ChainID
	lock, err := lockHome(cfg.Home)
	if err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, log: cfg.Logger, lock: lock, wake: make(chan struct{}, 1), cache: newStateCache(1 << 20),
		pool: mempool.New(mempool.Config{ChainID: cfg.ChainID})}
	ok := false
	defer func() {
		if !ok {
			n.closeStorage()
		}
	}()
	if cfg.Network != nil {
		if cfg.Network.Keys == nil || cfg.Network.Keys.Node == nil {
			return nil, errors.New("node: network config without a node key")
		}
		n.proposer = types.Address(cfg.Network.Keys.Node.Address())
	} else if n.proposer, err = loadValidatorKey(cfg.Home); err != nil {
		return nil, err
	}
	if cfg.RetainHeights < 0 {
		return nil, fmt.Errorf("node: retain %d heights: must be at least 1 (0 for the default)", cfg.RetainHeights)
	}
	if n.db, err = store.Open(filepath.Join(cfg.Home, "data"), store.Options{Retain: cfg.RetainHeights}); err != nil {
		return nil, fmt.Errorf("open store in %s: %w", cfg.Home, err)
	}
	if _, _, has := n.db.LastCommitted(); !has {
		if err := n.writeGenesis(); err != nil {
			return nil, err
		}
	}
	if err := n.checkChainID(); err != nil {
		return nil, err
	}
	if err := n.loadHead(); err != nil {
		return nil, err
	}
	if cfg.Network != nil {
		if err := n.openNetwork(); err != nil {
			return nil, err
		}
	}
	ok = true
	return n, nil
}

// loadValidatorKey reads (or creates) the devnet validator's key, whose
// address receives the tips of every block.
func loadValidatorKey(home string) (types.Address, error) {
	path := filepath.Join(home, "validator.key")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		k, err := crypto.GenerateKey()
		if err != nil {
			return types.Address{}, err
		}
		if err := writeFileAtomic(path, []byte(fmt.Sprintf("%x\n", k.Bytes()))); err != nil {
			return types.Address{}, fmt.Errorf("write validator key: %w", err)
		}
		return types.Address(k.Address()), nil
	}
	if err != nil {
		return types.Address{}, fmt.Errorf("read validator key: %w", err)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		return types.Address{}, fmt.Errorf("validator key %s is corrupt: %w", path, err)
	}
	k, err := crypto.PrivateKeyFromBytes(raw)
	if err != nil {
		return types.Address{}, fmt.Errorf("validator key %s: %w", path, err)
	}
	return types.Address(k.Address()), nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func txIndexKey(h types.Hash) store.Key {
	return statekey.Make(statekey.KindTxIndex, [20]byte{}, 0, h)
}

// encodeTxLocation is a tx index entry, the CBOR array [height, index]
// (what types.Marshal writes for []uint64{height, index}; written by hand
// because every transaction of every block has one).
func encodeTxLocation(height, index uint64) []byte {
	return appendTxLocation(make([]byte, 0, txLocationMax), height, index)
}

// txLocationMax is the longest encodeTxLocation: an array head and two
// 9-byte integers.
const txLocationMax = 19

// appendTxLocation appends encodeTxLocation(height, index) to b.
func appendTxLocation(b []byte, height, index uint64) []byte {
	b = types.AppendArrayHeader(b, 2)
	return types.AppendUint(types.AppendUint(b, height), index)
}

func receiptKey(h types.Hash) store.Key {
	return statekey.Make(statekey.KindReceipt, [20]byte{}, 0, h)
}

// stateReader adapts the store to chain/state, through the cache of
// recently committed values.
type stateReader struct {
	db    *store.Store
	cache *stateCache
}

func (r stateReader) GetState(k state.Key) ([]byte, error) {
	if v, ok := r.cache.get(k); ok {
		return v, nil
	}
	v, err := r.db.Get(store.StateDB, store.Key(k))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// headReader reads the state as of a committed height from the store's
// in-memory trees (store.GetAt). RPC reads use it pinned to Head()'s
// height (headState): the store commits a block a moment before the head
// moves to it (finishCommit), so reading the latest values could show
// block H+1's balances while Head() still reports H. A height the store
// no longer retains falls back to the latest committed values.
type headReader struct {
	db     *store.Store
	height uint64
}

func (r headReader) GetState(k state.Key) ([]byte, error) {
	v, err := r.db.GetAt(store.StateDB, store.Key(k), r.height)
	if errors.Is(err, store.ErrNotRetained) {
		v, err = r.db.Get(store.StateDB, store.Key(k))
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// headState is the state as of the block Head() reports, for RPC reads
// (headReader); block making reads the latest state (newState).
func (n *Node) headState() *state.StateDB {
	return state.New(headReader{n.db, n.Head().Height})
}

// stateCache holds the values of recently committed state keys (nil: the
// key was deleted), so the accounts one block touched are read from memory
// by the next. It is written only after a commit succeeds, so it never
// holds a value the store does not. Bounded: it starts over when full.
type stateCache struct {
	mu  sync.RWMutex
	m   map[state.Key][]byte
	max int
}

func newStateCache(max int) *stateCache { return &stateCache{m: map[state.Key][]byte{}, max: max} }

func (c *stateCache) get(k state.Key) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *stateCache) invalidate(ws []store.Write) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range ws {
		delete(c.m, state.Key(w.Key))
	}
}

func (c *stateCache) update(ws []store.Write) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m)+len(ws) > c.max {
		c.m = make(map[state.Key][]byte, len(ws))
	}
	for _, w := range ws {
		c.m[state.Key(w.Key)] = w.Value
	}
}

func (n *Node) newState() *state.StateDB { return state.New(stateReader{n.db, n.cache}) }

func (n *Node) checkChainID() error {
	raw, err := n.db.GetRaw(keyChainID)
	if err != nil {
		return fmt.Errorf("read chain id: %w", err)
	}
	if got := binary.BigEndian.Uint64(raw); got != n.cfg.ChainID {
		return fmt.Errorf("home %s holds chain id %d, not %d", n.cfg.Home, got, n.cfg.ChainID)
	}
	return nil
}

// writeGenesis commits block 0: the genesis allocations minted, and the
// validator registry with the genesis validators' stake (system/staking).
func (n *Node) writeGenesis() error {
	g := n.cfg.Genesis
	st := n.newState()
	if err := g.Apply(st); err != nil {
		return err
	}
	h := &types.Header{
		Height: 0, Time: g.Time, BasefeeCycle: g.BasefeeCycle, BasefeeCell: g.BasefeeCell,
		TxRoot: types.MerkleRoot(nil), ReceiptsRoot: types.MerkleRoot(nil),
	}
	raw := []store.RawWrite{{Key: keyChainID, Value: binary.BigEndian.AppendUint64(nil, g.ChainID)}}
	return n.commit(st, h, &execution.Result{}, raw)
}

func (n *Node) loadHead() error {
	height, _, ok := n.db.LastCommitted()
	if !ok {
		return errors.New("store is empty after genesis")
	}
	b, err := n.blockByNumber(height)
	if err != nil {
		return fmt.Errorf("load head block %d: %w", height, err)
	}
	n.mu.Lock()
	n.head = b.Header
	n.mu.Unlock()
	return n.loadDevClock(height)
}

// Head is the latest committed header.
func (n *Node) Head() *types.Header {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.head
}

// Proposer is the address that receives this node's block tips.
func (n *Node) Proposer() types.Address { return n.proposer }

// ProduceBlock builds, executes and commits one block from the mempool:
// the devnet's producer. It picks the candidates (§6.4) and fixes the
// block's time, proposer and beacon; execution and commit are the block
// pipeline every node shares (executeBlock). It returns the committed
// block.
func (n *Node) ProduceBlock() (*types.Block, error) {
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	return n.produceLocked(nil)
}

// produceLocked is ProduceBlock with prodMu held; pre, if set, changes the
// state before the block's transactions run (a devnet control, dev.go)
// and returns raw writes to commit with the block.
func (n *Node) produceLocked(pre func(st *state.StateDB, height uint64) ([]store.RawWrite, error)) (*types.Block, error) {
	parent := n.Head()
	st := n.newState()
	var extra []store.RawWrite
	if pre != nil {
		var err error
		if extra, err = pre(st, parent.Height+1); err != nil {
			return nil, err
		}
	}
	candidates := n.pool.Select(st, fees.NextBasefees(parent), n.cfg.MaxBlockTxs)
	clock := n.dev
	t := n.blockTime()
	if t < parent.Time {
		t = parent.Time // block time never goes backwards
	}
	extra = append(extra, n.devClockRecord(parent.Height+1)...)
	b, err := n.executeBlock(parent, st, blockInput{Height: parent.Height + 1, Time: t, Proposer: n.proposer,
		Beacon: devnetBeacon(parent.Hash(), parent.Height+1), Txs: candidates}, extra)
	if err != nil {
		n.dev = clock // the clock moves only with a committed block
	}
	return b, err
}

// commit writes the block, its receipts and tx index and the state changes
// in one atomic store commit, then moves the head.
func (n *Node) commit(st *state.StateDB, h *types.Header, res *execution.Result, extra []store.RawWrite) error {
	sb, err := n.prepareCommit(st, h, res, extra)
	if err != nil {
		return err
	}
	return n.finishCommit(sb)
}

// stagedBlock is a block executed and prepared in the store
// (store.Prepared) whose commit may still be running: the devnet's
// pipeline (pipeline.go) builds the next block on top of it meanwhile.
type stagedBlock struct {
	block    *types.Block
	receipts []*types.Receipt
	res      *execution.Result    // what execution produced: timer runs and job results for subscribers
	state    []store.Write        // the block's state writes
	txHashes []types.Hash         // its transactions' hashes, in block order
	overlay  map[state.Key][]byte // the same, read by the next block before they are committed; made when needed (pipeTip)
	after    *state.StateDB       // the view the block executed on, the state after it; taken by the next block (pipeTip)
	prep     *store.Prepared
	below    *stagedBlock  // the block under it while that one was still committing; guarded by prodMu
	done     chan struct{} // closed when the commit ended; err says how
	err      error
}

// prepareCommit computes the commit of a block (its receipts, tx index and
// state changes, the header's roots) and prepares it in the store on top
// of the last block committed or prepared. Nothing is written or shown
// to readers: finishCommit does that.
func (n *Node) prepareCommit(st *state.StateDB, h *types.Header, res *execution.Result, extra []store.RawWrite) (*stagedBlock, error) {
	writes, err := st.Writes()
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", h.Height, err)
	}
	batch := &store.Batch{State: make([]store.Write, len(writes)), Raw: extra}
	for i, w := range writes {
		batch.State[i] = store.Write{Key: store.Key(w.Key), Value: w.Value}
	}
	count := len(res.Txs)
	txHashes := make([]types.Hash, count)
	rcptHashes := make([]types.Hash, count)
	batch.TxIndex = make([]store.Write, count)
	batch.TxReceipts = make([]store.Write, count)
	// The tx index entries share one buffer, each in a slot of its own
	// (capped, so nothing can append over the next).
	locs := make([]byte, count*txLocationMax)
	// Receipts are encoded and hashed on all cores, in runs of
	// receiptRun: each index is written by exactly one goroutine, so the
	// result does not depend on scheduling. Where the processor has
	// AVX-512, a run's receipts (a transfer's is about 70 bytes) are
	// hashed sixteen at a time (crypto/blake16), longer ones one by one.
	err = parallel((count+receiptRun-1)/receiptRun, func(r int) error {
		short, shortDst := make([][]byte, 0, receiptRun), make([]*[32]byte, 0, receiptRun)
		for i := r * receiptRun; i < min((r+1)*receiptRun, count); i++ {
			txHashes[i] = res.Txs[i].Hash()
			enc, err := res.Receipts[i].Encode()
			if err != nil {
				return fmt.Errorf("encode receipt: %w", err)
			}
			if blake16.Available && len(enc) <= blake16.MaxSum {
				short, shortDst = append(short, enc), append(shortDst, (*[32]byte)(&rcptHashes[i]))
			} else {
				rcptHashes[i] = types.Hash(crypto.Blake3(enc))
			}
			slot := locs[i*txLocationMax : i*txLocationMax : (i+1)*txLocationMax]
			batch.TxIndex[i] = store.Write{Key: txIndexKey(txHashes[i]), Value: appendTxLocation(slot, h.Height, uint64(i))}
			batch.TxReceipts[i] = store.Write{Key: receiptKey(txHashes[i]), Value: enc}
		}
		if len(short) > 0 {
			blake16.Sums(short, shortDst)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := continuationReceipts(batch, h.Height, count, res.Jobs); err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); h.TxRoot = types.MerkleRoot(txHashes) }()
	h.ReceiptsRoot = types.MerkleRoot(rcptHashes)
	wg.Wait()
	block := &types.Block{Header: h, Txs: res.Txs}
	prep, err := n.db.Prepare(h.Height, batch, func(roots store.Roots) ([]store.RawWrite, error) {
		h.StateRoot = roots.State
		enc, err := block.Encode()
		if err != nil {
			return nil, fmt.Errorf("encode block: %w", err)
		}
		hash := h.Hash()
		return []store.RawWrite{
			{Key: heightKey(h.Height), Value: hash[:]},
			{Key: blockKey(hash), Value: enc},
		}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("commit block %d: %w", h.Height, err)
	}
	return &stagedBlock{block: block, receipts: res.Receipts, res: res, state: batch.State, txHashes: txHashes, prep: prep, done: make(chan struct{})}, nil
}

// receiptRun is how many receipts prepareCommit's goroutines take at a
// time: enough for four groups of sixteen hashes.
const receiptRun = 64

// finishCommit writes a prepared block, synced, and only then shows it:
// the state cache, the head, the recent transactions and the subscribers.
// Blocks are finished in height order.
func (n *Node) finishCommit(sb *stagedBlock) error {
	h := sb.block.Header
	// Readers must never see a cached value older than what the store
	// already shows (a receipt visible while the balance is stale): drop the
	// keys from the cache first; reads go to the store until the commit is
	// done, then the cache takes the new values.
	n.cache.invalidate(sb.state)
	if _, err := sb.prep.Commit(); err != nil {
		return fmt.Errorf("commit block %d: %w", h.Height, err)
	}
	n.cache.update(sb.state)
	n.mu.Lock()
	n.head = h
	n.mu.Unlock()
	if len(sb.block.Txs) > 0 {
		bh := h.Hash()
		n.recent.add(bh, sb.block, sb.txHashes)
		n.senders.add(bh, sb.block.Txs)
	}
	n.payloads.prune(h.Height)
	n.published(sb.block, sb.receipts)
	n.publishLanes(h, sb.res)
	return nil
}

// Run produces blocks and serves RPC until ctx is cancelled, then shuts
// down cleanly. It returns the first fatal error.
func (n *Node) Run(ctx context.Context) error {
	if n.cfg.RPCAddr != "" {
		if err := n.startRPC(); err != nil {
			return err
		}
	}
	if n.net != nil {
		return n.runNetwork(ctx)
	}
	var tick <-chan time.Time
	if n.cfg.BlockTime > 0 {
		t := time.NewTicker(n.cfg.BlockTime)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
		case <-n.wake:
			if n.cfg.BlockTime > 0 {
				continue // blocks come on the clock
			}
			// A wake-up whose transaction already went into the block the
			// loop below made has nothing left to do: an on-demand devnet
			// makes no empty blocks (they moved heights under the CLI tests).
			if n.pool.Len() == 0 {
				continue
			}
		}
		for {
			// On the clock one block a tick; on demand a burst, each block
			// built while the one before it syncs (blockpipe.go).
			var made []*types.Block
			var err error
			if n.cfg.BlockTime > 0 {
				var b *types.Block
				b, err = n.ProduceBlock()
				made = []*types.Block{b}
			} else {
				made, err = n.produceBurst()
			}
			if err != nil {
				return fmt.Errorf("produce block: %w", err)
			}
			for _, b := range made {
				if len(b.Txs) > 0 {
					n.log.Info("block", "height", b.Header.Height, "txs", len(b.Txs), "hash", b.Header.Hash())
				}
			}
			// On demand: keep going while the pool has work.
			if last := made[len(made)-1]; n.cfg.BlockTime > 0 || len(last.Txs) == 0 || n.pool.Len() == 0 {
				break
			}
		}
	}
}

// RPCAddr is the address the RPC server listens on (useful with port 0).
// Safe to poll while Run starts the server.
func (n *Node) RPCAddr() string {
	n.mu.RLock()
	ln := n.rpcLn
	n.mu.RUnlock()
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

func (n *Node) startRPC() error {
	ln, err := net.Listen("tcp", n.cfg.RPCAddr)
	if err != nil {
		return fmt.Errorf("listen for RPC on %s: %w", n.cfg.RPCAddr, err)
	}
	n.rpcSrv = &http.Server{Handler: n.rpcHandler(), ReadHeaderTimeout: 10 * time.Second}
	n.mu.Lock()
	n.rpcLn = ln
	n.mu.Unlock()
	go func() {
		if err := n.rpcSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			n.log.Error("rpc server stopped", "err", err)
		}
	}()
	return nil
}

// Close stops RPC, closes the store and releases the home lock.
func (n *Node) Close() error {
	if n.rpcSrv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n.rpcSrv.Shutdown(ctx)
		cancel()
	}
	n.reportDropped()
	n.prodMu.Lock() // wait for a block in progress
	defer n.prodMu.Unlock()
	return n.closeStorage()
}

func (n *Node) closeStorage() error {
	var err error
	if n.net != nil && n.net.host != nil {
		n.net.host.Close()
		n.net.host = nil
	}
	if n.db != nil {
		err = n.db.Close()
		n.db = nil
	}
	if n.lock != nil {
		n.lock.release()
		n.lock = nil
	}
	return err
}

// notify wakes the producer after a transaction arrives.
func (n *Node) notify() {
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

func (n *Node) blockByNumber(height uint64) (*types.Block, error) {
	if h := n.Head(); h != nil && height > h.Height {
		return nil, fmt.Errorf("block %d: %w", height, rpc.ErrNotFound)
	}
	hash, err := n.db.GetRaw(heightKey(height))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("block %d: %w", height, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return n.blockByHash(types.Hash(hash))
}

func (n *Node) blockByHash(h types.Hash) (*types.Block, error) {
	b, ok := n.blocks.get(h) // read from the store before: committed
	if !ok {
		raw, err := n.db.GetRaw(blockKey(h))
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("block %s: %w", h, rpc.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if b, err = types.DecodeBlock(raw); err != nil {
			return nil, err
		}
		n.senders.fill(h, b.Txs)
		n.blocks.put(h, b)
	}
	n.devSenders(b.Txs) // impersonated transactions (devimpersonate.go)
	if head := n.Head(); head != nil && b.Header.Height > head.Height {
		return nil, fmt.Errorf("block %s: %w", h, rpc.ErrNotFound) // committing right now
	}
	return b, nil
}

// parallel runs f(0..n-1) on all cores and returns the first error.
func parallel(n int, f func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if err := f(i); err != nil {
					errs[w] = err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	return errors.Join(errs...)
}

// devnetBeacon is R_n on the single-validator devnet, which has no VRF:
// keccak256("cowboy/devnet-beacon/v1" ‖ parent hash ‖ height). It differs
// per block but anyone can compute it ahead (docs/actors.md says so).
// Simulated calls (cowboy_call) on a validator network use it too: their
// block is not drawn yet.
func devnetBeacon(parent types.Hash, height uint64) [32]byte {
	return crypto.Keccak256([]byte("cowboy/devnet-beacon/v1"), parent[:], binary.BigEndian.AppendUint64(nil, height))
}
