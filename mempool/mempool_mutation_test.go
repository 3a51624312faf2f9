package mempool

import (
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestSystemLaneBudgetEdge: system calls whose limits add up to exactly the
// lane's budget all go ahead of better-paying users; one cycle more and
// the last of them competes by fee, after the users (§6.4, §17.9).
func TestSystemLaneBudgetEdge(t *testing.T) {
	budget := fees.LaneCycleBudget[fees.LaneSystem]
	tests := []struct {
		name         string
		first, other uint64 // cycle limits of the two system calls
		wantAhead    int    // system calls selected ahead of the users
	}{
		{"exactly the budget", budget - 200_000, 200_000, 2},
		{"one cycle over", budget - 199_999, 200_000, 1},
		{"one call of the whole budget", budget, 0, 1},
		{"one call a cycle over the budget", budget + 1, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{ChainID: 7})
			st := view{}
			for i := byte(10); i < 14; i++ {
				if err := p.Add(mk(key(i), 0, 100, 50), st, bf); err != nil {
					t.Fatal(err)
				}
			}
			// The bigger tip goes first among the reserved.
			sys := []*types.Tx{mkSystem(key(1), 0, tc.first, 2)}
			if tc.other > 0 {
				sys = append(sys, mkSystem(key(2), 0, tc.other, 1))
			}
			for _, tx := range sys {
				if err := p.Add(tx, st, bf); err != nil {
					t.Fatal(err)
				}
			}
			got := p.Select(st, bf, 100)
			if len(got) != 4+len(sys) {
				t.Fatalf("selected %d", len(got))
			}
			ahead := 0
			for ahead < len(got) && *got[ahead].To == staking.Address {
				if got[ahead].Hash() != sys[ahead].Hash() {
					t.Fatalf("system call %d out of order", ahead)
				}
				ahead++
			}
			if ahead != tc.wantAhead {
				t.Fatalf("%d system calls ahead of the users, want %d", ahead, tc.wantAhead)
			}
		})
	}
}

// TestReplacementPriceBump: a replacement must raise the effective fee by
// PriceBump percent (default 10), exactly that being enough.
func TestReplacementPriceBump(t *testing.T) {
	k := key(1)
	// With basefee 5 and no cells, the effective fee per cycle is 5 + tip.
	tests := []struct {
		name      string
		bump      int
		old, tip  uint64 // old and new tips
		wantError bool
	}{
		{"default: +9.5% refused", 0, 100, 110, true},         // 105 → 115
		{"default: exactly +10% accepted", 0, 95, 105, false}, // 100 → 110
		{"default: +10.5% accepted", 0, 100, 111, false},      // 105 → 116
		{"50%: +47.6% refused", 50, 100, 150, true},           // 105 → 155
		{"50%: exactly +50% accepted", 50, 95, 145, false},    // 100 → 150
		{"1%: +1% accepted", 1, 95, 96, false},                // 100 → 101
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{ChainID: 7, PriceBump: tc.bump})
			old := mk(k, 0, 1000, tc.old)
			if err := p.Add(old, view{}, bf); err != nil {
				t.Fatal(err)
			}
			err := p.Add(mk(k, 0, 1000, tc.tip), view{}, bf)
			if tc.wantError != errors.Is(err, ErrUnderpriced) || (!tc.wantError && err != nil) {
				t.Fatalf("replacement: %v, want underpriced %v", err, tc.wantError)
			}
			if _, kept := p.Get(old.Hash()); kept != tc.wantError || p.Len() != 1 {
				t.Fatalf("old kept %v, pool holds %d", kept, p.Len())
			}
		})
	}
}

// TestConfigDefaults: a zero Config gets the documented limits, and a set
// one is kept.
func TestConfigDefaults(t *testing.T) {
	if c := New(Config{}).cfg; c.MaxTxs != 1<<16 || c.MaxGap != 64 || c.PriceBump != 10 {
		t.Fatalf("defaults %+v", c)
	}
	if c := New(Config{MaxTxs: 3, MaxGap: 2, PriceBump: 25}).cfg; c.MaxTxs != 3 || c.MaxGap != 2 || c.PriceBump != 25 {
		t.Fatalf("set limits changed: %+v", c)
	}
	// The gap is measured from the account's nonce: MaxGap ahead is the
	// last admitted.
	k := key(4)
	p := New(Config{ChainID: 7, MaxGap: 2})
	st := view{addr(k): 10}
	for _, tc := range []struct {
		nonce uint64
		want  error
	}{{9, execution.ErrNonceTooLow}, {10, nil}, {12, nil}, {13, execution.ErrNonceTooHigh}} {
		err := p.Add(mk(k, tc.nonce, 100, 1), st, bf)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("nonce %d: %v, want %v", tc.nonce, err, tc.want)
		}
	}
}

// fundedView holds every account at nonce 0 with the same balance.
type fundedView struct{ balance *big.Int }

func (v fundedView) Nonce(types.Address) uint64     { return 0 }
func (v fundedView) Balance(types.Address) *big.Int { return v.balance }

// TestAdmitBalanceEdge: a balance of exactly the upfront cost (value plus
// limits × max fees) is enough; a base unit less is not.
func TestAdmitBalanceEdge(t *testing.T) {
	tx := mk(key(5), 0, 100, 1)
	need := execution.UpfrontCost(tx)
	for _, tc := range []struct {
		delta int64
		ok    bool
	}{{-1, false}, {0, true}, {1, true}} {
		p := New(Config{ChainID: 7})
		err := p.Add(tx, fundedView{new(big.Int).Add(need, big.NewInt(tc.delta))}, bf)
		if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, execution.ErrInsufficientFunds)) {
			t.Errorf("balance need%+d: %v", tc.delta, err)
		}
	}
}

// TestReplacementRaisingOneTip: a replacement may keep some prices and
// raise only another: the same tip per cycle with a much higher tip per
// cell outbids, a lower one of any price does not.
func TestReplacementRaisingOneTip(t *testing.T) {
	k := key(6)
	to := types.Address{0x99}
	mkc := func(maxCycle, maxCell, tipCycle, tipCell uint64) *types.Tx {
		tx := &types.Tx{ChainID: 7, To: &to, Value: big.NewInt(1), CyclesLimit: 10_000, CellsLimit: 10_000,
			MaxFeePerCycle: maxCycle, MaxFeePerCell: maxCell, TipPerCycle: tipCycle, TipPerCell: tipCell, Payload: types.AppendBytes(nil, make([]byte, 997))}
		tx.Sign(k)
		return tx
	}
	// 1,000 payload bytes (a CBOR byte string): 1,000 intrinsic cells, so the cell prices
	// weigh in the effective fee.
	old := func() *types.Tx { return mkc(100, 100, 2, 2) }
	tests := []struct {
		name string
		repl *types.Tx
		ok   bool
	}{
		{"only the cell tip raised", mkc(100, 100, 2, 50), true},
		{"only the cycle tip raised", mkc(100, 100, 50, 2), true},
		{"cycle tip lowered", mkc(100, 100, 1, 90), false},
		{"cell tip lowered", mkc(100, 100, 90, 1), false},
		{"cycle max fee lowered", mkc(99, 100, 90, 90), false},
		{"cell max fee lowered", mkc(100, 99, 90, 90), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{ChainID: 7})
			if err := p.Add(old(), view{}, bf); err != nil {
				t.Fatal(err)
			}
			err := p.Add(tc.repl, view{}, bf)
			if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, ErrUnderpriced)) {
				t.Fatalf("replacement: %v, want accepted %v", err, tc.ok)
			}
		})
	}
}

// TestAddBatchRejectsLikeAdd: AddBatch refuses exactly what Add refuses,
// with the same error, whether the failing rule is stateless or reads the
// state, and keeps the rest.
func TestAddBatchRejectsLikeAdd(t *testing.T) {
	k := key(7)
	st := view{addr(k): 5}
	wrongChain := mk(key(8), 0, 100, 1)
	wrongChain.ChainID = 8
	wrongChain.Sign(key(8))
	txs := []*types.Tx{
		mk(k, 5, 100, 1),      // fine
		mk(k, 4, 100, 1),      // nonce too low (state)
		mk(k, 99, 100, 1),     // nonce beyond the gap (state)
		mk(k, 6, 4, 0),        // below the basefee
		wrongChain,            // stateless
		mk(key(9), 0, 100, 1), // fine, another sender
	}
	want := []error{nil, execution.ErrNonceTooLow, execution.ErrNonceTooHigh, execution.ErrFeeBelowBasefee, execution.ErrWrongChainID, nil}
	p := New(Config{ChainID: 7})
	errs := p.AddBatch(txs, st, bf)
	for i, err := range errs {
		if (want[i] == nil) != (err == nil) || (want[i] != nil && !errors.Is(err, want[i])) {
			t.Errorf("tx %d: %v, want %v", i, err, want[i])
		}
		single := New(Config{ChainID: 7}).Add(txs[i], st, bf)
		if (single == nil) != (err == nil) {
			t.Errorf("tx %d: AddBatch %v, Add %v", i, err, single)
		}
	}
	if p.Len() != 2 {
		t.Fatalf("pool holds %d, want 2", p.Len())
	}
	// The kept ones are selectable: their sender's committed nonce was
	// read, not left at zero.
	if got := p.Select(st, bf, 10); len(got) != 2 {
		t.Fatalf("selected %d of the batch", len(got))
	}
}

// TestReplacementAtZeroFees: with zero basefees and zero prices the
// effective fee is 0, and 0 raised by any percentage is still 0: a
// different transaction at the same nonce does not outbid it.
func TestReplacementAtZeroFees(t *testing.T) {
	k := key(10)
	zero := execution.Basefees{}
	mkv := func(value int64) *types.Tx {
		to := types.Address{0x99}
		tx := &types.Tx{ChainID: 7, To: &to, Value: big.NewInt(value), CyclesLimit: 10_000, Payload: []byte{}}
		tx.Sign(k)
		return tx
	}
	p := New(Config{ChainID: 7})
	old := mkv(1)
	if err := p.Add(old, view{}, zero); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(mkv(2), view{}, zero); !errors.Is(err, ErrUnderpriced) {
		t.Fatalf("zero-fee replacement: %v", err)
	}
	if _, ok := p.Get(old.Hash()); !ok {
		t.Fatal("the original was replaced")
	}
}

// TestRemove: a removed transaction is gone from every view (Get, Len,
// PendingNonce, Select); the sender's other transactions stay selectable;
// removing what the pool does not hold changes nothing.
func TestRemove(t *testing.T) {
	k := key(11)
	from := addr(k)
	txs := []*types.Tx{mk(k, 0, 100, 1), mk(k, 1, 100, 1), mk(k, 2, 100, 1)}
	tests := []struct {
		name       string
		remove     []int
		wantLen    int
		wantNonce  uint64 // PendingNonce from committed 0
		wantSelect int    // selected at committed nonce 0
	}{
		{"nothing", nil, 3, 3, 3},
		{"the first", []int{0}, 2, 0, 0},
		{"the middle", []int{1}, 2, 1, 1},
		{"the last", []int{2}, 2, 2, 2},
		{"all", []int{0, 1, 2}, 0, 0, 0},
		{"twice", []int{1, 1}, 2, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{ChainID: 7})
			for _, tx := range txs {
				if err := p.Add(tx, view{}, bf); err != nil {
					t.Fatal(err)
				}
			}
			var rm []*types.Tx
			for _, i := range tc.remove {
				rm = append(rm, txs[i])
			}
			rm = append(rm, mk(key(12), 0, 100, 1)) // never added
			p.Remove(rm)
			if p.Len() != tc.wantLen {
				t.Fatalf("len %d, want %d", p.Len(), tc.wantLen)
			}
			for _, i := range tc.remove {
				if _, ok := p.Get(txs[i].Hash()); ok {
					t.Fatalf("removed tx %d still found", i)
				}
			}
			if n := p.PendingNonce(from, 0); n != tc.wantNonce {
				t.Fatalf("pending nonce %d, want %d", n, tc.wantNonce)
			}
			if got := p.Select(view{}, bf, 10); len(got) != tc.wantSelect {
				t.Fatalf("selected %d, want %d", len(got), tc.wantSelect)
			}
			// Selecting from the committed nonce past the removed ones
			// finds the rest.
			if tc.name == "the first" {
				if got := p.Select(view{from: 1}, bf, 10); len(got) != 2 {
					t.Fatalf("after nonce 0 committed: selected %d, want 2", len(got))
				}
			}
			if tc.wantLen == 0 && len(p.senders) != 0 {
				t.Fatalf("an emptied sender kept: %d senders", len(p.senders))
			}
		})
	}
}
