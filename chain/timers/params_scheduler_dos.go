package timers

import "github.com/cowboy-chain/cowboy/chain/types"

// Consensus constants of the scheduler: scheduler-dos-protection.txt
// ("Protocol-Level Limits", "Economic Prioritization", "Hierarchical
// Queues"), v2 "Native Timers and the Actor Scheduler" (attack table),
// §17.2, §17.9 and the project's decisions in spec/README.md. All are
// governance-tunable in the spec; here they are fixed until governance
// exists. Amounts are base units (10^18 per CBY).
const (
	// RingSlots is Tier 1: one slot per block (spec/README.md: 256).
	RingSlots = 256
	// EpochBlocks is the width of a Tier 2 bucket (spec/README.md: 256).
	EpochBlocks = 256
	// EpochBucketsAhead is how many buckets Tier 2 holds beyond the two
	// epochs the ring covers (spec/README.md: 256 ahead).
	EpochBucketsAhead = 256

	// PageIDs is how many timer ids one list page holds: lists are paged
	// so an enqueue rewrites at most one page of 8×64 bytes.
	PageIDs = 64

	// TimerLaneCycles is the timer lane's cycle budget per block (§17.9,
	// spec/README.md: 2,000,000): the hard bound on timer work in a block.
	TimerLaneCycles uint64 = 2_000_000
	// TimerCallCycles is the cycle limit of one timer execution: a timer
	// runs only while the lane has at least this much left, so a handler
	// never fails for lack of lane budget (the limit is reserved, the use
	// is charged). Handler cycles also count toward the per-actor
	// per-block limit of §12.1.
	TimerCallCycles uint64 = 200_000
	// TimerCallCells is the cell limit of one timer execution.
	TimerCallCells uint64 = 20_000
	// TimerIntrinsicCycles is what a timer execution costs before its
	// handler runs: the §17.2 ActorMessage base (a firing timer is a
	// message to its actor). Its intrinsic cells are the data's size.
	TimerIntrinsicCycles uint64 = 10_000
	// GBACallCycles caps one read-only get_gas_bid call (CIP-1). The
	// timer's owner pays the cycles and cells the call used at the
	// block's basefees (burned, no tip), whether or not the timer then
	// runs; an owner that cannot cover the cap at the basefees gets no
	// call and bids the default. A GBA that needs more than the cap bids
	// the default (having paid for the cap). GBA calls are timer-lane
	// work: their cycles come out of TimerLaneCycles and count as the
	// block's usage; a call is made only while the lane holds its cap
	// and one run (GBACallCycles + TimerCallCycles), so a block makes at
	// most 36 calls at the cap; a candidate the lane could not ask rolls
	// over unasked (docs/decisions.md "Timers: who pays for a GBA call").
	GBACallCycles uint64 = 50_000
	// GBACallCells caps the cells of a get_gas_bid call (it writes
	// nothing; this bounds what it may allocate and return).
	GBACallCells uint64 = 4_096
	// MaxDueScan bounds the candidates one block looks at (and the GBA
	// calls it makes): the backlog of rolled-over timers first, oldest
	// first, then this height's slot. Beyond it timers wait their turn.
	MaxDueScan = 512

	// BaseDeposit is base_deposit of the progressive deposit
	// deposit(n) = base_deposit × (1 + floor(n / 100)) (v2 attack table),
	// held while the timer is pending and refunded when it runs out, is
	// cancelled or is dropped.
	BaseDeposit = 10_000_000_000_000_000 // 0.01 CBY
	// DepositStep is the 100 of floor(n / 100).
	DepositStep = 100
	// SurchargeBaseCost is base_cost of the same-block surcharge
	// surcharge(k) = base_cost × 2^max(0, k − 16) (v2 attack table),
	// burned, never refunded ("DoS then cancel for refund").
	SurchargeBaseCost = 10_000_000_000_000 // 0.00001 CBY
	// SurchargeFreeTimers is the 16 of max(0, k − 16).
	SurchargeFreeTimers = 16
	// MaxPendingPerActor is the per-actor cap of pending timers (v2
	// overview: "per-actor timer caps").
	MaxPendingPerActor = 1024

	// TimerBasefeeMin is the floor, and the genesis value, of the dynamic
	// timer basefee: a per-timer price burned at scheduling ("Timer
	// basefee rises automatically as queue depth exceeds target").
	TimerBasefeeMin = 1_000_000_000_000 // 0.000001 CBY
	// TargetQueueDepth is the pending-timer count the timer basefee aims
	// at; above it the basefee rises by up to 1/8 per block, below it it
	// falls, in the EIP-1559 form of §4.2 (α = 8, δ = 1/8).
	TargetQueueDepth = 1_000_000

	// StarvationBoostPerBlock and StarvationBoostMaxBlocks define the
	// anti-starvation boost ("Outbid everyone perpetually"): a timer
	// deferred d blocks is ordered as if its effective tip were higher by
	// min(d, 16) base units per cycle. It changes order, never the price
	// paid, and is bounded, so any bid more than 16 above wins regardless.
	StarvationBoostPerBlock  = 1
	StarvationBoostMaxBlocks = 16

	// MaxFundsDeferrals is how many consecutive blocks a timer whose owner
	// cannot pay (or whose bid is below the basefee) is deferred before
	// it is dropped with its deposit refunded.
	MaxFundsDeferrals = 64
	// DeferralHistory is how many recent deferrals a timer record keeps
	// (the count is kept in full).
	DeferralHistory = 8
	// MaxDataBytes bounds a timer's data (canonical CBOR).
	MaxDataBytes = 4096
	// MaxHandlerLen bounds a handler name.
	MaxHandlerLen = 64
)

// EscrowAddress holds the deposits of pending timers, so that balances
// still add up to the total supply (docs/decisions.md "Timers"): 0x…0d,
// the first free system address after the validator registry.
var EscrowAddress = types.Address{19: 0x0d}
