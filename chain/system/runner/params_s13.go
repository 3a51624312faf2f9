package runner

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// System actor addresses (§9; spec README "system actor addresses").
var (
	RegistryAddress   = types.Address{19: 0x01}
	DispatcherAddress = types.Address{19: 0x02}
	VerifierAddress   = types.Address{19: 0x03}
	TreasuryAddress   = types.Address{19: 0x08}
)

// Handles reports whether a transaction to a is run by this package. The
// treasury takes no transactions: its balance only grows by job payouts.
func Handles(a types.Address) bool {
	return a == RegistryAddress || a == DispatcherAddress || a == VerifierAddress
}

// IsSystem reports whether a is one of this package's addresses, whose
// balances only this package may move (an actor's send or transfer there
// is refused).
func IsSystem(a types.Address) bool { return Handles(a) || a == TreasuryAddress }

// CBY is one coin in base units.
var CBY = big.NewInt(1e18)

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), CBY) }

// Off-chain parameters of §13 ("Off-chain") and §5.2, and this project's
// choices where the spec gives no number (docs/decisions.md "Runner
// market"), to move under 0x09 governance later.
var (
	// StakeFloor is runner_stake_floor, 10,000 CBY (§5.2, §13, §17.7).
	StakeFloor = cby(10_000)
	// ModelDeposit is the refundable model publication deposit (§5.1).
	ModelDeposit = cby(1_000)
	// ChallengeBond is challenge_bond, 100 CBY (§13).
	ChallengeBond = cby(100)
)

const (
	// MinSelfBondBps is min_self_bond_bps: the self-bond must be at least
	// 10% of the effective stake (§5.2, §13).
	MinSelfBondBps = 1_000
	// UnbondingBlocks is unbonding_blocks (~24 h at 1 s blocks, §13).
	UnbondingBlocks = 7_200
	// MaxDelegatorsPerRunner is max_delegators_per_runner (§13).
	MaxDelegatorsPerRunner = 200
	// MaxTranches is max_active_tranches_per_delegator (§13): unbonding
	// tranches one delegator may have at one runner.
	MaxTranches = 8
	// DefaultCommittee and DefaultThreshold are committee M = 5 and
	// threshold N = 3 (§13).
	DefaultCommittee = 5
	DefaultThreshold = 3
	MaxCommittee     = 9
	MaxResultBytes   = 64 << 10 // §5.4: on-chain return data ≤ 64 KiB
	MaxInputBytes    = 32 << 10 // a job's input (prompt or request)
	MaxSchemaBytes   = 8 << 10
	MaxRunners       = 1_024 // registry index bound (this project)
	MaxCapabilities  = 32    // models or domains per runner
	MaxEndpointBytes = 256
	MaxWallMS        = 600_000 // ten minutes: the largest max_wall_ms
	// ChallengeWindowBlocks is challenge_window, 15 minutes of 1 s blocks (§13).
	ChallengeWindowBlocks = 900
	// ReexecutionCommittee is the committee that re-executes a challenged job.
	ReexecutionCommittee = 3
	MinTimeoutBlocks     = 6
	MaxTimeoutBlocks     = 7_200
	MaxWakeupsPerHeight  = 512 // job deadlines at one height (bounds the Resolve Jobs step)

	// AggregatorTimeoutBlocks is aggregator_timeout_blocks (§5.3): after
	// the reveal phase opens, only the aggregator may reveal for this
	// many blocks; then members may reveal their own results.
	AggregatorTimeoutBlocks = 2

	// Payout split of §8.4, in basis points of the job payment.
	RunnerShareBps   = 8_900
	BurnShareBps     = 1_000
	TreasuryShareBps = 100
	// AggregatorBonusBps is the aggregator's bonus for an honest
	// aggregated reveal (§5.3), taken from the runners' 89%.
	AggregatorBonusBps = 500
	// SlashBps is what proven dishonesty costs: 10% of the self-bond and
	// of every delegation and unbonding tranche, all burned (§8.4).
	SlashBps = 1_000

	// Reputation (§5.2 "health and reputation", §12.2) in 0…MaxReputation.
	InitialReputation  = 5_000
	MaxReputation      = 10_000
	MinReputation      = 1_000 // below it a runner is not sampled
	RepSuccess         = 100
	RepTimeout         = 500   // no commit or no reveal: reputation only (§12.2)
	RepInvalid         = 1_000 // schema violation, garbage, outvoted in a subjective mode
	RepSlashed         = 3_000
	DefaultSimilarity  = 7_000 // semantic_similarity threshold, basis points
	MaxSimilarityInput = 16 << 10

	// Cycles charged by a call beyond the transaction's intrinsic cost.
	CallCycles        = 2_000
	SampleCycles      = 200    // per registered runner read when sampling
	RevealCycles      = 10_000 // per revealed entry: a signature check (§17.3 verify_signature)
	SettleCycles      = 5_000
	CallbackCycles    = 1_000_000 // a continuation's cycle limit
	CallbackCells     = 100_000   // a continuation's cell limit (a 64 KiB result fits)
	CallbackIntrinsic = 10_000    // §17.2 ActorMessage base
)
