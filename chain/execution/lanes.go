package execution

import (
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// LaneOf tags a transaction with its execution lane (§6.3, §17.9):
// validator registry calls are the system lane; everything else a user
// sends is the user lane. The timer lane carries no transactions (timers
// run in the Deliver Timers step) and the runner lane is filled by the
// runner market when it lands.
func LaneOf(tx *types.Tx) fees.Lane {
	if tx.To != nil && *tx.To == staking.Address {
		return fees.LaneSystem
	}
	return fees.LaneUser
}

// TxCycleCap is how many cycles a block's transactions may use: the block
// cap less the timer lane's reservation when timers are due at height
// (spec/README.md "lanes": a reserved lane's budget is not taken before
// the lane has been served; timers are served after the transactions, so
// their budget is set aside first). When no timer is due the reservation
// spills to the transactions.
func TxCycleCap(st *state.StateDB, height uint64) (uint64, error) {
	due, err := timers.New(st).HasDue(height)
	if err != nil {
		return 0, err
	}
	if due {
		return fees.CapCycles - timers.TimerLaneCycles, nil
	}
	return fees.CapCycles, nil
}
