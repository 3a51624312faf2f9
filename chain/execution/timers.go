package execution

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// TimerResult is what the Deliver Timers step did in a block.
type TimerResult struct {
	Receipts []*timers.Receipt // one per timer that ran, in execution order
	// CyclesUsed is the timer lane's use: the get_gas_bid calls
	// (GBACycles) and the runs (intrinsic + handlers). It is block space:
	// the block's cycle usage, which the §4.2 basefee update reads.
	CyclesUsed uint64
	CellsUsed  uint64
	Deferred   int      // due timers rolled over to the next block (Unasked included)
	Unasked    int      // of those, the ones whose GBA the full lane could not ask
	Dropped    []uint64 // timers dropped after MaxFundsDeferrals or with their actor gone
	Moved      int      // ids queue maintenance moved between tiers
	// GBACycles and GBAFee are the get_gas_bid calls of the block: the
	// cycles they used (part of CyclesUsed) and what their owners paid
	// for them (burned).
	GBACycles uint64
	GBAFee    *big.Int
	err       error // a state failure inside a run; fails the block
}

// DeliverTimers is the state-transition step "Deliver Timers" (v2 "The
// State Transition Function": after the block's transactions, before jobs,
// basefees and rewards). It collects the due timers (rolled-over ones
// first), asks each one's Gas Bidding Agent for a bid (CIP-1, read-only,
// capped at GBACallCycles), runs them from the highest effective tip down
// while the timer lane has budget (§17.9, scheduler-dos-protection), rolls
// the rest over, then runs the queue's maintenance. cellsLeft is what the
// block's cell cap has left after its transactions.
//
// GBA calls are timer-lane work (docs/decisions.md "Timers: who pays for
// a GBA call"): their cycles come out of the lane's TimerLaneCycles
// before the runs and count as the block's usage. A call is made only
// while the lane has room for its cap and one run after it
// (GBACallCycles + TimerCallCycles), so bids can never take the whole
// lane; a candidate whose GBA could not be asked rolls over unasked, in
// the order the queue gave it, behind the ones that were asked.
func DeliverTimers(st *state.StateDB, bc *BlockContext, cellsLeft uint64) (*TimerResult, error) {
	q := timers.New(st)
	due, err := q.Due(bc.Height)
	if err != nil {
		return nil, fmt.Errorf("deliver timers at %d: %w", bc.Height, err)
	}
	res := &TimerResult{GBAFee: new(big.Int)}
	if len(due) > 0 {
		cs := make([]timers.Candidate, 0, len(due))
		var unasked []timers.Outcome
		for _, t := range due {
			g := gasBid(st, bc, t, timers.TimerLaneCycles-res.GBACycles)
			if g.unasked {
				unasked = append(unasked, timers.Outcome{Timer: t, Reason: timers.ReasonBudget})
				continue
			}
			c := timers.NewCandidate(t, g.bid, bc.Basefees.Cycle, bc.Basefees.Cell)
			c.GBACycles, c.GBACells, c.GBAFee = g.cycles, g.cells, g.fee
			cs = append(cs, c)
			res.GBACycles += g.cycles
			res.GBAFee.Add(res.GBAFee, g.fee)
		}
		timers.Order(cs)
		outs, used := timers.Fill(cs, timers.TimerLaneCycles-res.GBACycles, func(c *timers.Candidate, limit uint64) (uint64, timers.Outcome) {
			return runTimer(st, bc, c, limit, cellsLeft-min(cellsLeft, res.CellsUsed), res)
		})
		res.CyclesUsed = res.GBACycles + used
		if res.err != nil {
			return nil, fmt.Errorf("deliver timers at %d: %w", bc.Height, res.err)
		}
		res.Unasked = len(unasked)
		outs = append(outs, unasked...)
		for _, o := range outs {
			if !o.Ran && !o.Drop {
				res.Deferred++
			}
		}
		dropped, err := q.Settle(bc.Height, outs)
		if err != nil {
			return nil, fmt.Errorf("deliver timers at %d: %w", bc.Height, err)
		}
		res.Dropped = append(res.Dropped, dropped...)
	}
	if res.Moved, err = q.Maintain(bc.Height); err != nil {
		return nil, fmt.Errorf("timer queue maintenance at %d: %w", bc.Height, err)
	}
	if st.Err() != nil {
		return nil, st.Err()
	}
	return res, nil
}

// runTimer executes one timer that won its place in the lane: it checks
// the owner can pay its bid for the whole call, runs the handler as a
// message from the actor to itself, charges the owner for what it used
// (basefee burned, tip to the proposer) and records the receipt.
func runTimer(st *state.StateDB, bc *BlockContext, c *timers.Candidate, limit, cellsLeft uint64, res *TimerResult) (uint64, timers.Outcome) {
	t := c.Timer
	if !st.IsActor(t.Owner) {
		// The actor is gone: drop the timer, its deposit goes back.
		res.Dropped = append(res.Dropped, t.ID)
		return 0, timers.Outcome{Timer: t, Drop: true}
	}
	if PerActorBlockCycles-min(PerActorBlockCycles, bc.actorCycles(t.Owner)) < limit {
		// Its actor has used its §12.1 per-block cycles: wait for the next
		// block rather than run short and fail.
		return 0, timers.Outcome{Timer: t, Reason: timers.ReasonBudget}
	}
	args := append(types.AppendArrayHeader(nil, 1), t.Data...)
	cellsLimit := min(timers.TimerCallCells, cellsLeft)
	if cellsLimit < uint64(len(args)) || cellsLimit < timers.TimerCallCells/4 {
		return 0, timers.Outcome{Timer: t, Reason: timers.ReasonBudget}
	}
	cellTip, _ := timers.CellTip(c.Bid, bc.Basefees.Cell)
	cyclePrice, cellPrice := bc.Basefees.Cycle+c.Tip, bc.Basefees.Cell+cellTip
	prepay := fees.MaxCost(limit, cellsLimit, cyclePrice, cellPrice)
	if !st.HasBalance(t.Owner, prepay) {
		return 0, timers.Outcome{Timer: t, Reason: timers.ReasonFunds}
	}
	mustNotFail(st.SubBalance(t.Owner, prepay))

	cycles, cells := timers.TimerIntrinsicCycles, uint64(len(args))
	env := &envelope{id: timerMessageID(t.ID, bc.Height), from: t.Owner, to: t.Owner, method: t.Handler,
		args: args, value: new(big.Int), depth: 1}
	rt := newRuntime(st, bc, t.Owner, limit-cycles, cellsLimit-cells)
	ok, errMsg := rt.run(env)
	cycles += rt.cyclesUsed
	cells += rt.cellsUsed

	charge := fees.Compute(cycles, cells, fees.Prices{MaxFee: cyclePrice, Tip: c.Tip},
		fees.Prices{MaxFee: cellPrice, Tip: cellTip}, bc.Basefees.Cycle, bc.Basefees.Cell)
	st.AddBalance(t.Owner, new(big.Int).Sub(prepay, charge.Fee))
	st.Burn(charge.Burned)
	st.AddBalance(bc.Proposer, charge.Tip)

	rc := &timers.Receipt{TimerID: t.ID, Height: bc.Height, Owner: t.Owner, Handler: t.Handler,
		Status: types.ReceiptSuccess, CyclesUsed: cycles, CellsUsed: cells, Fee: charge.Fee, Burned: charge.Burned,
		Tip: charge.Tip, TipPerCycle: c.Tip, Events: rt.events, Messages: rt.results,
		GBACycles: c.GBACycles, GBAFee: c.GBAFee, Index: uint64(len(res.Receipts))}
	if !ok {
		rc.Status, rc.Error = types.ReceiptFailed, errMsg
	}
	if err := timers.AddReceipt(st, rc); err != nil && res.err == nil {
		res.err = err
	}
	res.Receipts = append(res.Receipts, rc)
	res.CellsUsed += cells
	return cycles, timers.Outcome{Timer: t, Ran: true}
}

// timerMessageID identifies the message of timer id's run at height
// (§3.3 dedup set): keccak256("timer" || id || height), 8-byte big-endian.
func timerMessageID(id, height uint64) types.Hash {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], id)
	binary.BigEndian.PutUint64(b[8:], height)
	return types.Hash(crypto.Keccak256([]byte("timer"), b[:]))
}

// gbaCall is what asking a timer's GBA gave and cost.
type gbaCall struct {
	bid           timers.Bid
	cycles, cells uint64
	fee           *big.Int // paid by the owner, burned
	// unasked: the call was due but the timer lane had no room for it;
	// the timer rolls over without a bid and nothing is charged.
	unasked bool
}

// gasBid asks t's Gas Bidding Agent for its bid (CIP-1 getGasBid, spelled
// get_gas_bid(self, context) in Python, spec/README.md): a read-only call
// capped at GBACallCycles with the six context keys. A timer without a
// GBA, or whose GBA is missing, fails, runs out of its cap or returns
// anything but a dict of four non-negative ints, bids the default.
//
// The owner pays for the call: it must hold the cap's cost at the
// block's basefees (else no call is made and it bids the default), and is
// charged the cycles and cells the call used, return value included
// (CIP-3 §2.2.2 "Return Data"), at the basefees, all burned: a
// producer's work for a bid is never free (scheduler-dos-protection,
// "GBA calls are read-only"; the price is decided in docs/decisions.md).
//
// laneLeft is what the timer lane has left after this block's earlier
// calls: a call is made only when it holds the cap and one run
// (GBACallCycles + TimerCallCycles); otherwise the result is unasked.
func gasBid(st *state.StateDB, bc *BlockContext, t *timers.Timer, laneLeft uint64) gbaCall {
	out := gbaCall{bid: timers.DefaultBid(bc.Basefees.Cycle, bc.Basefees.Cell), fee: new(big.Int)}
	if t.GBA == nil {
		return out
	}
	prog, err := programAt(st, *t.GBA)
	if err != nil || prog == nil {
		return out
	}
	if !st.HasBalance(t.Owner, fees.MaxCost(timers.GBACallCycles, timers.GBACallCells, bc.Basefees.Cycle, bc.Basefees.Cell)) {
		return out
	}
	if laneLeft < timers.GBACallCycles+timers.TimerCallCycles {
		out.unasked = true
		return out
	}
	ctx, err := cbor.EncodeGo([]any{cbor.Map{
		{Key: "basefee_cell", Value: new(big.Int).SetUint64(bc.Basefees.Cell)},
		{Key: "basefee_cycle", Value: new(big.Int).SetUint64(bc.Basefees.Cycle)},
		{Key: "current_block_height", Value: new(big.Int).SetUint64(bc.Height)},
		{Key: "last_block_cycle_usage", Value: new(big.Int).SetUint64(bc.LastBlockCycles)},
		{Key: "owner_actor_balance", Value: st.Balance(t.Owner)},
		{Key: "trigger_block_height", Value: new(big.Int).SetUint64(t.Due)},
	}})
	if err != nil {
		return out
	}
	snap := st.Snapshot()
	h := &gbaHost{st: st, bc: bc, self: *t.GBA, owner: t.Owner}
	ret, used, err := prog.Run(pvm.Config{CyclesLimit: timers.GBACallCycles, CellsLimit: timers.GBACallCells, Host: h},
		pvm.Call{Method: "get_gas_bid", Args: ctx})
	st.RevertToSnapshot(snap)
	out.cycles, out.cells = min(used.CyclesUsed, timers.GBACallCycles), min(used.CellsUsed, timers.GBACallCells)
	out.fee = fees.Compute(out.cycles, out.cells, fees.Prices{MaxFee: bc.Basefees.Cycle}, fees.Prices{MaxFee: bc.Basefees.Cell},
		bc.Basefees.Cycle, bc.Basefees.Cell).Burned
	mustNotFail(st.SubBalance(t.Owner, out.fee)) // covered by the HasBalance above
	st.Burn(out.fee)
	if err != nil {
		return out
	}
	if b, ok := parseBid(ret); ok {
		out.bid = b
	}
	return out
}

// parseBid reads get_gas_bid's return value: a dict with exactly the int
// keys tip_per_cycle, max_fee_per_cycle, tip_per_cell, max_fee_per_cell,
// each in 0 … 2^64−1.
func parseBid(ret []byte) (timers.Bid, bool) {
	v, err := cbor.DecodeGo(ret)
	if err != nil {
		return timers.Bid{}, false
	}
	m, ok := v.(cbor.Map)
	if !ok || len(m) != 4 {
		return timers.Bid{}, false
	}
	var b timers.Bid
	seen := 0
	for _, e := range m {
		k, ok := e.Key.(string)
		if !ok {
			return b, false
		}
		n, ok := uintValue(e.Value)
		if !ok {
			return b, false
		}
		switch k {
		case "tip_per_cycle":
			b.TipPerCycle = n
		case "max_fee_per_cycle":
			b.MaxFeePerCycle = n
		case "tip_per_cell":
			b.TipPerCell = n
		case "max_fee_per_cell":
			b.MaxFeePerCell = n
		default:
			return b, false
		}
		seen++
	}
	return b, seen == 4
}

func uintValue(v any) (uint64, bool) {
	switch x := v.(type) {
	case int64:
		return uint64(x), x >= 0
	case *big.Int:
		return x.Uint64(), x.Sign() >= 0 && x.IsUint64()
	}
	return 0, false
}

// gbaHost is the read-only pvm.Host of a get_gas_bid call: the GBA may
// read its own storage and balances, and nothing else; every write is
// refused (and the caller reverts the state anyway).
type gbaHost struct {
	st          *state.StateDB
	bc          *BlockContext
	self, owner types.Address
}

var errReadOnly = &pvm.HostError{Type: "RuntimeError", Msg: "get_gas_bid is a read-only call (CIP-1): it cannot write, send, transfer or schedule"}

func (h *gbaHost) StorageGet(ns byte, key []byte) ([]byte, bool, error) {
	v := h.st.GetStorage(h.self, ns, key)
	return v, v != nil, h.st.Err()
}
func (h *gbaHost) StorageSet(byte, []byte, []byte) error     { return errReadOnly }
func (h *gbaHost) StorageDelete(byte, []byte) error          { return errReadOnly }
func (h *gbaHost) Send(pvm.Message) ([32]byte, error)        { return [32]byte{}, errReadOnly }
func (h *gbaHost) Emit(pvm.Event) error                      { return errReadOnly }
func (h *gbaHost) Transfer(pvm.Address, *big.Int) error      { return errReadOnly }
func (h *gbaHost) SetTimer(pvm.TimerRequest) (uint64, error) { return 0, errReadOnly }
func (h *gbaHost) CancelTimer(uint64) (*big.Int, error)      { return nil, errReadOnly }
func (h *gbaHost) Balance(a pvm.Address) (*big.Int, error) {
	return h.st.Balance(types.Address(a)), h.st.Err()
}
func (h *gbaHost) Context() pvm.MessageContext {
	return pvm.MessageContext{Self: pvm.Address(h.self), Sender: pvm.Address(h.owner), Origin: pvm.Address(h.owner), Value: new(big.Int), Depth: 1}
}
func (h *gbaHost) Block() pvm.BlockInfo {
	return pvm.BlockInfo{Height: h.bc.Height, Timestamp: h.bc.Time, ChainID: h.bc.ChainID, Proposer: pvm.Address(h.bc.Proposer), Beacon: h.bc.Beacon}
}
