package node

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// TestTraceReplaysDevnetChanges: a transaction in a block that a devnet
// control made (its state change runs before the transactions) traces,
// because the replay applies the recorded change first.
func TestTraceReplaysDevnetChanges(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	from := devKey(t, 2)
	tx := signedTransfer(t, n, from, types.Address{7}, big.NewInt(3))
	if err := n.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.DevSetBalance(types.Address(from.Address()), new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))); err != nil {
		t.Fatal(err)
	}
	if _, err := n.TraceTransaction(tx.Hash()); err != nil {
		t.Fatalf("trace in a set-balance block: %v", err)
	}
}

// TestTraceRefusals: a replay that does not reproduce the committed
// receipt gives no trace, and neither does a block whose parent state is
// no longer retained.
func TestTraceRefusals(t *testing.T) {
	clock := time.Unix(genesis.DevnetGenesisTime+100, 0)
	n, err := Open(Config{Home: t.TempDir(), Genesis: genesis.Devnet(), Logger: quietLog(), RetainHeights: 3,
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	from := devKey(t, 1)
	send := func() types.Hash {
		tx := signedTransfer(t, n, from, types.Address{7}, big.NewInt(3))
		if err := n.SendTransaction(tx); err != nil {
			t.Fatal(err)
		}
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
		return tx.Hash()
	}
	old := send()
	for i := 0; i < 4; i++ {
		send()
	}
	if _, err := n.TraceTransaction(old); !errors.Is(err, rpc.ErrNotRetained) {
		t.Fatalf("trace of block 1 with 3 retained heights: %v", err)
	}
	h := send()
	if _, err := n.TraceTransaction(h); err != nil {
		t.Fatal(err)
	}
	// Record a change the block never had: the sender is broke before it.
	addr := from.Address()
	rec, err := types.Marshal(devOp{Kind: "set", Addr: addr[:], Amount: nil})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.db.PutRaw([]store.RawWrite{{Key: devSetKey(n.Head().Height), Value: rec}}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.TraceTransaction(h); err == nil || !strings.Contains(err.Error(), "did not reproduce the committed receipt") {
		t.Fatalf("trace over a changed parent state: %v", err)
	}
}
