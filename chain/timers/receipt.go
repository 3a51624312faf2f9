package timers

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Receipt records one execution of a timer, like a transaction's receipt:
// kept in the state with the timer's last ReceiptsPerTimer runs, and for
// ReceiptRetention blocks after the timer ends, so `cowboy timers
// receipts ID` can show what happened (and a proof can show it too).
type Receipt struct {
	_          struct{} `cbor:",toarray"`
	TimerID    uint64
	Height     uint64
	Owner      types.Address
	Handler    string
	Status     uint64 // types.ReceiptSuccess or types.ReceiptFailed
	CyclesUsed uint64 // intrinsic + handler
	CellsUsed  uint64
	Fee        *big.Int // paid by the owner = Burned + Tip
	Burned     *big.Int
	Tip        *big.Int
	// TipPerCycle is the effective tip the bid won with.
	TipPerCycle uint64
	Error       string // why the handler failed, with its traceback line
	Events      []types.Event
	Messages    []types.MessageResult
	// GBACycles and GBAFee are what the owner paid in this block for its
	// GBA's get_gas_bid call (burned at the basefees; not in Fee).
	GBACycles uint64
	GBAFee    *big.Int
	// Index is the run's place among its block's timer runs, 0 first:
	// the order of execution (highest effective tip first), as a
	// transaction receipt's index is its place in the block.
	Index uint64
}

const (
	// ReceiptsPerTimer is how many of a timer's runs keep a receipt.
	ReceiptsPerTimer = 16
	// ReceiptRetention is how many blocks a finished timer's receipts stay
	// (as the §12.1 dedup window: 10,000 blocks).
	ReceiptRetention = 10_000
)

const (
	nsReceipts byte = 6 // a timer's receipts, slot = id
	nsExpiry   byte = 7 // receipt logs to drop at a height, slot = height
)

func receiptsKey(id uint64) state.Key {
	return statekey.Make(statekey.KindTimer, types.Address{}, nsReceipts, idSlot(id))
}

func expiryKey(h uint64) state.Key {
	return statekey.Make(statekey.KindTimer, types.Address{}, nsExpiry, idSlot(h))
}

// Receipts returns the kept receipts of timer id, oldest first.
func Receipts(st *state.StateDB, id uint64) ([]Receipt, error) {
	raw := st.Get(receiptsKey(id))
	if raw == nil {
		return nil, st.Err()
	}
	var rs []Receipt
	if err := types.Unmarshal(raw, &rs); err != nil {
		return nil, fmt.Errorf("timer %d receipts: %w", id, err)
	}
	return rs, nil
}

// AddReceipt appends r to its timer's receipts, keeping the last
// ReceiptsPerTimer.
func AddReceipt(st *state.StateDB, r *Receipt) error {
	rs, err := Receipts(st, r.TimerID)
	if err != nil {
		return err
	}
	rs = append(rs, *r)
	if len(rs) > ReceiptsPerTimer {
		rs = rs[len(rs)-ReceiptsPerTimer:]
	}
	b, err := types.Marshal(rs)
	if err != nil {
		return fmt.Errorf("encode timer %d receipts: %w", r.TimerID, err)
	}
	st.Set(receiptsKey(r.TimerID), b)
	return nil
}

// expireReceipts schedules the receipts of a timer that ended at height
// for deletion ReceiptRetention blocks later.
func expireReceipts(st *state.StateDB, id, height uint64) error {
	if st.Get(receiptsKey(id)) == nil {
		return st.Err()
	}
	k := expiryKey(height + ReceiptRetention)
	var ids []uint64
	if raw := st.Get(k); raw != nil {
		var err error
		if ids, err = decodeIDs(raw); err != nil {
			return fmt.Errorf("receipt expiry list: %w", err)
		}
	}
	st.Set(k, encodeIDs(append(ids, id)))
	return nil
}

// pruneReceipts drops the receipts that expire at height.
func pruneReceipts(st *state.StateDB, height uint64) error {
	k := expiryKey(height)
	raw := st.Get(k)
	if raw == nil {
		return st.Err()
	}
	ids, err := decodeIDs(raw)
	if err != nil {
		return fmt.Errorf("receipt expiry list at %d: %w", height, err)
	}
	for _, id := range ids {
		st.Set(receiptsKey(id), nil)
	}
	st.Set(k, nil)
	return nil
}
