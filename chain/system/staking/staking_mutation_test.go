package staking

import (
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
