package staking

import (
	"errors"
	"fmt"
	"github.com/cowboy-chain/cowboy/crypto/vrf"
	"math/big"
	"slices"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// BlockInfo is what EndBlock needs to know of the block just executed.
type BlockInfo struct {
	Height uint64
	// Beacon is R_n, the proposer's VRF output for this block; the last
	// block's beacon of an epoch seeds the next epoch.
	Beacon [32]byte
	// Signers are the validators whose votes are in this block's justify
	// QC (they certified its parent); empty when unknown (the devnet).
	Signers  []types.Address
	Proposer types.Address
}

// Epoch is the epoch of height h: h / E.
func (p Params) Epoch(h uint64) uint64 { return h / p.EpochLength }

// LastOfEpoch is the height of epoch k's last block, (k+1)·E − 1.
func (p Params) LastOfEpoch(k uint64) uint64 { return (k+1)*p.EpochLength - 1 }

// EndBlock runs the registry's per-block rules after a block's
// transactions: downtime counting and jailing, and at the last block of
// an epoch the rewards and the next epoch's set. A state without a
// registry (a chain started before it existed) is left alone.
func EndBlock(st *state.StateDB, b BlockInfo) error {
	p, err := ReadParams(st)
	if errors.Is(err, ErrNotInitialized) {
		return nil
	}
	if err != nil {
		return err
	}
	k := p.Epoch(b.Height)
	set, err := sharedEpochSet(st, k) // read-only below
	if err != nil {
		return fmt.Errorf("end of block %d: %w", b.Height, err)
	}
	if err := downtime(st, p, set, b); err != nil {
		return fmt.Errorf("end of block %d: downtime: %w", b.Height, err)
	}
	if b.Height == p.LastOfEpoch(k) {
		if err := reward(st, p, set, b.Height); err != nil {
			return fmt.Errorf("end of epoch %d: rewards: %w", k, err)
		}
		if err := nextSet(st, p, set, b); err != nil {
			return fmt.Errorf("end of epoch %d: %w", k, err)
		}
	}
	return st.Err()
}

// downtime is "Extended downtime (>50% of votes over 1000 blocks): Jail
// (no slash)". A member of the current set misses a vote when the block's
// QC names signers and it is not among them; every downtime_window blocks
// those with misses·2 > window are jailed and every count restarts.
func downtime(st *state.StateDB, p Params, set *EpochSet, b BlockInfo) error {
	misses, err := ReadMisses(st)
	if err != nil {
		return err
	}
	changed := false
	if len(b.Signers) > 0 {
		signed := make(map[types.Address]bool, len(b.Signers))
		for _, a := range b.Signers {
			signed[a] = true
		}
		for _, m := range set.Members { // set order; misses stay sorted by address
			if signed[m.Address] {
				continue
			}
			i, found := slices.BinarySearchFunc(misses, m.Address, func(x Miss, a types.Address) int { return cmpAddr(x.Address, a) })
			if !found {
				misses = slices.Insert(misses, i, Miss{Address: m.Address})
			}
			misses[i].Count++
			changed = true
		}
	}
	if b.Height%p.DowntimeWindow == 0 {
		for _, m := range misses {
			if m.Count*2 <= p.DowntimeWindow {
				continue
			}
			v, err := ReadValidator(st, m.Address)
			if err != nil {
				return err
			}
			if v == nil || v.Jailed {
				continue // withdrew, or jailed already: nothing to add
			}
			jail(v, b.Height, p)
			if err := writeValidator(st, v); err != nil {
				return err
			}
		}
		return writeMisses(st, nil)
	}
	if changed {
		return writeMisses(st, misses)
	}
	return nil
}

// eligible is who enters the next set: registered and active or pending,
// not jailed, not exiting, stake at least the minimum.
func eligible(v *Validator, p Params) bool {
	return !v.Jailed && !v.Exiting && v.Stake.Cmp(p.MinStake) >= 0
}

// nextSet computes EpochSet(k+1) at the last block h of epoch k (v2
// "Validator Set": "Validator set updates ... occur at epoch boundaries"):
// the eligible validators ordered by address, seeded by vrf.NextEpochSeed. Exits
// take effect: unbonding runs to h+1+unbonding_period. If nobody is
// eligible the chain keeps EpochSet(k)'s members, since a chain without
// validators cannot make blocks (docs/decisions.md).
func nextSet(st *state.StateDB, p Params, cur *EpochSet, b BlockInfo) error {
	vals, err := Validators(st) // ordered by address
	if err != nil {
		return err
	}
	next := &EpochSet{Epoch: cur.Epoch + 1, Seed: vrf.NextEpochSeed(cur.Seed, b.Beacon), Members: []Member{}}
	// A chain that runs the beacon DKG fixed the set when DKG(k+1) opened
	// (dkg.go): the members hold its shares.
	frozen, err := frozenMembers(st, next.Epoch)
	if err != nil {
		return err
	}
	in := make(map[types.Address]bool, len(frozen))
	for _, m := range frozen {
		in[m.Address] = true
	}
	for _, v := range vals {
		active := eligible(v, p)
		if frozen != nil {
			active = in[v.Address]
		}
		dirty := active != v.Active
		if v.Exiting && v.UnbondUntil == 0 && !active {
			v.UnbondUntil = b.Height + 1 + p.UnbondingPeriod
			dirty = true
		}
		v.Active = active
		if active {
			next.Members = append(next.Members, Member{Address: v.Address, BLSPublicKey: v.BLSPublicKey, Stake: new(big.Int).Set(v.Stake)})
		}
		if dirty {
			if err := writeValidator(st, v); err != nil {
				return err
			}
		}
	}
	if frozen != nil {
		next.Members = frozen
	}
	if len(next.Members) == 0 {
		next.Members = cur.Members // written, never modified: cur may be shared
	}
	if err := writeEpochSet(st, next); err != nil {
		return err
	}
	return finishDKG(st, p, cur, next)
}

// RewardPerBlock is §8.2's inflation for one block at height h:
// floor(genesis_supply × rate_bps(year) / 10,000 / 31,536,000), year =
// h / 31,536,000, rates 8%, 6%, 4%, 3%, then 2%.
func RewardPerBlock(genesisSupply *big.Int, h uint64) *big.Int {
	year := h / BlocksPerYear
	rate := uint64(FloorInflationBps)
	if year < uint64(len(InflationBps)) {
		rate = InflationBps[year]
	}
	r := new(big.Int).Mul(genesisSupply, new(big.Int).SetUint64(rate))
	return r.Quo(r, big.NewInt(10_000*BlocksPerYear))
}

// EpochReward is the inflation of epoch k, whose last block is last: the
// per-block reward summed over the epoch's executed blocks (block 0 is
// genesis, so epoch 0 has E − 1), each at its own year's rate.
func EpochReward(genesisSupply *big.Int, p Params, k uint64) *big.Int {
	first, last := max(k*p.EpochLength, 1), p.LastOfEpoch(k)
	total := new(big.Int)
	for first <= last {
		// blocks first … end share a year
		end := min(last, (first/BlocksPerYear+1)*BlocksPerYear-1)
		r := RewardPerBlock(genesisSupply, first)
		total.Add(total, r.Mul(r, new(big.Int).SetUint64(end-first+1)))
		first = end + 1
	}
	return total
}

// reward pays epoch k's inflation to EpochSet(k)'s members pro rata by
// their stake in the set ("Block rewards (from inflation) are distributed
// proportionally to stake"), minted into their liquid balances. Each share
// is floored; the remainder is never minted.
func reward(st *state.StateDB, p Params, set *EpochSet, h uint64) error {
	if len(set.Members) == 0 {
		return nil
	}
	gs, err := ReadGenesisSupply(st)
	if err != nil {
		return err
	}
	total := EpochReward(gs, p, set.Epoch)
	for _, s := range Shares(total, set.Members) {
		st.Mint(s.Address, s.Amount)
	}
	return nil
}

// Share is one member's part of an epoch's reward.
type Share struct {
	Address types.Address
	Amount  *big.Int
}

// Shares splits total among members pro rata by stake, each share
// floor(total × stake / Σstake), in member order; their sum never
// exceeds total.
func Shares(total *big.Int, members []Member) []Share {
	sum := new(big.Int)
	for _, m := range members {
		sum.Add(sum, m.Stake)
	}
	if sum.Sign() == 0 {
		return nil
	}
	out := make([]Share, 0, len(members))
	for _, m := range members {
		a := new(big.Int).Mul(total, m.Stake)
		out = append(out, Share{Address: m.Address, Amount: a.Quo(a, sum)})
	}
	return out
}
