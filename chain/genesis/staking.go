package genesis

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
)

// Staking is the genesis.json "staking" object: the validator registry's
// parameters, integers, stake in whole CBY. A field left out (nil) takes
// the spec's default; tests and localnets shorten the epoch.
type Staking struct {
	EpochLength       *uint64 `json:"epoch_length,omitempty"`          // blocks (default 3,600)
	MinValidatorStake *uint64 `json:"min_validator_stake,omitempty"`   // whole CBY (default 1,000)
	UnbondingPeriod   *uint64 `json:"unbonding_period,omitempty"`      // blocks (default 604,800)
	JailPeriod        *uint64 `json:"jail_period,omitempty"`           // blocks (default 86,400)
	DowntimeWindow    *uint64 `json:"downtime_window,omitempty"`       // blocks (default 1,000)
	DoubleSignSlash   *uint64 `json:"double_sign_slash_bps,omitempty"` // basis points (default 100 = 1%)
}

// StakingParams are the registry parameters this genesis starts with.
func (g *Genesis) StakingParams() staking.Params {
	p := staking.DefaultParams()
	s := g.Staking
	if s == nil {
		return p
	}
	set := func(dst *uint64, v *uint64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.EpochLength, s.EpochLength)
	set(&p.UnbondingPeriod, s.UnbondingPeriod)
	set(&p.JailPeriod, s.JailPeriod)
	set(&p.DowntimeWindow, s.DowntimeWindow)
	set(&p.SlashBps, s.DoubleSignSlash)
	if s.MinValidatorStake != nil {
		p.MinStake = new(big.Int).Mul(new(big.Int).SetUint64(*s.MinValidatorStake), BaseUnitsPerCBY)
	}
	return p
}

// Apply writes block 0's state into st: the allocations minted, then the
// validator registry with each genesis validator's stake minted into it
// (so the total supply counts it) and EpochSet(0) = the genesis
// validators in file order with EpochSeed.
func (g *Genesis) Apply(st *state.StateDB) error {
	for _, a := range g.Alloc {
		st.Mint(a.Address, a.Balance)
	}
	vals := make([]staking.GenesisValidator, len(g.Validators))
	for i, v := range g.Validators {
		vals[i] = staking.GenesisValidator{Address: v.Address, BLSPublicKey: v.BLSPublicKey, StakeCBY: v.Stake}
	}
	if err := staking.InitGenesis(st, g.StakingParams(), vals, g.EpochSeed); err != nil {
		return fmt.Errorf("genesis: %w", err)
	}
	rp, err := g.RunnerParams()
	if err == nil {
		err = runner.InitGenesis(st, rp)
	}
	if err != nil {
		return fmt.Errorf("genesis: %w", err)
	}
	if g.Beacon != nil { // the beacon key renews by DKG every epoch (v2 §3.4)
		if err := staking.InitBeacon(st, g.Beacon.GroupKey, g.Beacon.PublicShares); err != nil {
			return fmt.Errorf("genesis beacon: %w", err)
		}
	}
	return st.Err()
}

// hashStaking is the registry parameters in the genesis hash, always the
// effective values, so leaving a default out and writing it give one
// chain.
type hashStaking struct {
	_               struct{} `cbor:",toarray"`
	EpochLength     uint64
	MinStake        []byte // big-endian base units
	UnbondingPeriod uint64
	JailPeriod      uint64
	DowntimeWindow  uint64
	SlashBps        uint64
}

func (g *Genesis) hashStaking() hashStaking {
	p := g.StakingParams()
	return hashStaking{EpochLength: p.EpochLength, MinStake: p.MinStake.Bytes(), UnbondingPeriod: p.UnbondingPeriod,
		JailPeriod: p.JailPeriod, DowntimeWindow: p.DowntimeWindow, SlashBps: p.SlashBps}
}
