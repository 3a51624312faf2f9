package execution

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// BlockContext is what execution knows of the block being built.
type BlockContext struct {
	ChainID  uint64
	Height   uint64
	Time     uint64
	Proposer types.Address // receives tips (§8.4)
	Basefees Basefees
	// Beacon is R_n of this block, its proposer's VRF output (§3.4); the
	// last block's beacon of an epoch seeds the next (system/staking).
	// Zero on the devnet.
	Beacon [32]byte
	// Signers are the validators whose votes are in this block's justify
	// QC, i.e. who certified its parent; downtime is counted from them.
	// Empty when unknown (the devnet): then nobody counts a miss.
	Signers []types.Address
	// LastBlockCycles is the cycles the parent block used: the congestion
	// indicator a Gas Bidding Agent gets (CIP-1 last_block_cycle_usage).
	LastBlockCycles uint64
	// Tracer, if set, observes the block (trace.go); nil in consensus.
	Tracer Tracer

	// cycles each actor's handlers used in this block (§12.1
	// per_actor_per_block_cycles), and the message ids delivered in it (for
	// the dedup expiry list, written once at the end of the block).
	actorUsed map[types.Address]uint64
	delivered []byte
	seen      map[[52]byte]bool
}

func (bc *BlockContext) actorCycles(a types.Address) uint64 { return bc.actorUsed[a] }

func (bc *BlockContext) addActorCycles(a types.Address, n uint64) {
	if bc.actorUsed == nil {
		bc.actorUsed = map[types.Address]uint64{}
	}
	bc.actorUsed[a] += n
}

func (bc *BlockContext) recordDelivery(a types.Address, id types.Hash) {
	bc.delivered = append(append(bc.delivered, a[:]...), id[:]...)
	if bc.seen == nil {
		bc.seen = map[[52]byte]bool{}
	}
	bc.seen[dedupEntry(a, id)] = true
}

// deliveredInBlock reports whether id reached a earlier in this block.
func (bc *BlockContext) deliveredInBlock(a types.Address, id types.Hash) bool {
	return bc.seen[dedupEntry(a, id)]
}

func dedupEntry(a types.Address, id types.Hash) (k [52]byte) {
	copy(k[:20], a[:])
	copy(k[20:], id[:])
	return k
}

// ApplyTx validates tx against the state and executes it. A returned error
// means the transaction is invalid here and the state is unchanged; a
// receipt means it is included (its status says whether execution
// succeeded) and fees were charged.
//
// The stateless rules run here too, so a block is never executed with a
// transaction that breaks them whoever built it; the sender is recovered
// at most once per transaction object (types.Tx caches it), so a
// transaction that came through the mempool or a judged proposal costs no
// second recovery.
//
// The sender pays limits × max fees up front; after execution the unused
// part is refunded at the max fee rates and the used part is split into the
// burned basefee and the proposer's tip (§2.3, §4.2, §8.4), so the sender
// pays exactly fee = used × (basefee + effective tip) on each meter.
func ApplyTx(st *state.StateDB, bc *BlockContext, tx *types.Tx) (*types.Receipt, error) {
	if bc.Tracer != nil {
		bc.Tracer.TxStart(tx)
		defer bc.Tracer.TxEnd()
	}
	from, err := CheckStateless(tx, bc.ChainID)
	if err != nil {
		return nil, err
	}
	if err := CheckFees(tx, bc.Basefees); err != nil {
		return nil, err
	}
	prepay, err := checkState(st, tx, from)
	if err != nil {
		return nil, err
	}

	st.SetNonce(from, tx.Nonce+1)
	mustNotFail(st.SubBalance(from, prepay)) // CheckState proved the balance covers it

	cyclesUsed, cellsUsed := fees.TxIntrinsic(tx)
	rc := &types.Receipt{TxHash: tx.Hash(), Status: types.ReceiptSuccess}

	// Execution proper. A failure here reverts the effects but keeps the
	// fee: the transaction was valid and used block space.
	m := message{tx: tx, from: from, value: tx.ValueOrZero(), cycles: tx.CyclesLimit - cyclesUsed, cells: tx.CellsLimit - cellsUsed}
	used, usedCells := dispatch[Classify(st, tx.To, tx.Payload)](st, bc, m, rc)
	cyclesUsed += used
	cellsUsed += usedCells

	charge := fees.TxCharge(tx, cyclesUsed, cellsUsed, bc.Basefees)
	// The refund is computed in prepay itself: SubBalance kept no
	// reference to it (the state journals a copy of its words).
	st.AddBalance(from, prepay.Sub(prepay, charge.Fee))
	st.Burn(charge.Burned)
	st.AddBalance(bc.Proposer, charge.Tip)

	rc.CyclesUsed, rc.CellsUsed = cyclesUsed, cellsUsed
	rc.Fee, rc.Burned, rc.Tip = charge.Fee, charge.Burned, charge.Tip
	return rc, nil
}

// TxKind is what executing a transaction does, decided against the state
// at execution (the intrinsic cost, fees.KindOf, needs no state).
type TxKind uint8

// The transaction kinds execution dispatches on.
const (
	TxTransfer TxKind = iota // value to an account (or to an actor without a payload)
	TxDeploy                 // to = null: create an actor and run __init__
	TxCall                   // a [method, args] payload to an actor
	TxSystem                 // a call of a native system actor: the validator registry (system/staking), CBFS 0x0A/0x0B (system/storage) or the runner market 0x01–0x03 (system/runner)
)

// Classify is the one rule that picks a transaction's TxKind; ApplyTx and
// Simulate both dispatch through it.
func Classify(st *state.StateDB, to *types.Address, payload []byte) TxKind {
	switch {
	case to == nil:
		return TxDeploy
	case *to == staking.Address || storage.Handles(*to) || runner.Handles(*to):
		return TxSystem
	case len(payload) > 0 && st.IsActor(*to):
		return TxCall
	}
	return TxTransfer
}

// message is what a TxKind's runner executes: the transaction (nil fields
// aside from To and Payload are unused by runners), its sender and value,
// and the cycles and cells left after the intrinsic cost.
type message struct {
	tx            *types.Tx
	from          types.Address
	value         *big.Int
	cycles, cells uint64
}

// dispatch is the one table from TxKind to what runs it. Each runner fills
// the receipt's status (and events, messages, return data) and returns the
// cycles and cells it used beyond the intrinsic cost; a failure reverts its
// own effects.
var dispatch = [...]func(st *state.StateDB, bc *BlockContext, m message, rc *types.Receipt) (cycles, cells uint64){
	TxTransfer: runTransfer,
	TxDeploy:   runActor,
	TxCall:     runActor,
	TxSystem:   runSystem,
}

func runTransfer(st *state.StateDB, _ *BlockContext, m message, rc *types.Receipt) (uint64, uint64) {
	snap := st.Snapshot()
	if err := transfer(st, m.from, *m.tx.To, m.value); err != nil {
		st.RevertToSnapshot(snap)
		rc.Status, rc.Error = types.ReceiptFailed, err.Error()
	}
	return 0, 0
}

func runActor(st *state.StateDB, bc *BlockContext, m message, rc *types.Receipt) (uint64, uint64) {
	return runActorTx(st, bc, m.tx, m.from, rc, m.cycles, m.cells)
}

func runSystem(st *state.StateDB, bc *BlockContext, m message, rc *types.Receipt) (uint64, uint64) {
	if runner.Handles(*m.tx.To) {
		return runRunnerTx(st, bc, *m.tx.To, m.value, m.tx.Payload, m.from, rc, m.cycles), 0
	}
	if storage.Handles(*m.tx.To) {
		return runStorageTx(st, bc, *m.tx.To, m.value, m.tx.Payload, m.from, rc, m.cycles), 0
	}
	return runStakingTx(st, bc, m.value, m.tx.Payload, m.from, rc, m.cycles), 0
}

func transfer(st *state.StateDB, from, to types.Address, v *big.Int) error {
	if err := st.SubBalance(from, v); err != nil {
		return err
	}
	st.AddBalance(to, v)
	return nil
}

// runStakingTx executes a call of the validator registry (system/staking)
// and fills the receipt; a failed call reverts its effects, value
// included, and the caller still charges the fee, as for a failed actor
// call. It returns the cycles the call used beyond the intrinsic cost.
func runStakingTx(st *state.StateDB, bc *BlockContext, value *big.Int, payload []byte, from types.Address, rc *types.Receipt, cycles uint64) uint64 {
	res, err := staking.Apply(st, staking.Call{From: from, Value: value, Payload: payload, Height: bc.Height, Cycles: cycles})
	if err != nil {
		rc.Status, rc.Error = types.ReceiptFailed, err.Error()
	}
	rc.Events = res.Events
	return res.CyclesUsed
}
