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

// Prune skips a sender whose account nonce has not passed the lowest nonce
// it holds (senderTxs.first); every way the lowest nonce moves (add,
// Remove of the lowest or another, Prune) must keep that bound at or below
// what is held, or a stale transaction would survive.
func TestPruneLowBound(t *testing.T) {
	k := key(5)
	type step struct {
		add    []uint64 // nonces added, admitted against the view's nonce viewAt
		viewAt uint64
		remove []uint64 // nonces removed (included in a block)
		prune  uint64   // the account nonce Prune then sees
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  []uint64 // nonces left, ascending
	}{
		{"remove lowest then prune past the rest", []step{
			{add: []uint64{5, 6, 7}, viewAt: 5},
			{remove: []uint64{5}, prune: 7},
		}, []uint64{7}},
		{"a lower nonce added after the lowest was removed", []step{
			{add: []uint64{5, 6}, viewAt: 5},
			{remove: []uint64{5}, prune: 5},
			{add: []uint64{3}, viewAt: 3, prune: 6},
		}, []uint64{6}},
		{"remove a middle nonce", []step{
			{add: []uint64{5, 6, 7}, viewAt: 5},
			{remove: []uint64{6}, prune: 6},
		}, []uint64{7}},
		{"remove nonce 0, the lowest", []step{ // low must not wrap below 0
			{add: []uint64{0, 1, 2}, viewAt: 0},
			{remove: []uint64{0}, prune: 2},
		}, []uint64{2}},
		{"nothing stale", []step{
			{add: []uint64{5, 6, 7}, viewAt: 5},
			{remove: []uint64{5, 6}, prune: 7},
		}, []uint64{7}},
		{"prune raises the bound", []step{
			{add: []uint64{5, 6, 7, 8}, viewAt: 5},
			{prune: 7},
			{remove: []uint64{7}, prune: 8},
		}, []uint64{8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{ChainID: 7})
			txs := map[uint64]*types.Tx{}
			for _, s := range tc.steps {
				for _, n := range s.add {
					txs[n] = mk(k, n, 100, 1)
					if err := p.Add(txs[n], view{addr(k): s.viewAt}, bf); err != nil {
						t.Fatalf("add nonce %d: %v", n, err)
					}
				}
				var rm []*types.Tx
				for _, n := range s.remove {
					rm = append(rm, txs[n])
				}
				p.Remove(rm)
				p.Prune(view{addr(k): s.prune})
			}
			var left []uint64
			for n := uint64(0); n < 16; n++ {
				if tx, ok := txs[n]; ok {
					if _, held := p.Get(tx.Hash()); held {
						left = append(left, n)
					}
				}
			}
			if p.Len() != len(tc.want) || len(left) != len(tc.want) {
				t.Fatalf("left nonces %v (pool holds %d), want %v", left, p.Len(), tc.want)
			}
			for i := range left {
				if left[i] != tc.want[i] {
					t.Fatalf("left nonces %v, want %v", left, tc.want)
				}
			}
		})
	}
}
