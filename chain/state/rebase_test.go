package state

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"pgregory.net/rapid"
)

// A view carried from block to block (Rebase after each Writes) must write
// exactly what a fresh view per block over the committed state writes:
// accounts that become empty, records set, emptied and deleted, the
// supply, reverted changes and accounts only read included.
func TestRebaseMatchesFreshViews(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		addrs := []types.Address{{1}, {2}, {3}, {4}}
		keys := []Key{CodeKey(addrs[0]), CodeKey(addrs[1]), dedupKey(addrs[2], types.Hash{7})}
		fresh, carriedR := memReader{}, memReader{}
		carried := New(carriedR)
		blocks := rapid.IntRange(1, 6).Draw(t, "blocks")
		for b := 0; b < blocks; b++ {
			f := New(fresh)
			if b > 0 {
				if err := carried.Rebase(carriedR); err != nil {
					t.Fatalf("block %d: %v", b, err)
				}
			}
			steps := rapid.IntRange(0, 12).Draw(t, "steps")
			for i := 0; i < steps; i++ {
				a := rapid.SampledFrom(addrs).Draw(t, "addr")
				k := rapid.SampledFrom(keys).Draw(t, "key")
				v := big.NewInt(rapid.Int64Range(0, 5).Draw(t, "v"))
				op := rapid.IntRange(0, 7).Draw(t, "op")
				for _, s := range []*StateDB{f, carried} {
					switch op {
					case 0:
						s.Mint(a, v)
					case 1:
						if s.HasBalance(a, v) {
							s.SubBalance(a, v)
							s.Burn(v)
						}
					case 2:
						s.SetNonce(a, s.Nonce(a)+uint64(v.Int64()))
					case 3:
						s.SetNonce(a, 0) // with a zero balance the account empties
					case 4:
						s.Set(k, []byte(fmt.Sprint(v)))
					case 5:
						s.Set(k, nil)
					case 6:
						s.Get(k)
						s.Balance(a)
					case 7:
						snap := s.Snapshot()
						s.Mint(a, big.NewInt(9))
						s.Set(k, []byte{})
						s.RevertToSnapshot(snap)
					}
				}
			}
			fw, err := f.Writes()
			if err != nil {
				t.Fatal(err)
			}
			cw, err := carried.Writes()
			if err != nil {
				t.Fatal(err)
			}
			if len(fw) != len(cw) {
				t.Fatalf("block %d: %d writes carried, %d fresh", b, len(cw), len(fw))
			}
			for i := range fw {
				if fw[i].Key != cw[i].Key || !bytes.Equal(fw[i].Value, cw[i].Value) || (fw[i].Value == nil) != (cw[i].Value == nil) {
					t.Fatalf("block %d write %d: carried %x=%x, fresh %x=%x", b, i, cw[i].Key, cw[i].Value, fw[i].Key, fw[i].Value)
				}
			}
			fresh.apply(fw)
			carriedR.apply(cw)
			// The carried view is what a fresh one over the new state reads.
			if err := carried.Verify(carriedR); err != nil {
				t.Fatalf("block %d: %v", b, err)
			}
		}
	})
}

// Rebase refuses a view with a change Writes has not taken or a failed
// read, and leaves it as it was; Cached counts accounts and records.
func TestRebaseRefusesUnwritten(t *testing.T) {
	a := types.Address{1}
	for _, tc := range []struct {
		name   string
		change func(s *StateDB)
		fails  bool
	}{
		{"nothing", func(s *StateDB) {}, false},
		{"read only", func(s *StateDB) { s.Balance(a); s.Get(CodeKey(a)); s.Supply() }, false},
		{"account", func(s *StateDB) { s.AddBalance(a, big.NewInt(1)) }, true},
		{"record", func(s *StateDB) { s.Set(CodeKey(a), []byte{1}) }, true},
		{"supply only", func(s *StateDB) { s.Burn(big.NewInt(1)) }, true},
		{"reverted", func(s *StateDB) {
			snap := s.Snapshot()
			s.AddBalance(a, big.NewInt(1))
			s.Set(CodeKey(a), []byte{1})
			s.Burn(big.NewInt(1))
			s.RevertToSnapshot(snap)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(memReader{})
			s.Mint(a, big.NewInt(5))
			if _, err := s.Writes(); err != nil {
				t.Fatal(err)
			}
			tc.change(s)
			next := memReader{AccountKey(a): mustEncode(t, &Account{Nonce: 3, Balance: big.NewInt(5)})}
			err := s.Rebase(next)
			if tc.fails != (err != nil) {
				t.Fatalf("Rebase: %v, want failure %v", err, tc.fails)
			}
			if tc.fails && !errors.Is(err, ErrUnwritten) {
				t.Fatalf("Rebase: %v", err)
			}
			// A new account is read from the new reader only after a
			// rebase (the old one is empty).
			b := types.Address{2}
			next[AccountKey(b)] = mustEncode(t, &Account{Nonce: 4, Balance: big.NewInt(1)})
			if got, want := s.Nonce(b), map[bool]uint64{false: 4, true: 0}[tc.fails]; got != want {
				t.Fatalf("nonce read after Rebase %d, want %d", got, want)
			}
		})
	}
	s := New(failReader{})
	s.Balance(a)
	if err := s.Rebase(memReader{}); !errors.Is(err, ErrUnwritten) {
		t.Fatalf("Rebase after a failed read: %v", err)
	}
	s = New(memReader{})
	s.Balance(a)
	s.Balance(types.Address{2})
	s.Get(CodeKey(a))
	if got := s.Cached(); got != 3 {
		t.Fatalf("Cached %d, want 3", got)
	}
}

func mustEncode(t *testing.T, a *Account) []byte {
	t.Helper()
	b, err := encodeAccount(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Verify finds every way the state underneath can differ from what a view
// holds (the guard against a writer that bypasses the block's view, see
// node's checkCarried), and nothing where a fresh view would read the
// same: an empty account is an absent one.
func TestVerify(t *testing.T) {
	a, b, c, d := types.Address{1}, types.Address{2}, types.Address{3}, types.Address{4}
	code, other := types.Hash{9}, types.Hash{8}
	k, k2, k3 := CodeKey(a), CodeKey(c), StorageKey(b, types.Hash{1})
	base := func(t *testing.T) memReader {
		return memReader{
			AccountKey(a): mustEncode(t, &Account{Nonce: 1, Balance: big.NewInt(5)}),
			AccountKey(b): mustEncode(t, &Account{Balance: big.NewInt(2), CodeHash: &code}),
			AccountKey(d): mustEncode(t, &Account{Balance: big.NewInt(1)}),
			k:             []byte{7},
			k3:            []byte{},
			supplyKey:     big.NewInt(10).Bytes(),
		}
	}
	// view reads a, b, c (absent), d (then emptied and written), k, k2
	// (absent), k3 (present, empty) and, if supply, the supply.
	view := func(t *testing.T, supply bool) *StateDB {
		s := New(base(t))
		s.Nonce(a)
		s.Nonce(b)
		s.Nonce(c)
		if err := s.SubBalance(d, big.NewInt(1)); err != nil {
			t.Fatal(err)
		}
		s.Get(k)
		s.Get(k2)
		s.Get(k3)
		if supply {
			s.Supply()
		}
		ws, err := s.Writes()
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) != 1 || ws[0].Key != AccountKey(d) || ws[0].Value != nil {
			t.Fatalf("writes %v: want d deleted", ws)
		}
		return s
	}
	acct := func(acc *Account) func(*testing.T, memReader, Key) {
		return func(t *testing.T, m memReader, key Key) { m[key] = mustEncode(t, acc) }
	}
	set := func(v []byte) func(*testing.T, memReader, Key) {
		return func(_ *testing.T, m memReader, key Key) { m[key] = v }
	}
	del := func(_ *testing.T, m memReader, key Key) { delete(m, key) }
	for _, tc := range []struct {
		name   string
		key    Key
		change func(*testing.T, memReader, Key)
		supply bool
		want   error // nil, ErrStale, or errAny for another failure
	}{
		{"same", k, set([]byte{7}), true, nil},
		{"emptied account absent underneath", AccountKey(d), del, true, nil},
		{"absent account stored empty", AccountKey(c), acct(&Account{Balance: new(big.Int)}), true, nil},
		{"emptied account stored empty", AccountKey(d), acct(&Account{Balance: new(big.Int)}), true, nil},
		{"nonce", AccountKey(a), acct(&Account{Nonce: 2, Balance: big.NewInt(5)}), true, ErrStale},
		{"balance", AccountKey(a), acct(&Account{Nonce: 1, Balance: big.NewInt(6)}), true, ErrStale},
		{"code hash added", AccountKey(a), acct(&Account{Nonce: 1, Balance: big.NewInt(5), CodeHash: &code}), true, ErrStale},
		{"code hash dropped", AccountKey(b), acct(&Account{Balance: big.NewInt(2)}), true, ErrStale},
		{"code hash changed", AccountKey(b), acct(&Account{Balance: big.NewInt(2), CodeHash: &other}), true, ErrStale},
		{"account deleted", AccountKey(a), del, true, ErrStale},
		{"absent account created", AccountKey(c), acct(&Account{Balance: big.NewInt(1)}), true, ErrStale},
		{"emptied account funded", AccountKey(d), acct(&Account{Balance: big.NewInt(1)}), true, ErrStale},
		{"record changed", k, set([]byte{8}), true, ErrStale},
		{"record deleted", k, del, true, ErrStale},
		{"absent record set", k2, set([]byte{1}), true, ErrStale},
		{"absent record set empty", k2, set([]byte{}), true, ErrStale},
		{"empty record deleted", k3, del, true, ErrStale},
		{"supply", supplyKey, set(big.NewInt(11).Bytes()), true, ErrStale},
		{"supply not held", supplyKey, set(big.NewInt(11).Bytes()), false, nil},
		{"account undecodable", AccountKey(a), set([]byte{0xff}), true, errAny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := view(t, tc.supply)
			under := base(t)
			delete(under, AccountKey(d)) // the view's block wrote it away
			tc.change(t, under, tc.key)
			err := s.Verify(under)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("Verify: %v", err)
			case tc.want == errAny && (err == nil || errors.Is(err, ErrStale)):
				t.Fatalf("Verify: %v, want a read failure", err)
			case tc.want == ErrStale && !errors.Is(err, ErrStale):
				t.Fatalf("Verify: %v, want ErrStale", err)
			}
		})
	}
	if err := view(t, true).Verify(failReader{}); err == nil || errors.Is(err, ErrStale) {
		t.Fatalf("Verify over a failing reader: %v", err)
	}
	if err := New(base(t)).Verify(failReader{}); err != nil {
		t.Fatalf("Verify of an empty view: %v", err)
	}
	s := New(base(t))
	s.Get(k)
	if err := s.Verify(failReader{}); err == nil || errors.Is(err, ErrStale) {
		t.Fatalf("Verify of a record over a failing reader: %v", err)
	}
	s = New(base(t))
	s.Supply()
	if err := s.Verify(failReader{}); err == nil || errors.Is(err, ErrStale) {
		t.Fatalf("Verify of the supply over a failing reader: %v", err)
	}
	s = view(t, true)
	s.AddBalance(a, big.NewInt(1))
	if err := s.Verify(base(t)); !errors.Is(err, ErrUnwritten) {
		t.Fatalf("Verify with a change not written: %v", err)
	}
}

// errAny stands for a failure other than ErrStale in TestVerify.
var errAny = errors.New("any other failure")
