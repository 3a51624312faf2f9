package node

import (
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// wantNextBasefee restates §4.2 independently of chain/fees:
// basefee' = max(1, basefee × (1 + clamp((U − T)/(T × α), −δ, +δ))) with
// α = 8, δ = 1/8, the change rounded toward zero (and nothing more).
func wantNextBasefee(basefee, used, target uint64) uint64 {
	if used == target {
		return max(basefee, 1)
	}
	b, u, tg := new(big.Int).SetUint64(basefee), new(big.Int).SetUint64(used), new(big.Int).SetUint64(target)
	diff := new(big.Int).Sub(u, tg)
	change := new(big.Int).Mul(b, new(big.Int).Abs(diff))
	change.Quo(change, new(big.Int).Mul(tg, big.NewInt(8)))
	if limit := new(big.Int).Quo(b, big.NewInt(8)); change.Cmp(limit) > 0 {
		change = limit
	}
	if diff.Sign() > 0 {
		return new(big.Int).Add(b, change).Uint64()
	}
	next := new(big.Int).Sub(b, change)
	if next.Cmp(big.NewInt(1)) < 0 {
		return 1
	}
	return next.Uint64()
}

// The node moves both basefees block by block (§4.2) from its own header:
// from a genesis at 1,000 above the floor, empty blocks lower them by δ and
// a block over the cell target raises the cell basefee. (Devnet genesis sits
// at 1, where §4.2 in whole units moves nothing: a basefee below 8 is fixed.)
func TestBasefeesMoveWithBlockUse(t *testing.T) {
	g := genesis.Devnet()
	g.BasefeeCycle, g.BasefeeCell = 1000, 1000
	clock := time.Unix(genesis.DevnetGenesisTime+100, 0)
	n, err := Open(Config{Home: t.TempDir(), Genesis: g, Logger: quietLog(),
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()

	// Empty blocks: 1000 → 875 → 766 → 671 (each 1/8 down, rounded toward
	// zero), and the block after them charges 588.
	for i, want := range []uint64{875, 766, 671} {
		b, err := n.ProduceBlock()
		if err != nil {
			t.Fatal(err)
		}
		if b.Header.BasefeeCycle != want || b.Header.BasefeeCell != want {
			t.Fatalf("empty block %d charged %d/%d per cycle/cell, want %d", i+1, b.Header.BasefeeCycle, b.Header.BasefeeCell, want)
		}
	}
	if c, b, next := n.Basefees(); c != 588 || b != 588 || next != 4 {
		t.Fatalf("after three empty blocks: basefees %d/%d for height %d, want 588/588 for 4", c, b, next)
	}

	// A full block: six transfers with 100,000-byte payloads use 600,000
	// cells, over the 500,000-cell target, and 60,000 cycles, far under the
	// cycle target. The cell basefee rises, the cycle basefee falls.
	to := types.Address{0x77}
	// One canonical CBOR byte string of 100,000 bytes: 0x5a, a 4-byte
	// length of 99,995, then the bytes.
	payload := append([]byte{0x5a, 0x00, 0x01, 0x86, 0x9b}, make([]byte, 99_995)...)
	for i := 1; i <= 6; i++ {
		k := devKey(t, i)
		tx := &types.Tx{ChainID: n.ChainID(), Nonce: 0, To: &to, Value: big.NewInt(1),
			CyclesLimit: 10_000, CellsLimit: 100_000, MaxFeePerCycle: 10_000, MaxFeePerCell: 10_000,
			TipPerCycle: 1, TipPerCell: 1, Payload: payload}
		tx.Sign(k)
		if err := n.SendTransaction(tx); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	full, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	h := full.Header
	if len(full.Txs) != 6 || h.CellsUsed < 600_000 || h.BasefeeCycle != 588 || h.BasefeeCell != 588 {
		t.Fatalf("full block: %d txs, %d cells used, basefees %d/%d; want 6 txs, ≥ 600,000 cells at 588/588",
			len(full.Txs), h.CellsUsed, h.BasefeeCycle, h.BasefeeCell)
	}
	c, b, next := n.Basefees()
	wantC, wantB := wantNextBasefee(588, h.CyclesUsed, 10_000_000), wantNextBasefee(588, h.CellsUsed, 500_000)
	if c != wantC || b != wantB || next != 5 {
		t.Fatalf("after the full block: basefees %d/%d for height %d, want %d/%d for 5", c, b, next, wantC, wantB)
	}
	if b <= 588 || c >= 588 {
		t.Fatalf("after the full block the cell basefee went %d → %d and the cycle basefee 588 → %d", 588, b, c)
	}
}
