package rpc

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Randomness answers like a devnet: keccak of the parent hash and height.
func (b *fakeBackend) Randomness(height uint64) (*RandomnessJSON, error) {
	blk, err := b.BlockByNumber(height)
	if err != nil || height == 0 {
		return nil, fmt.Errorf("randomness %d: %w", height, ErrNotFound)
	}
	r := crypto.Keccak256([]byte("cowboy/devnet-beacon/v1"), blk.Header.ParentHash[:], binary.BigEndian.AppendUint64(nil, height))
	return &RandomnessJSON{Height: Quantity(height), Randomness: Hash(r), Source: RandomnessDevnet,
		Note: "single-validator devnet: keccak of the parent hash and height, predictable by anyone"}, nil
}

func TestGetRandomness(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	r, err := c.Randomness(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Source != RandomnessDevnet || r.Height != 1 || r.Randomness == (Hash{}) || r.Sigma != nil {
		t.Fatalf("randomness of block 1: %+v", r)
	}
	var rerr *Error
	for _, h := range []uint64{0, 99} {
		if _, err := c.Randomness(ctx, h); !errors.As(err, &rerr) || rerr.Code != CodeNotFound {
			t.Fatalf("height %d: %v, want not found", h, err)
		}
	}
	if err := c.Call(ctx, new(RandomnessJSON), "cowboy_getRandomness", "one"); !errors.As(err, &rerr) || rerr.Code != CodeInvalidParams {
		t.Fatalf("bad height: %v", err)
	}
}
