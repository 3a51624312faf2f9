package mempool

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
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
		if err := p.Add(tx, st, bf); err != nil {
			t.Fatalf("add tx of key %d: %v", i, err)
		}
	}
	got := p.Select(st, bf, 10)
	if len(got) != len(txs) {
		t.Fatalf("selected %d of %d equal-fee transactions", len(got), len(txs))
	}
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
	if err := p.Add(tx, st, bf); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(tx, st, bf); !errors.Is(err, ErrKnown) {
		t.Errorf("duplicate: %v", err)
	}
	full := New(Config{ChainID: 7, MaxTxs: 1})
	if err := full.Add(mk(k, 5, 100, 1), st, bf); err != nil {
		t.Fatal(err)
	}
	if err := full.Add(mk(k, 6, 100, 1), st, bf); !errors.Is(err, ErrPoolFull) {
		t.Errorf("full pool: %v", err)
	}
	// A new sender refused by the full pool leaves no entry behind.
	if err := full.Add(mk(key(9), 0, 100, 1), st, bf); !errors.Is(err, ErrPoolFull) {
		t.Errorf("full pool, new sender: %v", err)
	}
	if len(full.senders) != 1 {
		t.Errorf("the full pool keeps %d senders after refusing a new one, want 1", len(full.senders))
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

// Select's heap picks exactly what a plain scan picks: at every step, of
// each sender's next nonce, the highest effective fee, ties by hash; a
// transaction below the basefee stops its sender.
func TestSelectMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := New(Config{ChainID: 7})
	st := view{}
	for s := byte(1); s <= 40; s++ {
		k := key(s)
		base := uint64(rng.IntN(3))
		st[addr(k)] = base
		for n := base; n < base+uint64(1+rng.IntN(5)); n++ {
			maxFee := uint64(4 + rng.IntN(8)) // 4 is below the cycle basefee 5: it waits
			tx := mk(k, n, maxFee, uint64(rng.IntN(int(maxFee)+1)))
			if err := p.Add(tx, st, execution.Basefees{Cycle: 1, Cell: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	scan := func(max int) []*types.Tx {
		next := map[types.Address]uint64{}
		for a := range p.senders {
			next[a] = st.Nonce(a)
		}
		var out []*types.Tx
		for len(out) < max {
			var best *entry
			var bestFee fees.Fee128
			for a, n := range next {
				e := p.senders[a].get(n)
				if e == nil || execution.CheckFees(e.tx, bf) != nil {
					continue
				}
				f := fees.TxOrderingFee(e.tx, bf)
				if c := f.Cmp(bestFee); best == nil || c > 0 || (c == 0 && hashLess(e.tx.Hash(), best.tx.Hash())) {
					best, bestFee = e, f
				}
			}
			if best == nil {
				break
			}
			out = append(out, best.tx)
			next[best.from]++
		}
		return out
	}
	for _, max := range []int{1000, 37, 1} {
		got, want := p.Select(st, bf, max), scan(max)
		if len(got) != len(want) {
			t.Fatalf("max %d: selected %d, scan selects %d", max, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("max %d: position %d differs", max, i)
			}
		}
	}
}

func hashLess(a, b types.Hash) bool { return bytes.Compare(a[:], b[:]) < 0 }

// accountsView offers NonceBalance and counts how the pool reads it.
type accountsView struct {
	nonce        uint64
	balance      *big.Int
	both, single int
}

func (v *accountsView) Nonce(types.Address) uint64 { v.single++; return v.nonce }
func (v *accountsView) Balance(types.Address) *big.Int {
	v.single++
	return v.balance
}
func (v *accountsView) NonceBalance(types.Address) (uint64, *big.Int) {
	v.both++
	return v.nonce, v.balance
}

// Admission reads a view that offers NonceBalance once per transaction,
// and applies the same nonce and balance rules through it.
func TestAdmitReadsAccountOnce(t *testing.T) {
	k := key(1)
	tests := []struct {
		name    string
		nonce   uint64
		balance int64
		want    string // error code, "" for admitted
	}{
		{"admitted", 0, 1_000_001, ""},
		{"nonce too low", 1, 1_000_000, execution.ErrNonceTooLow.Code},
		{"cannot pay", 0, 1_000_000, execution.ErrInsufficientFunds.Code}, // needs 10,000 × 100 + 1
	}
	for _, tt := range tests {
		v := &accountsView{nonce: tt.nonce, balance: big.NewInt(tt.balance)}
		err := New(Config{ChainID: 7}).Add(mk(k, 0, 100, 1), v, bf)
		var te *execution.TxError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (!errors.As(err, &te) || te.Code != tt.want):
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
		}
		if v.both != 1 || v.single != 0 {
			t.Errorf("%s: %d combined and %d single reads, want 1 and 0", tt.name, v.both, v.single)
		}
	}
}

// BenchmarkSelectRemove is the block loop's part of the pool: select a
// block of up to 2,000 transactions, remove them, prune, until the pool is
// empty (1,000 senders of 8 transactions each; a node benchmark's pool
// holds 2,000 of 10), reported per transaction.
func BenchmarkSelectRemove(b *testing.B) {
	const senders, perSender = 1000, 8
	var txs []*types.Tx
	for s := 0; s < senders; s++ {
		k := key(byte(s%250 + 1))
		if s >= 250 {
			k, _ = crypto.GenerateKey()
		}
		for n := 0; n < perSender; n++ {
			txs = append(txs, mk(k, uint64(n), 100, 1))
		}
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		p := New(Config{ChainID: 7})
		st := view{}
		for _, err := range p.AddBatch(txs, st, bf) {
			if err != nil && !errors.Is(err, ErrKnown) {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		for p.Len() > 0 {
			got := p.Select(st, bf, 2000)
			if len(got) == 0 {
				b.Fatal("nothing selected")
			}
			for _, tx := range got {
				from, _ := tx.Sender()
				st[from] = tx.Nonce + 1
			}
			p.Remove(got)
			p.Prune(st)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(txs)*b.N), "ns/tx")
}
