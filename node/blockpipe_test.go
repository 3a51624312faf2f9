package node

import (
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/store"
)

// replaySerially re-executes blocks 1..head of n, block by block with no
// pipeline (executeBlock on the committed state, as a full node replays),
// on a fresh node of the same genesis, and fails unless every header
// comes out identical: state, receipts and tx roots included. It is what
// shows that building a block on an uncommitted parent changed nothing
// that reaches the state.
func replaySerially(t *testing.T, n *Node) {
	t.Helper()
	r := openTest(t, t.TempDir())
	defer r.Close()
	head := n.Head().Height
	for h := uint64(1); h <= head; h++ {
		b, err := n.BlockByNumber(h)
		if err != nil {
			t.Fatal(err)
		}
		txs := make([]*types.Tx, len(b.Txs))
		for i, tx := range b.Txs {
			txs[i] = fromWire(t, tx)
		}
		parent := r.Head()
		r.prodMu.Lock()
		got, err := r.executeBlock(parent, r.newState(), blockInput{Height: h, Time: b.Header.Time, Proposer: b.Header.Proposer,
			Beacon: devnetBeacon(parent.Hash(), h), Txs: txs}, nil)
		r.prodMu.Unlock()
		if err != nil {
			t.Fatalf("replay block %d: %v", h, err)
		}
		if got.Header.Hash() != b.Header.Hash() {
			t.Fatalf("block %d replayed serially differs: state root %s, pipelined %s; %d txs, pipelined %d",
				h, got.Header.StateRoot, b.Header.StateRoot, len(got.Txs), len(b.Txs))
		}
	}
}

// TestPipelineMatchesSerial makes blocks the way the on-demand devnet
// does (produceBurst: each built on the one before while that one is
// committed) from transfers between a few accounts that each block's
// tips, balances and nonces carry into the next, and replays them block
// by block on a fresh node: the chains must be identical.
func TestPipelineMatchesSerial(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	n.cfg.MaxBlockTxs = 5
	n.checkCarried = true // every carried view against the committed state
	var txs []*types.Tx
	for nonce := uint64(0); nonce < 8; nonce++ {
		for i := 2; i < 6; i++ {
			to, _ := genesis.DevAddress((i + 1) % 6) // each sender also receives
			txs = append(txs, pipelineTransfer(genesis.DevnetChainID, devKey(t, i), nonce, to, int64(1000+nonce)))
		}
	}
	for i, err := range n.SubmitBatch(txs) {
		if err != nil {
			t.Fatalf("tx %d: %v", i, err)
		}
	}
	var made []*types.Block
	for n.pool.Len() > 0 {
		bs, err := n.produceBurst()
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, bs...)
	}
	if len(made) < 4 {
		t.Fatalf("%d blocks: the pipeline was not exercised", len(made))
	}
	included := 0
	for i, b := range made {
		if b.Header.Height != uint64(i+1) {
			t.Fatalf("block %d has height %d", i, b.Header.Height)
		}
		included += len(b.Txs)
	}
	if included != len(txs) || n.Head().Height != uint64(len(made)) {
		t.Fatalf("%d of %d transfers in %d blocks, head %d", included, len(txs), len(made), n.Head().Height)
	}
	for _, tx := range txs {
		if rc, _, err := n.Receipt(tx.Hash()); err != nil || rc.Status != types.ReceiptSuccess {
			t.Fatalf("transfer %s: %v %+v", tx.Hash(), err, rc)
		}
	}
	replaySerially(t, n)
}

// TestSenderCacheFillsBlocksReadBack: a committed transaction read back
// from the store, after the recent-transaction and block caches let it
// go, takes its sender from senderCache (a planted entry shows through)
// and, without an entry, recovers the signer.
func TestSenderCacheFillsBlocksReadBack(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	to, _ := genesis.DevAddress(1)
	tx := pipelineTransfer(genesis.DevnetChainID, devKey(t, 2), 0, to, 5)
	if err := n.SubmitBatch([]*types.Tx{tx})[0]; err != nil {
		t.Fatal(err)
	}
	b, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	bh := b.Header.Hash()
	signer, _ := genesis.DevAddress(2)
	planted := types.Address{0xee}
	for _, tc := range []struct {
		name string
		fill func()
		want types.Address
	}{
		{"cached", func() { n.senders.m[bh] = []cachedSender{{from: planted, ok: true}} }, planted},
		{"not recovered", func() { n.senders.m[bh] = []cachedSender{{from: planted}} }, signer},
		{"other length", func() { n.senders.m[bh] = []cachedSender{{from: planted, ok: true}, {}} }, signer},
		{"not cached", func() { delete(n.senders.m, bh) }, signer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.fill()
			n.recent.reset()
			n.blocks = blockCache{}
			got, _, err := n.TransactionByHash(tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			if from, err := got.Sender(); err != nil || from != tc.want {
				t.Fatalf("sender %s (%v), want %s", from, err, tc.want)
			}
		})
	}
}

// TestSenderCacheBound: senderCache keeps whole blocks, oldest out first,
// until maxCachedSenders transactions are held (always the newest block),
// and a block committed again (a devnet revert) counts once.
func TestSenderCacheBound(t *testing.T) {
	var c senderCache
	txs := func(n int) []*types.Tx {
		out := make([]*types.Tx, n)
		for i := range out {
			out[i] = &types.Tx{Nonce: uint64(i)}
			out[i].SetSender(types.Address{byte(i)})
		}
		return out
	}
	third := maxCachedSenders / 3
	c.add(types.Hash{1}, txs(third))
	c.add(types.Hash{2}, txs(third))
	c.add(types.Hash{2}, txs(third)) // again: not counted twice
	c.add(types.Hash{3}, txs(third))
	c.add(types.Hash{4}, nil)
	if len(c.m) != 3 || c.count != 3*third {
		t.Fatalf("%d blocks, %d senders held", len(c.m), c.count)
	}
	c.add(types.Hash{5}, txs(third))
	if _, ok := c.m[types.Hash{1}]; ok || len(c.m) != 3 || c.count != 3*third {
		t.Fatalf("after the bound: %d blocks, %d senders, oldest kept %v", len(c.m), c.count, ok)
	}
	c.add(types.Hash{6}, txs(maxCachedSenders+1))
	if len(c.m) != 1 || c.count != maxCachedSenders+1 {
		t.Fatalf("one block over the bound: %d blocks, %d senders", len(c.m), c.count)
	}
	got := txs(3)
	for _, tx := range got {
		tx.SetSender(types.Address{0xff})
	}
	c.add(types.Hash{7}, txs(3))
	c.fill(types.Hash{7}, got)
	for i, tx := range got {
		if from, _ := tx.Sender(); from != (types.Address{byte(i)}) {
			t.Fatalf("tx %d: sender %s", i, from)
		}
	}
}

// TestCarriedViewGuard: a state write that bypasses the block's view (a
// balance planted in the node's state cache, which fresh views read
// through, once the block below committed) goes unseen by the pipeline,
// whose next block runs on the carried view, unless checkCarried is set:
// then the next block is refused with state.ErrStale. The pipeline tests
// run with it set.
func TestCarriedViewGuard(t *testing.T) {
	from, _ := genesis.DevAddress(2)
	to, _ := genesis.DevAddress(3)
	planted, err := types.Marshal(&state.Account{Nonce: 1, Balance: big.NewInt(7)})
	if err != nil {
		t.Fatal(err)
	}
	for _, guard := range []bool{false, true} {
		n := openTest(t, t.TempDir())
		n.checkCarried = guard
		n.cfg.MaxBlockTxs = 1
		txs := []*types.Tx{
			pipelineTransfer(genesis.DevnetChainID, devKey(t, 2), 0, to, 5),
			pipelineTransfer(genesis.DevnetChainID, devKey(t, 2), 1, to, 5),
		}
		for i, err := range n.SubmitBatch(txs) {
			if err != nil {
				t.Fatalf("tx %d: %v", i, err)
			}
		}
		n.prodMu.Lock()
		if _, err := n.produceAhead(); err != nil {
			t.Fatal(err)
		}
		<-n.inflight.done
		n.cache.update([]store.Write{{Key: store.Key(state.AccountKey(from)), Value: planted}})
		_, err := n.produceAhead()
		if derr := n.drainLocked(); derr != nil {
			t.Fatal(derr)
		}
		n.prodMu.Unlock()
		n.Close()
		if guard != errors.Is(err, state.ErrStale) || (!guard && err != nil) {
			t.Fatalf("guard %v: second block: %v", guard, err)
		}
	}
}
