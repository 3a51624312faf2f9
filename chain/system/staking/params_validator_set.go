package staking

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Consensus-critical constants of the validator registry, from technical
// spec v2 "Validator Set", "Slashing", the parameter line of §13
// ("epoch = 3600 blocks (~1 h); block_time = 1 s; unbonding_period =
// 7 days; jail_period = 24 h; double_sign_slash = 1%"), §8.2 (inflation)
// and CIP-3 (BLS verify cost). The genesis file may override the first six
// (chain/genesis "staking"); they are then read from the state.
const (
	// DefaultEpochLength: "Epochs: 3600 blocks (~1 hour)".
	DefaultEpochLength = 3600
	// DefaultMinStakeCBY: minimum_validator_stake is governance-tunable and
	// left open by the spec; 1,000 CBY (docs/decisions.md "Validator
	// registry").
	DefaultMinStakeCBY = 1000
	// DefaultUnbondingPeriod: 7 days at 1 s blocks = 604,800 blocks.
	DefaultUnbondingPeriod = 7 * 24 * 3600
	// DefaultJailPeriod: 24 h at 1 s blocks = 86,400 blocks.
	DefaultJailPeriod = 24 * 3600
	// DefaultDowntimeWindow: "Extended downtime (>50% of votes over 1000
	// blocks)": jail, no slash.
	DefaultDowntimeWindow = 1000
	// DefaultSlashBps: double_sign_slash = 1% = 100 basis points.
	DefaultSlashBps = 100

	// CallCycles is what every registry call costs beyond the transaction's
	// intrinsic cycles: a handful of record reads (10 each) and writes (200
	// each) at v2 §17.3 prices, rounded up to 1,000.
	CallCycles = 1_000
	// BLSVerifyCycles is the cost of each BLS signature or possession
	// check: CIP-3 "BLS verify 8,000" (spec/README.md: CIP-3 values stand
	// where §17.3 is silent).
	BLSVerifyCycles = 8_000

	// BlocksPerYear is §8.2's year at 1 s blocks: 365 × 86,400.
	BlocksPerYear = 31_536_000
)

// InflationBps is §8.2's gross inflation per year, in basis points of the
// genesis supply: 8%, 6%, 4%, 3% in years 1–4, then the 2% floor
// (spec/README.md "inflation").
var InflationBps = []uint64{800, 600, 400, 300}

// FloorInflationBps is the steady-state rate from year 5 on.
const FloorInflationBps = 200

// BaseUnitsPerCBY is 10^18 (spec/README.md "base unit"); a member's
// consensus weight is its stake in whole CBY.
var BaseUnitsPerCBY = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)

// Address is the validator registry's system actor address. v2 §9 assigns
// 0x01–0x0B and none of them holds validator stake, so the registry takes
// the next one, 0x…0c (docs/decisions.md "Validator registry").
var Address = types.Address{19: 0x0c}

// DefaultParams are the spec's values.
func DefaultParams() Params {
	return Params{
		EpochLength: DefaultEpochLength, UnbondingPeriod: DefaultUnbondingPeriod, JailPeriod: DefaultJailPeriod,
		DowntimeWindow: DefaultDowntimeWindow, SlashBps: DefaultSlashBps,
		MinStake: new(big.Int).Mul(big.NewInt(DefaultMinStakeCBY), BaseUnitsPerCBY),
	}
}
