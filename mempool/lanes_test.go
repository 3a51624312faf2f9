package mempool

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// mkSystem is a validator registry call (system lane, §6.3) with the given
// cycle limit and tip.
func mkSystem(k *crypto.PrivateKey, nonce, limit, tip uint64) *types.Tx {
	to := staking.Address
	tx := &types.Tx{ChainID: 7, Nonce: nonce, To: &to, Value: big.NewInt(0), CyclesLimit: limit, CellsLimit: 10,
		MaxFeePerCycle: 100, MaxFeePerCell: 1, TipPerCycle: tip, Payload: []byte{0x80}}
	tx.Sign(k)
	return tx
}

// Reserved lanes are selected first up to their budget (§6.4 "within each
// lane … up to lane capacity"), so system calls with no tip make a block
// whose count bound a flood of user transactions with high tips would fill;
// past the budget a system call competes with the users by fee.
func TestSelectServesSystemLane(t *testing.T) {
	p := New(Config{ChainID: 7})
	st := view{}
	for i := byte(10); i < 40; i++ {
		if err := p.Add(mk(key(i), 0, 100, 50), st, bf); err != nil {
			t.Fatal(err)
		}
	}
	// Three system calls of 200,000 cycles: two fit the 500,000 budget.
	sys := []*types.Tx{mkSystem(key(1), 0, 200_000, 0), mkSystem(key(2), 0, 200_000, 1), mkSystem(key(3), 0, 200_000, 2)}
	for _, tx := range sys {
		if err := p.Add(tx, st, bf); err != nil {
			t.Fatal(err)
		}
	}
	got := p.Select(st, bf, 5)
	if len(got) != 5 {
		t.Fatalf("selected %d", len(got))
	}
	// The two best-paying system calls first, then users by fee; the third
	// system call (past the budget, lowest fee) is left out.
	if got[0].Hash() != sys[2].Hash() || got[1].Hash() != sys[1].Hash() {
		t.Fatalf("system calls not served first: %v %v", got[0].To, got[1].To)
	}
	for _, tx := range got[2:] {
		if *tx.To == staking.Address {
			t.Fatal("a system call past the lane budget beat higher-paying users")
		}
	}
	// With room for all, the third comes after the users (lowest fee).
	all := p.Select(st, bf, 100)
	if len(all) != 33 || all[len(all)-1].Hash() != sys[0].Hash() {
		t.Fatalf("selected %d, last %v", len(all), all[len(all)-1].To)
	}
	if fees.LaneCycleBudget[fees.LaneSystem] != 500_000 {
		t.Fatal("this test assumes the §17.9 system budget")
	}
}
