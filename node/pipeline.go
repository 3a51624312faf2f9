package node

import (
	"sync"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// The block pipeline (docs/architecture.md "How a transaction becomes a
// block"). Every block this node commits goes through executeBlock: the
// devnet's ProduceBlock with candidates it picked from its mempool, a
// validator or full node with the candidates of a finalized proposal
// (applyFinal, from its own consensus, a sync answer or a pushed block).
// What differs between them is only where the blockInput comes from.

// blockInput is everything the state transition of one block reads
// besides the state: fixed by the producer on the devnet, carried by the
// finalized simplex block on a network.
type blockInput struct {
	Height   uint64
	Time     uint64
	Proposer types.Address   // receives the tips (§8.4)
	Beacon   [32]byte        // R_n (§3.4)
	Signers  []types.Address // who certified the parent (downtime); nil if unknown
	Txs      []*types.Tx     // candidates, in block order
}

// executeBlock runs the one state transition (execution.Build) of in on st,
// the committed state after parent, commits the block with extra raw
// writes in the same atomic commit, and then updates the mempool. The
// caller holds prodMu.
func (n *Node) executeBlock(parent *types.Header, st *state.StateDB, in blockInput, extra []store.RawWrite) (*types.Block, error) {
	sb, err := n.stageBlock(parent, st, in, extra)
	if err != nil {
		return nil, err
	}
	if err := n.finishCommit(sb); err != nil {
		return nil, err
	}
	return sb.block, nil
}

// stageBlock is executeBlock up to the store's Prepare: the block is
// executed, its commit computed and the mempool updated, but nothing is
// written. The caller holds prodMu and must finish (finishCommit) or
// discard the block.
//
// Senders are recovered here, on all cores, for candidates that do not
// carry one yet (a block from a sync answer or a push); candidates that
// came through this node's mempool or a judged proposal have theirs
// cached, so execution recovers nothing. An invalid signature is still
// refused by execution: recovery here only fills the cache.
func (n *Node) stageBlock(parent *types.Header, st *state.StateDB, in blockInput, extra []store.RawWrite) (*stagedBlock, error) {
	recoverSenders(in.Txs)
	bf := fees.NextBasefees(parent)
	bc := &execution.BlockContext{ChainID: n.cfg.ChainID, Height: in.Height, Time: in.Time, Proposer: in.Proposer,
		Basefees: bf, Beacon: in.Beacon, Signers: in.Signers, LastBlockCycles: parent.CyclesUsed}
	res, err := execution.Build(st, bc, in.Txs)
	if err != nil {
		return nil, err
	}
	h := &types.Header{
		ParentHash: parent.Hash(), Height: in.Height, Time: in.Time, Proposer: in.Proposer,
		BasefeeCycle: bf.Cycle, BasefeeCell: bf.Cell, CyclesUsed: res.CyclesUsed, CellsUsed: res.CellsUsed,
	}
	sb, err := n.prepareCommit(st, h, res, extra)
	if err != nil {
		return nil, err
	}
	dropped := make([]*types.Tx, 0, len(res.Rejected))
	for _, r := range res.Rejected {
		dropped = append(dropped, r.Tx)
		n.log.Debug("dropped invalid transaction", "tx", r.Tx.Hash(), "err", r.Err)
	}
	n.pool.Remove(res.Txs)
	n.pool.Remove(dropped)
	n.pool.Prune(st) // st now holds the block's accounts: no reads needed
	return sb, nil
}

// recoverSenders recovers, on all cores, the senders of the transactions
// that have none cached. A signature that does not recover is left for
// execution to refuse.
func recoverSenders(txs []*types.Tx) {
	parallel(len(txs), func(i int) error {
		txs[i].Sender()
		return nil
	})
}

// recentTxs keeps the transactions of the last committed blocks as they
// were executed, decoded and with their senders cached, so a receipt or
// transaction lookup of a recent transaction neither reads and decodes its
// whole block nor recovers its sender again. Bounded by maxRecentTxs,
// evicted a block at a time, oldest first.
type recentTxs struct {
	mu     sync.RWMutex
	byHash map[types.Hash]recentTx
	blocks [][]types.Hash // per committed block, oldest first
	count  int
}

type recentTx struct {
	tx  *types.Tx
	loc rpc.TxLocation
}

// maxRecentTxs bounds recentTxs: five full blocks of transfers at the
// block caps (§17.8).
const maxRecentTxs = 10_000

// add keeps the transactions of the committed block b, whose hash is bh
// and whose transactions' hashes are hashes (in block order; kept).
func (r *recentTxs) add(bh types.Hash, b *types.Block, hashes []types.Hash) {
	if len(b.Txs) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byHash == nil {
		r.byHash = map[types.Hash]recentTx{}
	}
	for i, tx := range b.Txs {
		r.byHash[hashes[i]] = recentTx{tx: tx, loc: rpc.TxLocation{BlockHash: bh, Height: b.Header.Height, Index: i}}
	}
	r.blocks = append(r.blocks, hashes)
	r.count += len(hashes)
	for r.count > maxRecentTxs && len(r.blocks) > 1 {
		for _, h := range r.blocks[0] {
			delete(r.byHash, h)
		}
		r.count -= len(r.blocks[0])
		r.blocks = r.blocks[1:]
	}
}

func (r *recentTxs) get(h types.Hash) (recentTx, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byHash[h]
	return t, ok
}

// senderCache keeps the senders of the transactions of the last committed
// blocks, by block hash, so a block read back from the store (a receipt or
// transaction lookup older than recentTxs holds) has its transactions'
// senders set instead of recovered again: in a `cowboy bench transfers`
// run of 20,000, re-recovering the half that recentTxs no longer held
// took 18% of the node's CPU. A block hash commits to its transactions in
// order and a hash to the signature, so the senders of a block hash never
// change (a devnet revert included). Kept per block, not per transaction:
// one map entry and one slice per block instead of a map insert and
// delete per transaction on the commit path. Only RPC reads of committed
// blocks use it; execution never does.
type senderCache struct {
	mu     sync.RWMutex
	m      map[types.Hash][]cachedSender
	blocks []types.Hash // oldest first
	count  int
}

// cachedSender is one transaction's sender; ok is false for one execution
// did not recover (an impersonated devnet transaction).
type cachedSender struct {
	from types.Address
	ok   bool
}

// maxCachedSenders bounds senderCache: about 2.5 MB of entries, 50 full
// blocks of transfers.
const maxCachedSenders = 100_000

// add keeps the senders of txs, the transactions of the committed block
// with hash bh, in block order.
func (c *senderCache) add(bh types.Hash, txs []*types.Tx) {
	if len(txs) == 0 {
		return
	}
	froms := make([]cachedSender, len(txs))
	for i, tx := range txs {
		if from, err := tx.Sender(); err == nil { // cached: execution recovered it
			froms[i] = cachedSender{from: from, ok: true}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[types.Hash][]cachedSender{}
	}
	if _, ok := c.m[bh]; !ok {
		c.blocks = append(c.blocks, bh)
		c.count += len(froms)
	}
	c.m[bh] = froms
	for c.count > maxCachedSenders && len(c.blocks) > 1 {
		c.count -= len(c.m[c.blocks[0]])
		delete(c.m, c.blocks[0])
		c.blocks = c.blocks[1:]
	}
}

// fill sets the cached senders of txs, the transactions of the block with
// hash bh.
func (c *senderCache) fill(bh types.Hash, txs []*types.Tx) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	froms := c.m[bh]
	if len(froms) != len(txs) {
		return
	}
	for i, tx := range txs {
		if froms[i].ok {
			tx.SetSender(froms[i].from)
		}
	}
}

// blockCache keeps the blocks last read by hash, decoded, so RPC reads of
// the same blocks (a receipt lookup for each transaction of a block, older
// than recentTxs holds; an explorer paging through blocks) decode a block
// of 2,000 transactions once rather than per request, and its
// transactions keep the senders they recovered. A committed block never
// changes, so an entry is never stale; blockByHash still reads the store
// first, so a block counts only once it is committed. Callers must not
// modify a returned block. Bounded by maxCachedBlocks, oldest out first.
type blockCache struct {
	mu    sync.Mutex
	m     map[types.Hash]*types.Block
	order []types.Hash
}

// maxCachedBlocks bounds blockCache: with recentTxs (five full blocks)
// it covers the receipts of the last ~13 full blocks.
const maxCachedBlocks = 8

func (c *blockCache) get(h types.Hash) (*types.Block, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[h]
	return b, ok
}

func (c *blockCache) put(h types.Hash, b *types.Block) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[types.Hash]*types.Block{}
	}
	if _, ok := c.m[h]; ok {
		return
	}
	if len(c.order) >= maxCachedBlocks {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[h] = b
	c.order = append(c.order, h)
}

// payloadCache holds decoded proposals by the keccak256 of their bytes, so
// a validator decodes a proposal and recovers its senders once, when it
// judges it, and applyFinal, buildPayload and payloadTime reuse the result.
// Transactions this node already holds in its mempool are replaced by the
// pool's objects, whose senders were recovered at admission. Entries are
// dropped once their height is committed; the cache is bounded (a miss only
// costs a decode).
type payloadCache struct {
	mu sync.Mutex
	m  map[types.Hash]cachedPayload
}

type cachedPayload struct {
	p      *payload
	height uint64
}

// maxCachedPayloads bounds payloadCache: proposals are certified and
// finalized within a few rounds, so live entries are few.
const maxCachedPayloads = 256

func payloadKey(raw []byte) types.Hash { return types.Hash(crypto.Keccak256(raw)) }

func (c *payloadCache) get(k types.Hash) (*payload, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e.p, ok
}

func (c *payloadCache) put(k types.Hash, p *payload, height uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedPayloads {
		c.m = map[types.Hash]cachedPayload{}
	}
	c.m[k] = cachedPayload{p: p, height: height}
}

// prune drops the entries at or below the committed height.
func (c *payloadCache) prune(committed uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		if e.height <= committed {
			delete(c.m, k)
		}
	}
}

// payloadOf decodes the payload of a simplex block at height, once: the
// decoded transactions are the mempool's own objects where the pool holds
// them (senders already recovered). Blocks above the committed head are
// cached until they are applied.
func (n *Node) payloadOf(raw []byte, height uint64) (*payload, error) {
	k := payloadKey(raw)
	if p, ok := n.payloads.get(k); ok {
		return p, nil
	}
	p, err := decodePayload(raw)
	if err != nil {
		return nil, err
	}
	for i, tx := range p.Txs {
		if known, ok := n.pool.Get(tx.Hash()); ok {
			p.Txs[i] = known
		}
	}
	if height > n.Head().Height {
		n.payloads.put(k, p, height)
	}
	return p, nil
}
