package node

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestDevImpersonate: a transfer sent as an address whose key nobody here
// holds is mined, pays its fees from that account, shows that sender in
// every lookup, traces, and keeps its sender across a restart; a marker
// signature the devnet did not make gives nobody's account away.
func TestDevImpersonate(t *testing.T) {
	home := t.TempDir()
	n := openTest(t, home)
	whale := types.Address{0xAB, 0xCD}
	to := types.Address(devKey(t, 1).Address())
	if _, err := n.DevSetBalance(whale, new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))); err != nil {
		t.Fatal(err)
	}
	_, before, _ := n.Account(to)
	h, err := n.DevImpersonate(whale, &to, big.NewInt(12345), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
	rc, _, err := n.Receipt(h)
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("receipt: %+v %v", rc, err)
	}
	_, after, _ := n.Account(to)
	if new(big.Int).Sub(after, before).Int64() != 12345 {
		t.Fatalf("recipient got %s", new(big.Int).Sub(after, before))
	}
	if nonce, bal, _ := n.Account(whale); nonce != 1 || bal.Cmp(new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))) >= 0 {
		t.Fatalf("whale after: nonce %d balance %s (it pays value and fees)", nonce, bal)
	}
	check := func(n *Node) {
		t.Helper()
		tx, loc, err := n.TransactionByHash(h)
		if err != nil || loc == nil {
			t.Fatalf("lookup: %v", err)
		}
		j, err := rpc.NewTxJSON(tx, loc)
		if err != nil || types.Address(j.From) != whale {
			t.Fatalf("from %s (%v), want %s", j.From, err, whale)
		}
		if _, err := n.TraceTransaction(h); err != nil {
			t.Fatalf("trace: %v", err)
		}
	}
	check(n)
	n.Close()
	n = openTest(t, home) // from the block on disk, not the recent cache
	defer n.Close()
	check(n)

	// The marker on a transaction the devnet did not make proves nothing.
	forged := &types.Tx{ChainID: n.ChainID(), Nonce: 1, To: &to, Value: big.NewInt(1), CyclesLimit: 10_000, MaxFeePerCycle: 3,
		MaxFeePerCell: 3, TipPerCycle: 1, TipPerCell: 1, Payload: []byte{}, Sig: &types.Signature{R: impersonationR}}
	copy(forged.Sig.S[12:], whale[:])
	raw, err := types.DecodeTx(forged.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if from, err := raw.Sender(); err == nil && from == whale {
		t.Fatal("a forged marker recovered to the impersonated account")
	}
	if err := n.SendTransaction(raw); err == nil {
		if from, _ := raw.Sender(); from == whale {
			t.Fatal("a forged marker was accepted as the whale")
		}
	}
}
