package node

import (
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestStateReadsPinnedToHead: between the store's commit of a block and
// the head moving to it (finishCommit), RPC state reads still answer for
// the block Head() reports; once the head moves they show the new block.
// The window is made by hand: the block is committed in the store and the
// head moved afterwards, as finishCommit does.
func TestStateReadsPinnedToHead(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	to := types.Address{0x4e, 0xad}
	send := func(value int64) {
		t.Helper()
		if err := n.SendTransaction(signedTransfer(t, n, devKey(t, 0), to, big.NewInt(value))); err != nil {
			t.Fatal(err)
		}
	}
	send(5)
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
	supply, err := n.TotalSupply()
	if err != nil {
		t.Fatal(err)
	}
	send(7)
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	parent := n.Head()
	sb, err := n.stageBlock(parent, n.newState(), blockInput{Height: parent.Height + 1, Time: parent.Time + 1, Proposer: n.proposer,
		Beacon: devnetBeacon(parent.Hash(), parent.Height+1), Txs: n.pool.Select(n.newState(), fees.NextBasefees(parent), 10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sb.block.Txs) != 1 {
		t.Fatalf("staged block holds %d transactions, want 1", len(sb.block.Txs))
	}
	if _, err := sb.prep.Commit(); err != nil {
		t.Fatal(err)
	}
	// Committed in the store, head not moved: the latest values show the
	// new block, reads for Head() do not.
	if acc, err := readAccount(stateReader{n.db, newStateCache(16)}, to); err != nil || acc.Balance.Int64() != 12 {
		t.Fatalf("latest balance %v, %v; want 12: the window was not made", acc, err)
	}
	if _, bal, err := n.Account(to); err != nil || bal.Int64() != 5 {
		t.Fatalf("balance at head %d: %s, %v; want 5", n.Head().Height, bal, err)
	}
	if s, err := n.TotalSupply(); err != nil || s.Cmp(supply) != 0 {
		t.Fatalf("supply at head %d: %s, %v; want %s", n.Head().Height, s, err, supply)
	}
	n.mu.Lock()
	n.head = sb.block.Header
	n.mu.Unlock()
	if _, bal, err := n.Account(to); err != nil || bal.Int64() != 12 {
		t.Fatalf("balance once the head moved: %s, %v; want 12", bal, err)
	}
	if s, err := n.TotalSupply(); err != nil || s.Cmp(supply) >= 0 {
		t.Fatalf("supply once the head moved: %s, %v; want below %s (basefee burnt)", s, err, supply)
	}
}

// TestActorReadsPinnedToHead: the actor reads (code and storage) answer
// for the block Head() reports, like account reads: an actor whose deploy
// is committed in the store but not yet at the head is not there yet.
func TestActorReadsPinnedToHead(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	pl, err := (&types.DeployPayload{Code: benchCounter, Salt: make([]byte, types.SaltSize)}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := n.SendTransaction(signedPayload(t, n, devKey(t, 0), nil, pl)); err != nil {
		t.Fatal(err)
	}
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	parent := n.Head()
	sb, err := n.stageBlock(parent, n.newState(), blockInput{Height: parent.Height + 1, Time: parent.Time + 1, Proposer: n.proposer,
		Beacon: devnetBeacon(parent.Hash(), parent.Height+1), Txs: n.pool.Select(n.newState(), fees.NextBasefees(parent), 10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sb.receipts) != 1 || sb.receipts[0].ContractAddress == nil {
		t.Fatalf("staged block's receipts %+v, want one deploy", sb.receipts)
	}
	addr := *sb.receipts[0].ContractAddress
	if _, err := sb.prep.Commit(); err != nil {
		t.Fatal(err)
	}
	if !n.newState().IsActor(addr) {
		t.Fatal("the latest state holds no actor: the window was not made")
	}
	if _, _, err := n.ActorCode(addr); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("ActorCode at head %d: %v; want rpc.ErrNotFound", n.Head().Height, err)
	}
	n.mu.Lock()
	n.head = sb.block.Header
	n.mu.Unlock()
	if _, src, err := n.ActorCode(addr); err != nil || string(src) != string(benchCounter) {
		t.Fatalf("ActorCode once the head moved: %q, %v", src, err)
	}
}
