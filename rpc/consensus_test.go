package rpc

import (
	"encoding/json"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestStatusRendering: the node's status values become the documented
// JSON: absent values are null, empty block lists are [], numbers are
// hex quantities.
func TestStatusRendering(t *testing.T) {
	one, two, three := uint64(1), uint64(2), uint64(3)
	h := types.Hash{0xab}
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"devnet consensus", NewConsensusStatusJSON(ConsensusStatus{Mode: "devnet", FinalizedHeight: 5}),
			`{"mode":"devnet","validator":null,"round":null,"epoch":null,"finalizedHeight":"0x5","committed":[],"proposed":[],"peers":"0x0"}`},
		{"validator consensus", NewConsensusStatusJSON(ConsensusStatus{Mode: "validator", Validator: &one, Round: &two, Epoch: &three,
			FinalizedHeight: 9, Peers: 3, Committed: []ConsensusBlock{{Hash: h, Height: 10, Round: 2, Epoch: 3, Proposer: types.Address{0xcd}, Parent: types.Hash{0xef}}}}),
			`{"mode":"validator","validator":"0x1","round":"0x2","epoch":"0x3","finalizedHeight":"0x9","committed":[{"hash":"` + h.Hex() +
				`","height":"0xa","round":"0x2","epoch":"0x3","proposer":"` + types.Address{0xcd}.Hex() + `","parent":"` + types.Hash{0xef}.Hex() + `"}],"proposed":[],"peers":"0x3"}`},
		{"devnet block", NewBlockStatusJSON(&BlockStatus{Hash: h, Height: 4, Status: StatusFinalized}),
			`{"hash":"` + h.Hex() + `","consensusHash":null,"height":"0x4","round":null,"epoch":null,"status":"finalized"}`},
		{"pending block", NewBlockStatusJSON(&BlockStatus{Hash: h, ConsensusHash: &h, Height: 4, Round: &two, Epoch: &one, Status: StatusCommitted}),
			`{"hash":"` + h.Hex() + `","consensusHash":"` + h.Hex() + `","height":"0x4","round":"0x2","epoch":"0x1","status":"committed"}`},
	} {
		got, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, got, tt.want)
	}
}
