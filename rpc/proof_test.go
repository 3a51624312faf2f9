package rpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/store"
)

// Proof makes the fake chain a Prover: its accounts are committed to a
// real store, and the proof comes with a header carrying that root.
func (b *fakeBackend) Proof(addr types.Address, slot *types.Hash, height uint64) (*StateProof, error) {
	if height >= uint64(len(b.blocks)) {
		return nil, fmt.Errorf("block %d: %w", height, ErrNotFound)
	}
	dir, err := os.MkdirTemp("", "fakeproof")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(dir, store.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var ws []store.Write
	for a, bal := range b.balances {
		enc, _ := types.Marshal(&state.Account{Nonce: b.nonces[a], Balance: bal})
		ws = append(ws, store.Write{Key: state.AccountKey(a), Value: enc})
	}
	roots, err := s.Commit(0, &store.Batch{State: ws})
	if err != nil {
		return nil, err
	}
	key := StoreKeyFor(addr, slot)
	p, v, err := s.ProveValue(store.StateDB, key, 0)
	if err != nil {
		return nil, err
	}
	h := *b.blocks[height].Header
	h.StateRoot = roots.State
	return &StateProof{Header: &h, StoreKey: key, Value: v, Proof: p}, nil
}

func TestProofVerifyAndTamper(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	c := Dial(srv.URL)
	for _, who := range []types.Address{f.alice, f.bob, {0x99}} { // two present, one absent
		p, err := c.Proof(t.Context(), who, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Verify(); err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		if (p.Value == nil) != (who == types.Address{0x99}) {
			t.Fatalf("%s: presence wrong", who)
		}
		raw, _ := json.Marshal(p)
		// Change one hex digit in every field value: each must fail.
		var fields map[string]json.RawMessage
		json.Unmarshal(raw, &fields)
		for name, v := range fields {
			s := string(v)
			i := strings.LastIndexAny(s, "0123456789abcdefABCDEF")
			if i < 3 || name == "account" {
				continue
			}
			c := byte('1')
			if s[i] == '1' {
				c = '2'
			}
			bad := s[:i] + string(c) + s[i+1:]
			var q ProofJSON
			fields2 := map[string]json.RawMessage{}
			for k, v := range fields {
				fields2[k] = v
			}
			fields2[name] = json.RawMessage(bad)
			b, _ := json.Marshal(fields2)
			if err := json.Unmarshal(b, &q); err != nil {
				continue // not even valid hex: also a failure
			}
			if err := q.Verify(); !errors.Is(err, ErrProofInvalid) {
				t.Errorf("%s: changed %s still verifies: %v", who, name, err)
			}
		}
		if p.Account != nil {
			q := *p
			q.Account = &AccountJSON{Nonce: p.Account.Nonce + 1, Balance: p.Account.Balance}
			if err := q.Verify(); !errors.Is(err, ErrProofInvalid) {
				t.Errorf("changed account nonce verifies: %v", err)
			}
		}
	}
	if _, err := c.Proof(t.Context(), f.alice, nil, ptr(uint64(9))); err == nil {
		t.Fatal("proof at a missing height")
	}
}

func ptr[T any](v T) *T { return &v }
