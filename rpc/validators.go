package rpc

import (
	"context"
	"errors"
)

// ValidatorReporter is what a node offers for cowboy_getValidators (the
// validator registry, system/staking). Optional: without it the method
// answers -32601.
type ValidatorReporter interface {
	// Validators returns an epoch's validator set (nil: the epoch of the
	// latest block) with the registry's records and parameters as of the
	// latest block. An epoch whose set is not written yet is an error
	// wrapping ErrNotFound.
	Validators(epoch *uint64) (*ValidatorsJSON, error)
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
	return out, nil
}
