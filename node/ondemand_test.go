package node

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
)

// TestOnDemandMakesNoEmptyBlock: a wake-up left over from a transaction that
// an earlier block already took must not make an empty block, so each
// transaction lands at the next height. Each round leaves a stale wake-up,
// waits until the producer has taken it, then sends one transfer: an empty
// block made for the stale wake-up would take the height first (the race
// goes the producer's way almost always, so the rounds catch it).
func TestOnDemandMakesNoEmptyBlock(t *testing.T) {
	n := openTest(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; n.Close() })

	dev1, _ := genesis.DevAddress(1)
	for round := uint64(1); round <= 20; round++ {
		n.notify() // stale: its transaction is already in a block
		for len(n.wake) > 0 {
			time.Sleep(100 * time.Microsecond) // until the producer takes it
		}
		n.prodMu.Lock() // let a block in progress finish
		n.prodMu.Unlock()
		tx := signedTransfer(t, n, devKey(t, 0), dev1, big.NewInt(5))
		if err := n.SendTransaction(tx); err != nil {
			t.Fatal(err)
		}
		for n.Head().Height < round {
			time.Sleep(100 * time.Microsecond) // waits for the producer; asserts nothing on time
		}
		b, err := n.blockByNumber(round)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Txs) != 1 || b.Txs[0].Hash() != tx.Hash() {
			t.Fatalf("round %d: block %d holds %d transactions, want the one sent (an empty block was made for a stale wake-up)", round, round, len(b.Txs))
		}
	}
}
