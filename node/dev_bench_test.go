package node

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// fillBlocks mines blocks of perBlock transfers from the ten dev accounts.
func fillBlocks(b *testing.B, n *Node, blocks, perBlock int) []types.Hash {
	b.Helper()
	var hashes []types.Hash
	for i := 0; i < blocks; i++ {
		for j := 0; j < perBlock; j++ {
			tx := signedTransfer(b, n, devKey(b, j%10), types.Address{byte(i), byte(j), 1}, big.NewInt(int64(1+j)))
			if err := n.SendTransaction(tx); err != nil {
				b.Fatal(err)
			}
			hashes = append(hashes, tx.Hash())
		}
		if blk, err := n.ProduceBlock(); err != nil || len(blk.Txs) != perBlock {
			b.Fatalf("block %d: %v", i, err)
		}
	}
	return hashes
}

// BenchmarkDevRevert: revert 20 blocks of 100 transfers each (2,000 new
// accounts) back to the snapshot, then mine them again, per iteration.
// The revert is one synced Pebble batch plus rebuilding the trees from
// disk.
func BenchmarkDevRevert(b *testing.B) {
	n := openTest(b, b.TempDir())
	defer n.Close()
	snap, _ := n.DevSnapshot()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		fillBlocks(b, n, 20, 100)
		b.StartTimer()
		if _, err := n.DevRevert(snap.Height, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTraceTransfer: trace the last transfer of a block of 100, which
// replays the whole block on the retained parent state.
func BenchmarkTraceTransfer(b *testing.B) {
	n := openTest(b, b.TempDir())
	defer n.Close()
	hashes := fillBlocks(b, n, 1, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := n.TraceTransaction(hashes[len(hashes)-1]); err != nil {
			b.Fatal(err)
		}
	}
}
