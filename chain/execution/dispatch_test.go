package execution

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// ApplyTx and Simulate dispatch through one table: the same transaction,
// signed and included, or simulated from the same state, is classified the
// same and has the same outcome and use of both meters.
func TestSimulateDispatchesLikeApplyTx(t *testing.T) {
	r := setup(t)
	st := state.New(r)
	st.Mint(alice, cby(1000))
	r.commit(t, st)

	deploy, err := (&types.DeployPayload{Code: "class Actor:\n    def __init__(self):\n        self.n = 1\n    def inc(self, k):\n        self.n += k\n        return self.n\n",
		Salt: make([]byte, 32), Args: args(t)}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	call, err := (&types.CallPayload{Method: "inc", Args: args(t, int64(4))}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	var actor types.Address
	for i, tc := range []struct {
		name    string
		to      func() *types.Address
		value   int64
		payload []byte
		kind    TxKind
	}{
		{"deploy", func() *types.Address { return nil }, 0, deploy, TxDeploy},
		{"call", func() *types.Address { return &actor }, 3, call, TxCall},
		{"transfer to an account", func() *types.Address { return &bob }, 1000, nil, TxTransfer},
		{"value to an actor, no payload", func() *types.Address { return &actor }, 5, nil, TxTransfer},
		{"registry call with a bad payload", func() *types.Address { a := staking.Address; return &a }, 0, []byte{0x80}, TxSystem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			to := tc.to()
			payload := tc.payload
			if payload == nil {
				payload = []byte{}
			}
			if k := Classify(state.New(r), to, payload); k != tc.kind {
				t.Fatalf("Classify = %d, want %d", k, tc.kind)
			}
			sim := Simulate(state.New(r), ctx(), alice, to, big.NewInt(tc.value), payload, 5_000_000, 100_000)

			tx := &types.Tx{ChainID: chainID, Nonce: uint64(i), To: to, Value: big.NewInt(tc.value), CyclesLimit: 5_000_000, CellsLimit: 100_000,
				MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1, TipPerCell: 1, Payload: payload}
			tx.Sign(aliceKey)
			st := state.New(r)
			rc, err := ApplyTx(st, ctx(), tx)
			if err != nil {
				t.Fatal(err)
			}
			if rc.Status != sim.Status || rc.Error != sim.Error || rc.CyclesUsed != sim.CyclesUsed || rc.CellsUsed != sim.CellsUsed ||
				string(rc.ReturnData) != string(sim.ReturnData) {
				t.Fatalf("ApplyTx: status %d %q cycles %d cells %d ret %x\nSimulate: status %d %q cycles %d cells %d ret %x",
					rc.Status, rc.Error, rc.CyclesUsed, rc.CellsUsed, rc.ReturnData, sim.Status, sim.Error, sim.CyclesUsed, sim.CellsUsed, sim.ReturnData)
			}
			if (rc.ContractAddress == nil) != (sim.ContractAddress == nil) || (rc.ContractAddress != nil && *rc.ContractAddress != *sim.ContractAddress) {
				t.Fatalf("contract address: ApplyTx %v, Simulate %v", rc.ContractAddress, sim.ContractAddress)
			}
			if tc.kind == TxDeploy {
				if rc.ContractAddress == nil {
					t.Fatalf("deploy failed: %s", rc.Error)
				}
				actor = *rc.ContractAddress
			}
			r.commit(t, st)
		})
	}
}
