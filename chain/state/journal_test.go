package state

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"pgregory.net/rapid"
)

// model is what a StateDB must show: accounts as plain values and the
// supply, copied whole at every snapshot.
type model struct {
	nonce  map[types.Address]uint64
	bal    map[types.Address]*big.Int
	supply *big.Int
}

func (m model) clone() model {
	c := model{nonce: map[types.Address]uint64{}, bal: map[types.Address]*big.Int{}, supply: new(big.Int).Set(m.supply)}
	for a, n := range m.nonce {
		c.nonce[a] = n
	}
	for a, b := range m.bal {
		c.bal[a] = new(big.Int).Set(b)
	}
	return c
}

func (m model) balance(a types.Address) *big.Int {
	if b := m.bal[a]; b != nil {
		return b
	}
	return new(big.Int)
}

// amount draws small amounts, amounts near 2^64 and 2^128 (word
// boundaries) and a few above 256 bits (the copying path).
func amount(t *rapid.T, label string, maxShift int) *big.Int {
	v := new(big.Int).SetUint64(rapid.Uint64Range(0, 1000).Draw(t, label))
	switch rapid.IntRange(0, maxShift).Draw(t, label+"-shift") {
	case 1:
		v.Lsh(v, 60)
	case 2:
		v.Lsh(v, 124)
	case 3:
		v.Lsh(v, 250) // up to 260 bits: beyond deltaWords on every machine
	}
	return v
}

// In-place balance and nonce changes, journaled as deltas, must revert to
// exactly what a copy of the whole state taken at the snapshot held, and
// commit exactly the model's accounts and supply.
func TestJournalMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// A committed state with three funded accounts and a supply.
		r := memReader{}
		addrs := []types.Address{{1}, {2}, {3}, {4}, {5}}
		m := model{nonce: map[types.Address]uint64{}, bal: map[types.Address]*big.Int{}, supply: new(big.Int)}
		s := New(r)
		for _, a := range addrs[:3] {
			v := amount(t, "genesis", 2) // a committed record holds at most 256 bits
			s.Mint(a, v)
			m.bal[a] = new(big.Int).Set(v)
			m.supply.Add(m.supply, v)
		}
		ws, err := s.Writes()
		if err != nil {
			t.Fatal(err)
		}
		r.apply(ws)

		s = New(r)
		var snaps []int
		var saved []model
		steps := rapid.IntRange(1, 60).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			a := rapid.SampledFrom(addrs).Draw(t, "addr")
			switch op := rapid.IntRange(0, 6).Draw(t, "op"); op {
			case 0:
				v := amount(t, "add", 5)
				s.AddBalance(a, v)
				m.bal[a] = new(big.Int).Add(m.balance(a), v)
			case 1:
				v := amount(t, "sub", 5)
				err := s.SubBalance(a, v)
				if m.balance(a).Cmp(v) < 0 {
					if err == nil {
						t.Fatalf("overdraft of %s allowed", v)
					}
				} else {
					if err != nil {
						t.Fatal(err)
					}
					m.bal[a] = new(big.Int).Sub(m.balance(a), v)
				}
			case 2:
				n := rapid.Uint64().Draw(t, "nonce")
				s.SetNonce(a, n)
				m.nonce[a] = n
			case 3:
				v := amount(t, "mint", 5)
				s.Mint(a, v)
				m.bal[a] = new(big.Int).Add(m.balance(a), v)
				m.supply.Add(m.supply, v)
			case 4:
				v := amount(t, "burn", 5)
				if v.Cmp(m.supply) <= 0 {
					s.Burn(v)
					m.supply.Sub(m.supply, v)
				}
			case 5:
				snaps = append(snaps, s.Snapshot())
				saved = append(saved, m.clone())
			case 6:
				if len(snaps) == 0 {
					continue
				}
				k := rapid.IntRange(0, len(snaps)-1).Draw(t, "revert")
				s.RevertToSnapshot(snaps[k])
				m = saved[k].clone()
				snaps, saved = snaps[:k+1], saved[:k+1]
			}
			for _, b := range addrs {
				if got, want := s.Balance(b), m.balance(b); got.Cmp(want) != 0 {
					t.Fatalf("step %d: balance of %s is %s, model %s", i, b, got, want)
				}
				if got, want := s.Nonce(b), m.nonce[b]; got != want {
					t.Fatalf("step %d: nonce of %s is %d, model %d", i, b, got, want)
				}
			}
			if s.Supply().Cmp(m.supply) != 0 {
				t.Fatalf("step %d: supply %s, model %s", i, s.Supply(), m.supply)
			}
		}

		// What is committed is the model, and nothing else. (An account
		// record holds at most 256 bits, as a value does: beyond that the
		// codec, not the journal, refuses it.)
		for _, b := range addrs {
			if m.balance(b).BitLen() > 256 {
				return
			}
		}
		ws, err = s.Writes()
		if err != nil {
			t.Fatal(err)
		}
		r.apply(ws)
		s = New(r)
		for _, b := range addrs {
			if s.Balance(b).Cmp(m.balance(b)) != 0 || s.Nonce(b) != m.nonce[b] {
				t.Fatalf("committed %s: balance %s nonce %d, model %s %d", b, s.Balance(b), s.Nonce(b), m.balance(b), m.nonce[b])
			}
			_, present := r[AccountKey(b)]
			if want := m.balance(b).Sign() != 0 || m.nonce[b] != 0; present != want {
				t.Fatalf("account %s stored: %v, want %v", b, present, want)
			}
		}
		if s.Supply().Cmp(m.supply) != 0 {
			t.Fatalf("committed supply %s, model %s", s.Supply(), m.supply)
		}
	})
}

// A reverted change leaves no write behind, whichever path (in place or
// copying) it took.
func TestRevertLeavesNoWrites(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 300)
	for _, tc := range []struct {
		name string
		do   func(s *StateDB, a types.Address)
	}{
		{"credit existing", func(s *StateDB, a types.Address) { s.AddBalance(a, big.NewInt(5)) }},
		{"debit existing", func(s *StateDB, a types.Address) { s.SubBalance(a, big.NewInt(5)) }},
		{"nonce", func(s *StateDB, a types.Address) { s.SetNonce(a, 9) }},
		{"credit absent", func(s *StateDB, _ types.Address) { s.AddBalance(types.Address{7}, big.NewInt(5)) }},
		{"credit beyond 256 bits", func(s *StateDB, a types.Address) { s.AddBalance(a, huge) }},
		{"burn", func(s *StateDB, _ types.Address) { s.Burn(big.NewInt(3)) }},
		{"burn beyond 256 bits", func(s *StateDB, a types.Address) { s.Mint(a, huge); s.Burn(huge) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := memReader{}
			a := types.Address{1}
			s := New(r)
			s.Mint(a, big.NewInt(100))
			ws, _ := s.Writes()
			r.apply(ws)
			s = New(r)
			before := fmt.Sprint(s.Balance(a), s.Nonce(a), s.Supply())
			snap := s.Snapshot()
			tc.do(s, a)
			s.RevertToSnapshot(snap)
			if after := fmt.Sprint(s.Balance(a), s.Nonce(a), s.Supply()); after != before {
				t.Fatalf("after revert %s, before %s", after, before)
			}
			if ws, _ := s.Writes(); len(ws) != 0 {
				t.Fatalf("reverted change still written: %d writes", len(ws))
			}
		})
	}
}
