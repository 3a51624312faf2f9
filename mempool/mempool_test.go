package mempool

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

type view map[types.Address]uint64

func (v view) Nonce(a types.Address) uint64 { return v[a] }
func (v view) Balance(types.Address) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)
}

var bf = execution.Basefees{Cycle: 5, Cell: 1}

func key(b byte) *crypto.PrivateKey {
	k, _ := crypto.PrivateKeyFromBytes(append(make([]byte, 31), b))
	return k
}

func mk(k *crypto.PrivateKey, nonce, maxFee, tip uint64) *types.Tx {
	to := types.Address{0x99}
	tx := &types.Tx{ChainID: 7, Nonce: nonce, To: &to, Value: big.NewInt(1), CyclesLimit: 10_000,
		MaxFeePerCycle: maxFee, MaxFeePerCell: 1, TipPerCycle: tip, Payload: []byte{}}
	tx.Sign(k)
	return tx
}

func addr(k *crypto.PrivateKey) types.Address { return types.Address(k.Address()) }

func TestSelectOrder(t *testing.T) {
	p := New(Config{ChainID: 7})
	a, b := key(1), key(2)
	st := view{}
	// a: nonces 0 (tip 1) and 1 (tip 9); b: nonce 0 (tip 5).
	for _, tx := range []*types.Tx{mk(a, 1, 100, 9), mk(a, 0, 100, 1), mk(b, 0, 100, 5)} {
		if err := p.Add(tx, st, bf); err != nil {
			t.Fatal(err)
		}
	}
	got := p.Select(st, bf, 10)
	// b's tip 5 beats a's head (tip 1); a's nonce 1 waits for its nonce 0.
	want := []struct {
		from  types.Address
		nonce uint64
	}{{addr(b), 0}, {addr(a), 0}, {addr(a), 1}}
	if len(got) != len(want) {
		t.Fatalf("selected %d", len(got))
	}
	for i, w := range want {
		f, _ := got[i].Sender()
		if f != w.from || got[i].Nonce != w.nonce {
			t.Errorf("position %d: %s/%d, want %s/%d", i, f, got[i].Nonce, w.from, w.nonce)
		}
	}
}

func TestTiesByHash(t *testing.T) {
	p := New(Config{ChainID: 7})
	st := view{}
	var txs []*types.Tx
	for i := byte(1); i <= 5; i++ {
		tx := mk(key(i), 0, 100, 3)
		txs = append(txs, tx)
		p.Add(tx, st, bf)
	}
	got := p.Select(st, bf, 10)
	for i := 1; i < len(got); i++ {
		h0, h1 := got[i-1].Hash(), got[i].Hash()
		if bytes.Compare(h0[:], h1[:]) > 0 {
			t.Fatal("equal fees not ordered by hash")
		}
	}
}

func TestReplacement(t *testing.T) {
	k := key(1)
	st := view{}
	tests := []struct {
		name    string
		maxFee  uint64
		tip     uint64
		wantErr error
	}{
		{"identical transaction", 100, 2, ErrKnown},
		{"max fee up, effective fee unchanged", 120, 2, ErrUnderpriced},
		{"lower max fee refused", 90, 5, ErrUnderpriced},
		{"10% higher accepted", 100, 3, nil}, // effective 7→8 per cycle (+14%)
	}
	for _, tt := range tests {
		p := New(Config{ChainID: 7})
		old := mk(k, 0, 100, 2)
		if err := p.Add(old, st, bf); err != nil {
			t.Fatal(err)
		}
		repl := mk(k, 0, tt.maxFee, tt.tip)
		err := p.Add(repl, st, bf)
		if tt.wantErr == nil {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			} else if _, ok := p.Get(old.Hash()); ok || p.Len() != 1 {
				t.Errorf("%s: old transaction not replaced", tt.name)
			}
			continue
		}
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("%s: err %v", tt.name, err)
		}
	}
}

func TestAddRejects(t *testing.T) {
	k := key(1)
	st := view{addr(k): 5}
	tests := []struct {
		name string
		tx   *types.Tx
		want error
	}{
		{"nonce below account", mk(k, 4, 100, 1), execution.ErrNonceTooLow},
		{"nonce beyond the gap", mk(k, 5+65, 100, 1), execution.ErrNonceTooHigh},
		{"below basefee", mk(k, 5, 4, 0), execution.ErrFeeBelowBasefee},
		{"wrong chain", func() *types.Tx { tx := mk(k, 5, 100, 1); tx.ChainID = 8; tx.Sign(k); return tx }(), execution.ErrWrongChainID},
	}
	for _, tt := range tests {
		p := New(Config{ChainID: 7})
		if err := p.Add(tt.tx, st, bf); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v want %v", tt.name, err, tt.want)
		}
		if p.Len() != 0 {
			t.Errorf("%s: refused tx kept", tt.name)
		}
	}
	p := New(Config{ChainID: 7})
	tx := mk(k, 5, 100, 1)
	p.Add(tx, st, bf)
	if err := p.Add(tx, st, bf); !errors.Is(err, ErrKnown) {
		t.Errorf("duplicate: %v", err)
	}
	full := New(Config{ChainID: 7, MaxTxs: 1})
	full.Add(mk(k, 5, 100, 1), st, bf)
	if err := full.Add(mk(k, 6, 100, 1), st, bf); !errors.Is(err, ErrPoolFull) {
		t.Errorf("full pool: %v", err)
	}
}

func TestPendingNonceAndPrune(t *testing.T) {
	p := New(Config{ChainID: 7})
	k := key(3)
	st := view{}
	txs := []*types.Tx{mk(k, 0, 100, 1), mk(k, 1, 100, 1), mk(k, 3, 100, 1)}
	errs := p.AddBatch(txs, st, bf)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := p.PendingNonce(addr(k), 0); n != 2 {
		t.Fatalf("pending nonce %d, want 2 (gap at 2)", n)
	}
	if got := p.Select(st, bf, 10); len(got) != 2 {
		t.Fatalf("selected %d, want the 2 consecutive ones", len(got))
	}
	st[addr(k)] = 2
	p.Prune(st)
	if p.Len() != 1 {
		t.Fatalf("prune left %d", p.Len())
	}
	if got := p.Select(st, bf, 10); len(got) != 0 {
		t.Fatal("nonce 3 selected while nonce 2 is missing")
	}
	// Underpriced after a basefee rise: stays but is not selected.
	st[addr(k)] = 3
	if got := p.Select(st, execution.Basefees{Cycle: 101, Cell: 1}, 10); len(got) != 0 {
		t.Fatal("selected a transaction below the basefee")
	}
	p.Remove(txs[2:])
	if p.Len() != 0 {
		t.Fatal("remove failed")
	}
}

func BenchmarkAddBatch(b *testing.B) {
	keys := make([]*crypto.PrivateKey, 64)
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
	}
	txs := make([]*types.Tx, 4096)
	for i := range txs {
		txs[i] = mk(keys[i%64], uint64(i/64), 100, 1)
	}
	encoded := make([][]byte, len(txs))
	for i, tx := range txs {
		encoded[i] = tx.Encode()
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		fresh := make([]*types.Tx, len(encoded))
		for i, e := range encoded {
			fresh[i], _ = types.DecodeTx(e)
		}
		p := New(Config{ChainID: 7, MaxGap: 1 << 20})
		b.StartTimer()
		p.AddBatch(fresh, view{}, bf)
	}
	b.ReportMetric(float64(len(txs)*b.N)/b.Elapsed().Seconds(), "tx/s")
}
