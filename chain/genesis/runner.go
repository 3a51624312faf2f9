package genesis

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Runner is the genesis.json "runner" object: the runner market's
// parameters (chain/system/runner Params; docs/runners.md "Parameters").
// A field left out takes the default; amounts are whole CBY.
type Runner struct {
	StakeFloor              *uint64 `json:"stake_floor,omitempty"`               // whole CBY (default 10,000)
	MinSelfBondBps          *uint64 `json:"min_self_bond_bps,omitempty"`         // default 1,000
	UnbondingBlocks         *uint64 `json:"unbonding_blocks,omitempty"`          // default 7,200
	MaxDelegators           *uint64 `json:"max_delegators_per_runner,omitempty"` // default 200
	MaxTranches             *uint64 `json:"max_tranches_per_delegator,omitempty"`
	ModelDeposit            *uint64 `json:"model_deposit,omitempty"` // whole CBY (default 1,000)
	Committee               *uint64 `json:"committee,omitempty"`     // default M = 5
	Threshold               *uint64 `json:"threshold,omitempty"`     // default N = 3
	MaxCommittee            *uint64 `json:"max_committee,omitempty"`
	ReexecutionCommittee    *uint64 `json:"reexecution_committee,omitempty"`
	MinTimeoutBlocks        *uint64 `json:"min_timeout_blocks,omitempty"`
	DefaultTimeoutBlocks    *uint64 `json:"default_timeout_blocks,omitempty"`
	MaxTimeoutBlocks        *uint64 `json:"max_timeout_blocks,omitempty"`
	AggregatorTimeoutBlocks *uint64 `json:"aggregator_timeout_blocks,omitempty"`
	ChallengeWindowBlocks   *uint64 `json:"challenge_window_blocks,omitempty"`
	ChallengeBond           *uint64 `json:"challenge_bond,omitempty"` // whole CBY (default 100)
	SlashBps                *uint64 `json:"slash_bps,omitempty"`
	AggregatorBonusBps      *uint64 `json:"aggregator_bonus_bps,omitempty"`
	InitialReputation       *uint64 `json:"initial_reputation,omitempty"`
	MinReputation           *uint64 `json:"min_reputation,omitempty"`
	RepSuccess              *uint64 `json:"reputation_success,omitempty"`
	RepTimeout              *uint64 `json:"reputation_timeout,omitempty"`
	RepInvalid              *uint64 `json:"reputation_invalid,omitempty"`
	RepSlashed              *uint64 `json:"reputation_slashed,omitempty"`
	RepUsage                *uint64 `json:"reputation_usage,omitempty"`
	UsageReviewBps          *uint64 `json:"usage_review_bps,omitempty"`
}

// maxWholeCBY bounds the CBY amounts a genesis may give (far above any
// supply), so that the conversion to base units cannot surprise anyone.
const maxWholeCBY = 1_000_000_000_000

// RunnerParams are the runner market parameters this genesis starts with,
// or an error naming the bad genesis.json key.
func (g *Genesis) RunnerParams() (runner.Params, error) {
	p := runner.DefaultParams()
	r := g.Runner
	if r == nil {
		return p, nil
	}
	set := func(dst *uint64, v *uint64) {
		if v != nil {
			*dst = *v
		}
	}
	for _, f := range []struct {
		dst *uint64
		v   *uint64
	}{
		{&p.MinSelfBondBps, r.MinSelfBondBps}, {&p.UnbondingBlocks, r.UnbondingBlocks}, {&p.MaxDelegators, r.MaxDelegators},
		{&p.MaxTranches, r.MaxTranches}, {&p.Committee, r.Committee}, {&p.Threshold, r.Threshold}, {&p.MaxCommittee, r.MaxCommittee},
		{&p.ReexecutionCommittee, r.ReexecutionCommittee}, {&p.MinTimeoutBlocks, r.MinTimeoutBlocks},
		{&p.DefaultTimeoutBlocks, r.DefaultTimeoutBlocks}, {&p.MaxTimeoutBlocks, r.MaxTimeoutBlocks},
		{&p.AggregatorTimeoutBlocks, r.AggregatorTimeoutBlocks}, {&p.ChallengeWindowBlocks, r.ChallengeWindowBlocks},
		{&p.SlashBps, r.SlashBps}, {&p.AggregatorBonusBps, r.AggregatorBonusBps}, {&p.InitialReputation, r.InitialReputation},
		{&p.MinReputation, r.MinReputation}, {&p.RepSuccess, r.RepSuccess}, {&p.RepTimeout, r.RepTimeout},
		{&p.RepInvalid, r.RepInvalid}, {&p.RepSlashed, r.RepSlashed}, {&p.RepUsage, r.RepUsage}, {&p.UsageReviewBps, r.UsageReviewBps},
	} {
		set(f.dst, f.v)
	}
	for _, c := range []struct {
		name string
		dst  **big.Int
		v    *uint64
	}{{"stake_floor", &p.StakeFloor, r.StakeFloor}, {"model_deposit", &p.ModelDeposit, r.ModelDeposit}, {"challenge_bond", &p.ChallengeBond, r.ChallengeBond}} {
		if c.v == nil {
			continue
		}
		if *c.v > maxWholeCBY {
			return p, fmt.Errorf("runner.%s %d: at most %d CBY", c.name, *c.v, uint64(maxWholeCBY))
		}
		*c.dst = new(big.Int).Mul(new(big.Int).SetUint64(*c.v), BaseUnitsPerCBY)
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	return p, nil
}

// runnerHashTag extends the genesis hash preimage when the runner
// parameters are not the defaults.
const runnerHashTag = "cowboy/genesis/runner/v1"

// runnerHash is the preimage extension of the runner parameters in
// effect: nil for the defaults, so a genesis that writes them out and one
// that leaves them out are one chain, and every chain from before the
// parameters keeps its hash.
func (g *Genesis) runnerHash() []byte {
	p, err := g.RunnerParams()
	if err != nil || p.Equal(runner.DefaultParams()) {
		return nil
	}
	b, err := types.Marshal(&p)
	if err != nil {
		panic(fmt.Sprintf("encode runner params: %v", err)) // plain fields cannot fail
	}
	h := crypto.Keccak256([]byte(runnerHashTag), b)
	return h[:]
}
