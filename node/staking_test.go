package node

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/system/staking"
)

// The registry may not import the consensus, so it keeps its own copies of
// the epoch-seed formula and the vote bytes; the node, which uses both,
// checks they agree.
func TestStakingMatchesSimplex(t *testing.T) {
	for _, tc := range []struct {
		seed, beacon  [32]byte
		h             types.Hash
		height, round uint64
	}{
		{},
		{seed: [32]byte{1}, beacon: [32]byte{2}, h: types.Hash{3}, height: 4, round: 5},
		{seed: [32]byte{31: 0xff}, beacon: [32]byte{0: 0xff}, h: types.Hash{31: 9}, height: 1 << 40, round: 1<<64 - 1},
	} {
		if staking.NextSeed(tc.seed, tc.beacon) != simplex.NextEpochSeed(tc.seed, tc.beacon) {
			t.Fatalf("epoch seeds differ for %x, %x", tc.seed, tc.beacon)
		}
		if !bytes.Equal(staking.VoteMessage(tc.h, tc.height, tc.round), simplex.VoteMessage(tc.h, tc.height, tc.round)) {
			t.Fatalf("vote messages differ at height %d round %d", tc.height, tc.round)
		}
	}
}
