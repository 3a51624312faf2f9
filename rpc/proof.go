package rpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/store/verifier"
)

// StateProof is what a node proves about one state key at one height: the
// header of that block (which carries the state root), the 54-byte store
// key, its value (nil: absent) and the store proof.
type StateProof struct {
	Header   *types.Header
	StoreKey [54]byte
	Value    []byte
	Proof    *verifier.Proof
}

// Prover is the optional backend capability behind cowboy_getProof.
type Prover interface {
	// Proof proves the account record of addr, or its storage slot when
	// slot is non-nil, at a retained height.
	Proof(addr types.Address, slot *types.Hash, height uint64) (*StateProof, error)
}

// ProofJSON is cowboy_getProof's result and the file `cowboy state proof`
// writes. Every field is checked by Verify, so a file whose any field was
// altered fails: the key is recomputed from address and key, the value is
// proven against stateRoot, stateRoot must be the header's, height the
// header's, and blockHash the header's hash. What remains to trust is the
// block hash, which a light client compares with one it trusts.
type ProofJSON struct {
	Address   Address      `json:"address"`
	Key       *Hash        `json:"key"` // storage slot, or null for the account record
	Height    Quantity     `json:"height"`
	BlockHash Hash         `json:"blockHash"`
	Header    Bytes        `json:"header"` // the block header, canonical CBOR
	StateRoot Hash         `json:"stateRoot"`
	StoreKey  Bytes        `json:"storeKey"`
	Value     *Bytes       `json:"value"` // null: the key is absent (a non-inclusion proof)
	Proof     Bytes        `json:"proof"` // store/verifier encoding
	Account   *AccountJSON `json:"account,omitempty"`
	// Timer, when set, makes this a proof of that timer's record
	// (cowboy_getTimerProof): address is zero and key null.
	Timer *Quantity `json:"timer,omitempty"`
}

// AccountJSON is the decoded account record, for people reading a proof.
type AccountJSON struct {
	Nonce   Quantity     `json:"nonce"`
	Balance *BigQuantity `json:"balance"`
}

// StoreKeyFor is the store key a proof of (addr, slot) must be about
// (docs/state-layout.md).
func StoreKeyFor(addr types.Address, slot *types.Hash) [54]byte {
	if slot == nil {
		return state.AccountKey(addr)
	}
	return state.StorageKey(addr, *slot)
}

// NewProofJSON renders a proof.
func NewProofJSON(addr types.Address, slot *types.Hash, p *StateProof) (*ProofJSON, error) {
	hdr, err := types.Marshal(p.Header)
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	enc, err := p.Proof.MarshalBinary()
	if err != nil {
		return nil, err
	}
	out := &ProofJSON{
		Address: Address(addr), Height: Quantity(p.Header.Height), BlockHash: Hash(p.Header.Hash()),
		Header: hdr, StateRoot: Hash(p.Header.StateRoot), StoreKey: p.StoreKey[:], Proof: enc,
	}
	if slot != nil {
		k := Hash(*slot)
		out.Key = &k
	}
	if p.Value != nil {
		v := Bytes(p.Value)
		out.Value = &v
		if slot == nil {
			acc, err := state.DecodeAccount(p.Value)
			if err != nil {
				return nil, err
			}
			out.Account = &AccountJSON{Nonce: Quantity(acc.Nonce), Balance: NewBigQuantity(acc.Balance)}
		}
	}
	return out, nil
}

// ErrProofInvalid wraps every reason Verify refuses a proof.
var ErrProofInvalid = errors.New("invalid proof")

// Verify checks the proof offline, as described on ProofJSON.
func (p *ProofJSON) Verify() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrProofInvalid, fmt.Sprintf(format, args...))
	}
	var h types.Header
	if err := types.Unmarshal(p.Header, &h); err != nil {
		return fail("header does not decode: %v", err)
	}
	if types.Hash(p.BlockHash) != h.Hash() {
		return fail("blockHash %s is not the header's hash %s", types.Hash(p.BlockHash), h.Hash())
	}
	if uint64(p.Height) != h.Height {
		return fail("height %d is not the header's height %d", uint64(p.Height), h.Height)
	}
	if types.Hash(p.StateRoot) != h.StateRoot {
		return fail("stateRoot is not the header's state root")
	}
	var slot *types.Hash
	if p.Key != nil {
		s := types.Hash(*p.Key)
		slot = &s
	}
	want := StoreKeyFor(types.Address(p.Address), slot)
	if p.Timer != nil {
		if slot != nil || p.Address != (Address{}) || p.Account != nil {
			return fail("a timer proof has a zero address, no key and no account")
		}
		want = timers.RecordKey(uint64(*p.Timer))
	}
	if string(p.StoreKey) != string(want[:]) {
		return fail("storeKey is not the key of this address and slot")
	}
	var value []byte
	if p.Value != nil {
		value = []byte(*p.Value)
		if value == nil {
			value = []byte{}
		}
	}
	proof, err := verifier.DecodeProof(p.Proof)
	if err != nil {
		return fail("%v", err)
	}
	if err := verifier.Verify(h.StateRoot, want[:], value, proof); err != nil {
		return fail("%v", err)
	}
	switch {
	case p.Account != nil && (slot != nil || value == nil):
		return fail("an account is shown but the proof is not of a present account record")
	case p.Account != nil:
		acc, err := state.DecodeAccount(value)
		if err != nil {
			return fail("value is not an account record: %v", err)
		}
		if uint64(p.Account.Nonce) != acc.Nonce || p.Account.Balance == nil || p.Account.Balance.Int().Cmp(acc.Balance) != 0 {
			return fail("the account shown differs from the proven value")
		}
	case slot == nil && value != nil && p.Timer == nil:
		return fail("the proven account record is not shown")
	}
	return nil
}

func getProof(_ context.Context, b Backend, p *params) (any, *Error) {
	pr, ok := b.(Prover)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_getProof is not served by this node")
	}
	addr, err := p.address(0)
	if err != nil {
		return nil, err
	}
	var slot *types.Hash
	if p.has(1) && string(p.raw[1]) != "null" {
		s, err := p.hash(1)
		if err != nil {
			return nil, err
		}
		slot = &s
	}
	height := b.LatestHeight()
	if p.has(2) {
		var ref BlockRef
		if err := p.decode(2, "height", &ref); err != nil {
			return nil, err
		}
		switch ref {
		case LatestBlock:
		case EarliestBlock:
			height = 0
		default:
			height, _ = ref.Height()
		}
	}
	sp, perr := pr.Proof(addr, slot, height)
	if errors.Is(perr, ErrNotFound) {
		return nil, newError(CodeNotFound, "%v", perr)
	}
	if perr != nil {
		return nil, internal(perr)
	}
	out, perr := NewProofJSON(addr, slot, sp)
	if perr != nil {
		return nil, internal(perr)
	}
	return out, nil
}

// Proof calls cowboy_getProof; height nil means latest.
func (c *Client) Proof(ctx context.Context, addr types.Address, slot *types.Hash, height *uint64) (*ProofJSON, error) {
	params := []any{Address(addr), nil}
	if slot != nil {
		params[1] = Hash(*slot)
	}
	if height != nil {
		params = append(params, Quantity(*height))
	}
	var out *ProofJSON
	if err := c.Call(ctx, &out, "cowboy_getProof", params...); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, ErrNotFound
	}
	return out, nil
}
