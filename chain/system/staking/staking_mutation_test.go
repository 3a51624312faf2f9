package staking

import (
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
)

// TestGenesisMinStakeEdge: a genesis validator staking exactly
// min_validator_stake is accepted and active; a CBY less is refused.
func TestGenesisMinStakeEdge(t *testing.T) {
	pk := blsKey(t, 1).PublicKey().Bytes()
	for _, tc := range []struct {
		stake uint64
		ok    bool
	}{{999, false}, {1000, true}, {1001, true}} {
		st := state.New(memReader{})
		err := InitGenesis(st, testParams(), []GenesisValidator{{Address: addr(1), BLSPublicKey: pk, StakeCBY: tc.stake}}, [32]byte{})
		if tc.ok != (err == nil) {
			t.Fatalf("stake %d CBY (min 1000): %v", tc.stake, err)
		}
		if !tc.ok {
			continue
		}
		v, err := ReadValidator(st, addr(1))
		if err != nil || v == nil || !v.Active {
			t.Fatalf("stake %d CBY: validator %+v, %v", tc.stake, v, err)
		}
		if got := st.Balance(Address); got.Cmp(cby(int64(tc.stake))) != 0 {
			t.Fatalf("stake %d CBY: registry holds %s", tc.stake, got)
		}
	}
}

// TestCyclesExactlyEnough: a call whose cycles left are exactly its cost
// runs (and uses them all); one cycle fewer is out of cycles.
func TestCyclesExactlyEnough(t *testing.T) {
	k := blsKey(t, 10)
	reg := RegisterPayload(k.PublicKey().Bytes(), k.ProvePossession().Bytes())
	cost := uint64(CallCycles + BLSVerifyCycles)
	for _, tc := range []struct {
		left uint64
		ok   bool
	}{{cost - 1, false}, {cost, true}, {cost + 1, true}} {
		e := newEnv(t, 1)
		res, err := Apply(e.st, Call{From: addr(10), Value: cby(1000), Payload: reg, Height: 1, Cycles: tc.left})
		if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, ErrOutOfCycles)) {
			t.Fatalf("%d cycles left for a cost of %d: %v", tc.left, cost, err)
		}
		want := cost
		if !tc.ok {
			want = tc.left
		}
		if res.CyclesUsed != want {
			t.Fatalf("%d cycles left: used %d, want %d", tc.left, res.CyclesUsed, want)
		}
		if v := e.validator(addr(10)); (v != nil) != tc.ok {
			t.Fatalf("%d cycles left: registered %v", tc.left, v != nil)
		}
	}
}
