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

// Fixed bounds and protocol constants; the tunable parameters are Params
// (params.go, genesis.json "runner").
const (
	MaxResultBytes   = 64 << 10 // §5.4: on-chain return data ≤ 64 KiB
	MaxInputBytes    = 32 << 10 // a job's input (prompt or request)
	MaxSchemaBytes   = 8 << 10
	MaxRunners       = 1_024 // registry index bound (this project)
	MaxCapabilities  = 32    // models or domains per runner
	MaxEndpointBytes = 256
	MaxWallMS        = 600_000 // ten minutes: the largest max_wall_ms
	// MaxWakeupsPerHeight bounds the job deadlines at one height (and so
	// the Resolve Jobs step).
	MaxWakeupsPerHeight = 512

	// Payout split of §8.4, in basis points of the job payment.
	RunnerShareBps   = 8_900
	BurnShareBps     = 1_000
	TreasuryShareBps = 100

	// MaxReputation is the top of the reputation scale (§5.2, §12.2).
	MaxReputation      = 10_000
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
