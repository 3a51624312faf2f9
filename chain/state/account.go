package state

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Account is an external account or an actor. Encoded in the store as the
// CBOR array [nonce, balance, code_hash|null].
type Account struct {
	_        struct{} `cbor:",toarray"`
	Nonce    uint64
	Balance  *big.Int    // base units
	CodeHash *types.Hash // nil for external accounts
}

func (a *Account) copy() *Account {
	c := &Account{Nonce: a.Nonce, Balance: new(big.Int).Set(a.Balance)}
	if a.CodeHash != nil {
		h := *a.CodeHash
		c.CodeHash = &h
	}
	return c
}

// empty accounts are deleted from the store rather than stored as zeros.
func (a *Account) empty() bool {
	return a.Nonce == 0 && a.Balance.Sign() == 0 && a.CodeHash == nil
}

// encodeAccount writes [nonce, balance, code_hash|null] by hand: the same
// canonical bytes as types.Marshal (TestAccountCodecMatchesReflection), a
// few times faster, and thousands are written per block.
func encodeAccount(a *Account) ([]byte, error) {
	b := make([]byte, 0, 64)
	b = types.AppendArrayHeader(b, 3)
	b = types.AppendUint(b, a.Nonce)
	b = types.AppendBigUint(b, a.Balance)
	if a.CodeHash == nil {
		b = types.AppendNull(b)
	} else {
		b = types.AppendBytes(b, a.CodeHash[:])
	}
	return b, nil
}

// DecodeAccount parses an account record from untrusted bytes (a proof),
// insisting on the canonical encoding.
func DecodeAccount(b []byte) (*Account, error) { return decodeAccount(b) }

// decodeAccount is strict: it accepts only what encodeAccount writes.
func decodeAccount(b []byte) (*Account, error) {
	r := types.NewCBORReader(b)
	n, err := r.Array()
	if err != nil || n != 3 {
		return nil, fmt.Errorf("decode account: want a 3-item array (%v)", err)
	}
	a := &Account{}
	if a.Nonce, err = r.Uint(); err != nil {
		return nil, fmt.Errorf("decode account nonce: %w", err)
	}
	if a.Balance, err = r.BigUint(); err != nil {
		return nil, fmt.Errorf("decode account balance: %w", err)
	}
	if !r.Null() {
		var h types.Hash
		if err := r.Fixed(h[:]); err != nil {
			return nil, fmt.Errorf("decode account code hash: %w", err)
		}
		a.CodeHash = &h
	}
	if err := r.End(); err != nil {
		return nil, fmt.Errorf("decode account: %w", err)
	}
	return a, nil
}
