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

func encodeAccount(a *Account) ([]byte, error) { return types.Marshal(a) }

// DecodeAccount parses an account record from untrusted bytes (a proof),
// insisting on the canonical encoding.
func DecodeAccount(b []byte) (*Account, error) {
	a := new(Account)
	if err := types.Unmarshal(b, a); err != nil {
		return nil, fmt.Errorf("decode account: %w", err)
	}
	if a.Balance == nil {
		a.Balance = new(big.Int)
	}
	return a, nil
}

func decodeAccount(b []byte) (*Account, error) {
	a := new(Account)
	if err := types.UnmarshalStored(b, a); err != nil {
		return nil, fmt.Errorf("decode account: %w", err)
	}
	if a.Balance == nil {
		a.Balance = new(big.Int)
	}
	return a, nil
}
