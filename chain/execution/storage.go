package execution

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// runStorageTx executes a call of the CBFS Storage Manager (0x0A) or Relay
// Registry (0x0B), native system actors (system/storage), and fills the
// receipt; like runStakingTx, a failed call reverts its effects and the
// caller still charges the fee. It returns the cycles used beyond the
// intrinsic cost.
func runStorageTx(st *state.StateDB, bc *BlockContext, to types.Address, value *big.Int, payload []byte, from types.Address, rc *types.Receipt, cycles uint64) uint64 {
	res, err := storage.Apply(st, storage.Call{To: to, From: from, Value: value, Payload: payload, Height: bc.Height, Cycles: cycles})
	if err != nil {
		rc.Status, rc.Error = types.ReceiptFailed, err.Error()
	}
	rc.Events = res.Events
	return res.CyclesUsed
}
