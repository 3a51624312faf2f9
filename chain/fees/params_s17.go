package fees

// Consensus constants of technical-spec-v2 §4.3, §13, §17.2 and §17.8.
// (§17 is authoritative for every fee number, spec/README.md.)
const (
	// TargetCycles is T_c, cycles per block (§4.3, §17.8).
	TargetCycles uint64 = 10_000_000
	// CapCycles is the hard per-block cycle cap, elasticity 2 (§4.2, §17.8).
	CapCycles uint64 = 20_000_000
	// TargetCells is T_b, cells (bytes) per block (§4.3, §17.8).
	TargetCells uint64 = 500_000
	// CapCells is the hard per-block cell cap (§17.8).
	CapCells uint64 = 1_000_000

	// Alpha is the smoothing denominator α = 8 of §4.2 / §17.8.
	Alpha uint64 = 8
	// DeltaDen encodes δ = 0.125 = 1/DeltaDen, the largest change per block.
	DeltaDen uint64 = 8
	// MinBasefee is the floor of both basefees (§4.2: max(1, …)); it is
	// also the genesis basefee (spec/README.md).
	MinBasefee uint64 = 1

	// MaxTxCycles and MaxTxCells are the largest limits a transaction may
	// declare (§2.2(a), §13.1): a transaction must fit in one block.
	MaxTxCycles = CapCycles
	MaxTxCells  = CapCells

	// TransferCycles is the intrinsic cost of a transfer (§17.2).
	TransferCycles uint64 = 10_000
	// ActorMessageCycles is the intrinsic cost of calling an actor (§17.2).
	ActorMessageCycles uint64 = 10_000
	// DeployCycles is the intrinsic cost of deploying an actor (§17.2);
	// its cells are DeployCellsBase + the deploy payload's size (Intrinsic
	// says how §17.2's "100/byte + code_size" is read).
	DeployCycles    uint64 = 50_000
	DeployCellsBase uint64 = 100
	// CalldataCellsPerByte: calldata costs one cell per byte (§17.4).
	CalldataCellsPerByte uint64 = 1
)

// Lane is the execution lane a transaction is tagged with (§6.3, §17.9).
type Lane uint8

// Lanes in priority order. The system and user lanes carry transactions
// (execution.LaneOf), the timer lane the Deliver Timers step; the runner
// lane waits for the runner market.
const (
	LaneSystem Lane = iota
	LaneTimer
	LaneRunner
	LaneUser
)

// LaneCycleBudget is each lane's reserved cycle capacity per block (§17.9).
// Unused reserved capacity spills to the user lane once the lane has been
// served; the user lane cannot borrow from reserved lanes before that. The
// reservations sit inside the block cap, so the user lane's own share is
// the cap less them (15,000,000), not the table's 5,000,000 below
// (execution's laneMeter; docs/decisions.md "Lanes").
var LaneCycleBudget = [...]uint64{
	LaneSystem: 500_000,
	LaneTimer:  2_000_000,
	LaneRunner: 2_500_000,
	LaneUser:   5_000_000,
}

// String names the lane as the spec does.
func (l Lane) String() string {
	switch l {
	case LaneSystem:
		return "system"
	case LaneTimer:
		return "timer"
	case LaneRunner:
		return "runner"
	case LaneUser:
		return "user"
	}
	return "unknown"
}
