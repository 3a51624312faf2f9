package runner

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
)

// Params are the runner market's tunable parameters (§13 "Off-chain", §5.2,
// §5.3, and this project's numbers where the spec gives none). A chain
// sets them in genesis.json's "runner" object (chain/genesis); the values
// are in the state from block 0, to move under 0x09 governance later. A
// job keeps the deadlines it was posted with.
type Params struct {
	// StakeFloor is runner_stake_floor (§5.2, §13, §17.7): the least
	// effective stake, base units.
	StakeFloor *big.Int `cbor:"1,keyasint"`
	// MinSelfBondBps is min_self_bond_bps (§5.2, §13).
	MinSelfBondBps uint64 `cbor:"2,keyasint"`
	// UnbondingBlocks is unbonding_blocks (§5.2, §13).
	UnbondingBlocks uint64 `cbor:"3,keyasint"`
	// MaxDelegators is max_delegators_per_runner (§13).
	MaxDelegators uint64 `cbor:"4,keyasint"`
	// MaxTranches is max_active_tranches_per_delegator (§13).
	MaxTranches uint64 `cbor:"5,keyasint"`
	// ModelDeposit is the refundable model publication deposit (§5.1).
	ModelDeposit *big.Int `cbor:"6,keyasint"`
	// Committee and Threshold are a job's default M and N (§13: 5 and 3);
	// MaxCommittee bounds the M a job may ask for.
	Committee    uint64 `cbor:"7,keyasint"`
	Threshold    uint64 `cbor:"8,keyasint"`
	MaxCommittee uint64 `cbor:"9,keyasint"`
	// ReexecutionCommittee re-executes a challenged economic_bond job.
	ReexecutionCommittee uint64 `cbor:"10,keyasint"`
	// Timeouts: the bounds and default of a job's timeout_blocks.
	MinTimeoutBlocks     uint64 `cbor:"11,keyasint"`
	DefaultTimeoutBlocks uint64 `cbor:"12,keyasint"`
	MaxTimeoutBlocks     uint64 `cbor:"13,keyasint"`
	// AggregatorTimeoutBlocks is aggregator_timeout_blocks (§5.3).
	AggregatorTimeoutBlocks uint64 `cbor:"14,keyasint"`
	// ChallengeWindowBlocks and ChallengeBond are challenge_window and
	// challenge_bond (§13).
	ChallengeWindowBlocks uint64   `cbor:"15,keyasint"`
	ChallengeBond         *big.Int `cbor:"16,keyasint"`
	// SlashBps is what proven dishonesty burns of every stake (§8.4).
	SlashBps uint64 `cbor:"17,keyasint"`
	// AggregatorBonusBps is the honest aggregator's bonus (§5.3).
	AggregatorBonusBps uint64 `cbor:"18,keyasint"`
	// Reputation (§5.2 "health", §12.2), in 0 … MaxReputation.
	InitialReputation uint64 `cbor:"19,keyasint"`
	MinReputation     uint64 `cbor:"20,keyasint"`
	RepSuccess        uint64 `cbor:"21,keyasint"`
	RepTimeout        uint64 `cbor:"22,keyasint"`
	RepInvalid        uint64 `cbor:"23,keyasint"`
	RepSlashed        uint64 `cbor:"24,keyasint"`
	// UsageReviewBps is the anomaly threshold of "Runner Resource
	// Accounting" (">2× expected usage triggers automatic review"), in
	// basis points of the expected usage: 20,000 = 2×.
	UsageReviewBps uint64 `cbor:"25,keyasint"`
	// RepUsage is what a member whose usage went to review loses.
	RepUsage uint64 `cbor:"26,keyasint"`
}

// DefaultParams are the spec's genesis defaults (§13) and this project's
// choices (docs/decisions.md "Runner market").
func DefaultParams() Params {
	return Params{
		StakeFloor: cby(10_000), MinSelfBondBps: 1_000, UnbondingBlocks: 7_200, MaxDelegators: 200, MaxTranches: 8,
		ModelDeposit: cby(1_000), Committee: 5, Threshold: 3, MaxCommittee: 9, ReexecutionCommittee: 3,
		MinTimeoutBlocks: 6, DefaultTimeoutBlocks: 50, MaxTimeoutBlocks: 7_200, AggregatorTimeoutBlocks: 2,
		ChallengeWindowBlocks: 900, ChallengeBond: cby(100), SlashBps: 1_000, AggregatorBonusBps: 500,
		InitialReputation: 5_000, MinReputation: 1_000, RepSuccess: 100, RepTimeout: 500, RepInvalid: 1_000, RepSlashed: 3_000,
		UsageReviewBps: 20_000, RepUsage: 1_000,
	}
}

// Hard bounds the parameters may not leave: a reveal of MaxCommitteeBound
// results fits a transaction's cycles, and a deadline list stays bounded.
const (
	MaxCommitteeBound     = 15
	MaxTimeoutBound       = 100_000
	MaxChallengeWindow    = 1_000_000
	MaxUnbondingBlocks    = 10_000_000
	MaxDelegatorsBound    = 1_000
	MaxTranchesBound      = 64
	MaxUsageReviewBps     = 1_000_000
	minCommitPhaseBlocks  = 2 // the commit deadline is posted + max(2, timeout/2)
	maxReputationPenalty  = MaxReputation
	maxAggregatorTimeouts = 1_000
)

// Validate says what is wrong with p, naming the genesis.json key.
func (p Params) Validate() error {
	bpsOK := func(name string, v uint64, lo uint64) error {
		if v < lo || v > 10_000 {
			return fmt.Errorf("runner.%s %d: want %d … 10000 basis points", name, v, lo)
		}
		return nil
	}
	switch {
	case p.StakeFloor == nil || p.StakeFloor.Sign() <= 0:
		return errors.New("runner.stake_floor must be at least 1 CBY")
	case p.ModelDeposit == nil || p.ModelDeposit.Sign() < 0:
		return errors.New("runner.model_deposit must not be negative")
	case p.ChallengeBond == nil || p.ChallengeBond.Sign() <= 0:
		return errors.New("runner.challenge_bond must be at least 1 CBY")
	}
	for _, c := range []struct {
		name string
		v    uint64
		lo   uint64
	}{{"min_self_bond_bps", p.MinSelfBondBps, 1}, {"slash_bps", p.SlashBps, 0}, {"aggregator_bonus_bps", p.AggregatorBonusBps, 0}} {
		if err := bpsOK(c.name, c.v, c.lo); err != nil {
			return err
		}
	}
	rng := func(name string, v, lo, hi uint64) error {
		if v < lo || v > hi {
			return fmt.Errorf("runner.%s %d: want %d … %d", name, v, lo, hi)
		}
		return nil
	}
	checks := []error{
		rng("unbonding_blocks", p.UnbondingBlocks, 1, MaxUnbondingBlocks),
		rng("max_delegators_per_runner", p.MaxDelegators, 1, MaxDelegatorsBound),
		rng("max_tranches_per_delegator", p.MaxTranches, 1, MaxTranchesBound),
		rng("max_committee", p.MaxCommittee, 1, MaxCommitteeBound),
		rng("committee", p.Committee, 1, p.MaxCommittee),
		rng("reexecution_committee", p.ReexecutionCommittee, 1, p.MaxCommittee),
		rng("max_timeout_blocks", p.MaxTimeoutBlocks, 1, MaxTimeoutBound),
		rng("aggregator_timeout_blocks", p.AggregatorTimeoutBlocks, 1, maxAggregatorTimeouts),
		rng("challenge_window_blocks", p.ChallengeWindowBlocks, 1, MaxChallengeWindow),
		rng("min_reputation", p.MinReputation, 0, MaxReputation),
		rng("initial_reputation", p.InitialReputation, p.MinReputation, MaxReputation),
		rng("reputation_success", p.RepSuccess, 0, maxReputationPenalty),
		rng("reputation_timeout", p.RepTimeout, 0, maxReputationPenalty),
		rng("reputation_invalid", p.RepInvalid, 0, maxReputationPenalty),
		rng("reputation_slashed", p.RepSlashed, 0, maxReputationPenalty),
		rng("reputation_usage", p.RepUsage, 0, maxReputationPenalty),
		rng("usage_review_bps", p.UsageReviewBps, 10_000, MaxUsageReviewBps),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if p.Threshold*2 <= p.Committee || p.Threshold > p.Committee {
		return fmt.Errorf("runner.threshold %d must be a majority of runner.committee %d (N > M/2, N ≤ M)", p.Threshold, p.Committee)
	}
	// The shortest job must leave the aggregator its turn and the members
	// theirs: the commit phase, aggregator_timeout_blocks from the block
	// after it, and then individual reveals up to the deadline.
	need := max(minCommitPhaseBlocks, p.MinTimeoutBlocks/2) + 1 + p.AggregatorTimeoutBlocks
	if p.MinTimeoutBlocks < need {
		return fmt.Errorf("runner.min_timeout_blocks %d leaves no room for individual reveals after aggregator_timeout_blocks %d: want at least %d",
			p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks, need)
	}
	if p.DefaultTimeoutBlocks < p.MinTimeoutBlocks || p.DefaultTimeoutBlocks > p.MaxTimeoutBlocks {
		return fmt.Errorf("runner.default_timeout_blocks %d must be within min_timeout_blocks %d … max_timeout_blocks %d",
			p.DefaultTimeoutBlocks, p.MinTimeoutBlocks, p.MaxTimeoutBlocks)
	}
	return nil
}

// Equal reports whether p and q are the same parameters.
func (p Params) Equal(q Params) bool {
	return string(mustMarshal(p)) == string(mustMarshal(q))
}

var paramsKey = named(RegistryAddress, "params")

// InitGenesis writes p into block 0's state. The defaults are not written:
// a chain without the record runs on DefaultParams, so every chain that
// keeps them has the state root it had before parameters were tunable.
func InitGenesis(st *state.StateDB, p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !p.Equal(DefaultParams()) {
		st.Set(paramsKey, mustMarshal(p))
	}
	return st.Err()
}

// LoadParams reads the parameters in force.
func LoadParams(st *state.StateDB) (Params, error) {
	p, err := read[Params](st, paramsKey, "runner parameters")
	if err != nil {
		return Params{}, err
	}
	if p == nil {
		return DefaultParams(), nil
	}
	return *p, nil
}

// RequiredStake is max(stake floor, 1.5 × declared max job value) (§5.2).
func (p Params) RequiredStake(maxJobValue *big.Int) *big.Int {
	x := new(big.Int).Mul(maxJobValue, big.NewInt(3))
	x.Quo(x, big.NewInt(2))
	if x.Cmp(p.StakeFloor) < 0 {
		return new(big.Int).Set(p.StakeFloor)
	}
	return x
}
