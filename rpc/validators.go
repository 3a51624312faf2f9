package rpc

import (
	"context"
	"errors"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// ValidatorReporter is what a node offers for cowboy_getValidators (the
// validator registry, system/staking). Optional: without it the method
// answers -32601.
type ValidatorReporter interface {
	// Validators returns an epoch's validator set (nil: the epoch of the
	// latest block) with the registry's records and parameters as of the
	// latest block. An epoch whose set is not written yet is an error
	// wrapping ErrNotFound.
	Validators(epoch *uint64) (*ValidatorSet, error)
}

// ValidatorSet is what a node reads for cowboy_getValidators, as values;
// NewValidatorsJSON renders it (the node returns domain types, the RPC
// layer owns their JSON).
type ValidatorSet struct {
	Height     uint64 // the latest block, whose state was read
	Set        *staking.EpochSet
	Validators []*staking.Validator // the registry, ordered by address
	Misses     []staking.Miss       // votes missed in the current downtime window
	Params     staking.Params
	// Producer is the devnet's block producer; nil on a network.
	Producer *types.Address
}

// NewValidatorsJSON renders v.
func NewValidatorsJSON(v *ValidatorSet) *ValidatorsJSON {
	missed := make(map[types.Address]uint64, len(v.Misses))
	for _, m := range v.Misses {
		missed[m.Address] = m.Count
	}
	p, set := v.Params, v.Set
	out := &ValidatorsJSON{Height: Quantity(v.Height), Epoch: Quantity(set.Epoch), Seed: Hash(set.Seed),
		Members: make([]MemberJSON, len(set.Members)), Validators: make([]ValidatorJSON, len(v.Validators)),
		Params: StakingParamsJSON{EpochLength: Quantity(p.EpochLength), MinValidatorStake: NewBigQuantity(p.MinStake),
			UnbondingPeriod: Quantity(p.UnbondingPeriod), JailPeriod: Quantity(p.JailPeriod),
			DowntimeWindow: Quantity(p.DowntimeWindow), DoubleSignSlashBps: Quantity(p.SlashBps)}}
	for i, m := range set.Members {
		out.Members[i] = MemberJSON{Index: Quantity(i), Address: Address(m.Address), BLSPublicKey: Bytes(m.BLSPublicKey),
			Stake: NewBigQuantity(m.Stake), Weight: Quantity(m.Weight)}
	}
	for i, val := range v.Validators {
		out.Validators[i] = ValidatorJSON{Address: Address(val.Address), Status: val.Status(), BLSPublicKey: Bytes(val.BLSPublicKey),
			Stake: NewBigQuantity(val.Stake), JailUntil: Quantity(val.JailUntil), UnbondUntil: Quantity(val.UnbondUntil),
			Missed: Quantity(missed[val.Address]), RegisteredAt: Quantity(val.Registered)}
	}
	if v.Producer != nil {
		a := Address(*v.Producer)
		out.Producer = &a
	}
	return out
}

// ValidatorsJSON is cowboy_getValidators's result.
type ValidatorsJSON struct {
	Height  Quantity     `json:"height"` // the latest block, whose state is read
	Epoch   Quantity     `json:"epoch"`
	Seed    Hash         `json:"seed"`
	Members []MemberJSON `json:"members"` // validator index order
	// Validators are the registry's records, ordered by address.
	Validators []ValidatorJSON   `json:"validators"`
	Params     StakingParamsJSON `json:"params"`
	// Producer is, on a devnet, the one key that makes every block: a
	// devnet runs no consensus, so it is in no validator set (issue 16:
	// "0 validators" while blocks appeared read as a broken chain).
	// Absent on a network.
	Producer *Address `json:"producer,omitempty"`
}

// MemberJSON is one validator of an epoch's set.
type MemberJSON struct {
	Index        Quantity     `json:"index"`
	Address      Address      `json:"address"`
	BLSPublicKey Bytes        `json:"blsPublicKey"`
	Stake        *BigQuantity `json:"stake"`  // base units
	Weight       Quantity     `json:"weight"` // whole CBY
}

// ValidatorJSON is one registry record.
type ValidatorJSON struct {
	Address      Address      `json:"address"`
	Status       string       `json:"status"` // pending, active, exiting or jailed
	BLSPublicKey Bytes        `json:"blsPublicKey"`
	Stake        *BigQuantity `json:"stake"`
	JailUntil    Quantity     `json:"jailUntil"`   // 0 if never jailed
	UnbondUntil  Quantity     `json:"unbondUntil"` // 0 until an exit takes effect
	Missed       Quantity     `json:"missed"`      // votes missed in the current downtime window
	RegisteredAt Quantity     `json:"registeredAt"`
}

// StakingParamsJSON are the registry's genesis parameters.
type StakingParamsJSON struct {
	EpochLength        Quantity     `json:"epochLength"`
	MinValidatorStake  *BigQuantity `json:"minValidatorStake"`
	UnbondingPeriod    Quantity     `json:"unbondingPeriod"`
	JailPeriod         Quantity     `json:"jailPeriod"`
	DowntimeWindow     Quantity     `json:"downtimeWindow"`
	DoubleSignSlashBps Quantity     `json:"doubleSignSlashBps"`
}

func getValidators(_ context.Context, b Backend, p *params) (any, *Error) {
	vr, ok := b.(ValidatorReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_getValidators is not served by this node")
	}
	var epoch *uint64
	if p.has(0) {
		var q Quantity
		if perr := p.decode(0, "epoch", &q); perr != nil {
			return nil, perr
		}
		e := uint64(q)
		epoch = &e
	}
	out, err := vr.Validators(epoch)
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeInvalidParams, "%v", err)
	}
	if err != nil {
		return nil, internal(err)
	}
	return NewValidatorsJSON(out), nil
}
