package mempool

import (
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Prune drops only what the chain has used: after a block takes nonces 0
// and 1, nonce 2 is the sender's next executable transaction and must stay
// in the pool and be selected, with 3 behind it.
func TestPruneKeepsNextNonce(t *testing.T) {
	p := New(Config{ChainID: 7})
	k := key(4)
	st := view{}
	txs := []*types.Tx{mk(k, 0, 100, 1), mk(k, 1, 100, 1), mk(k, 2, 100, 1), mk(k, 3, 100, 1)}
	for i, err := range p.AddBatch(txs, st, bf) {
		if err != nil {
			t.Fatalf("add nonce %d: %v", i, err)
		}
	}
	st[addr(k)] = 2
	p.Prune(st)
	if p.Len() != 2 {
		t.Fatalf("prune left %d transactions, want 2 (nonces 2 and 3)", p.Len())
	}
	for _, tx := range txs[:2] {
		if _, ok := p.Get(tx.Hash()); ok {
			t.Errorf("nonce %d survived the prune", tx.Nonce)
		}
	}
	if _, ok := p.Get(txs[2].Hash()); !ok {
		t.Fatal("prune dropped nonce 2, the next executable transaction")
	}
	got := p.Select(st, bf, 10)
	if len(got) != 2 || got[0].Nonce != 2 || got[1].Nonce != 3 {
		var nonces []uint64
		for _, tx := range got {
			nonces = append(nonces, tx.Nonce)
		}
		t.Fatalf("selected nonces %v, want [2 3]", nonces)
	}
	if n := p.PendingNonce(addr(k), 2); n != 4 {
		t.Fatalf("pending nonce %d, want 4", n)
	}
}
