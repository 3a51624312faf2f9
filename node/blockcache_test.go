package node

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestBlockCache: the cache keeps the last maxCachedBlocks blocks, oldest
// out first, and a committed block read twice by hash is decoded once.
func TestBlockCache(t *testing.T) {
	var c blockCache
	blocks := make([]*types.Block, maxCachedBlocks+2)
	for i := range blocks {
		blocks[i] = &types.Block{Header: &types.Header{Height: uint64(i + 1)}}
		c.put(blocks[i].Header.Hash(), blocks[i])
	}
	for i, b := range blocks {
		got, ok := c.get(b.Header.Hash())
		if want := i >= 2; ok != want || (ok && got != b) {
			t.Errorf("block %d: cached %v, want %v", i, ok, want)
		}
	}

	n := openTest(t, t.TempDir())
	defer n.Close()
	tx := signedTransfer(t, n, devKey(t, 0), types.Address{0xee}, big.NewInt(1))
	if err := n.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
	h := n.Head().Hash()
	first, err := n.BlockByHash(h)
	if err != nil {
		t.Fatal(err)
	}
	again, err := n.BlockByNumber(1)
	if err != nil || again != first || len(again.Txs) != 1 || again.Txs[0].Hash() != tx.Hash() {
		t.Fatalf("second read: %v, same object %v", err, again == first)
	}
}
