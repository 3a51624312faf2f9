package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestGetBlockStatus: finalized chain blocks by height and by hash, blocks
// above the chain by consensus hash and height, and clear errors for
// unknown blocks and malformed params.
func TestGetBlockStatus(t *testing.T) {
	f := newFixture(t)
	one, zero := uint64(1), uint64(0)
	proposed := &BlockStatus{Hash: types.Hash{0xaa}, Height: 2, Round: &one, Epoch: &zero, Status: StatusProposed}
	proposed.ConsensusHash = &proposed.Hash
	f.b.consensus = []*BlockStatus{proposed}
	srv, _ := serve(t, f.b, Options{})
	b1 := f.b.blocks[1].Header.Hash()
	cases := []struct {
		name, params string
		want         string // result JSON, or "" when an error is expected
		code         int
		msgHas       string
	}{
		{"by height", `["0x1"]`, `{"hash":"` + b1.Hex() + `","consensusHash":null,"height":"0x1","round":null,"epoch":null,"status":"finalized"}`, 0, ""},
		{"by chain hash", `["` + b1.Hex() + `"]`, `{"hash":"` + b1.Hex() + `","consensusHash":null,"height":"0x1","round":null,"epoch":null,"status":"finalized"}`, 0, ""},
		{"genesis", `["0x0"]`, `{"hash":"` + f.b.blocks[0].Header.Hash().Hex() + `","consensusHash":null,"height":"0x0","round":null,"epoch":null,"status":"finalized"}`, 0, ""},
		{"proposed by hash", `["` + Hash{0xaa}.String() + `"]`, `{"hash":"` + Hash{0xaa}.String() + `","consensusHash":"` + Hash{0xaa}.String() + `","height":"0x2","round":"0x1","epoch":"0x0","status":"proposed"}`, 0, ""},
		{"proposed by height", `["0x2"]`, `{"hash":"` + Hash{0xaa}.String() + `","consensusHash":"` + Hash{0xaa}.String() + `","height":"0x2","round":"0x1","epoch":"0x0","status":"proposed"}`, 0, ""},
		{"unknown height", `["0x9"]`, "", CodeNotFound, "no block at height 0x9"},
		{"unknown hash", `["` + Hash{0xbb}.String() + `"]`, "", CodeNotFound, "is not known to this node"},
		{"bad hash", `["0x` + strings.Repeat("zz", 32) + `"]`, "", CodeInvalidParams, "params[0] (block)"},
		{"not a string", `[1]`, "", CodeInvalidParams, "want a 32-byte 0x hash or a 0x-hex height"},
		{"leading zero", `["0x01"]`, "", CodeInvalidParams, "leading zero"},
		{"no params", `[]`, "", CodeInvalidParams, "takes 1 params"},
	}
	for _, c := range cases {
		_, out := post(t, srv, "application/json", req("cowboy_getBlockStatus", c.params))
		var r struct {
			Result json.RawMessage
			Error  *Error
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.want != "" {
			if r.Error != nil || string(r.Result) != c.want {
				t.Errorf("%s: got %s, error %v\nwant %s", c.name, r.Result, r.Error, c.want)
			}
			continue
		}
		if r.Error == nil || r.Error.Code != c.code || !strings.Contains(r.Error.Message, c.msgHas) {
			t.Errorf("%s: got %s, error %+v; want code %d with %q", c.name, r.Result, r.Error, c.code, c.msgHas)
		}
	}
}

// TestClientBlockStatus: the typed client methods, and -32001 for an
// unknown block as an *Error the caller can switch on.
func TestClientBlockStatus(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	b1 := Hash(f.b.blocks[1].Header.Hash())
	for name, get := range map[string]func() (*BlockStatusJSON, error){
		"by hash":   func() (*BlockStatusJSON, error) { return c.BlockStatusByHash(ctx, b1) },
		"by height": func() (*BlockStatusJSON, error) { return c.BlockStatusByHeight(ctx, 1) },
	} {
		st, err := get()
		if err != nil || st.Hash != b1 || st.Height != 1 || st.Status != StatusFinalized || st.Round != nil || st.ConsensusHash != nil {
			t.Fatalf("%s: %+v, %v", name, st, err)
		}
	}
	var rerr *Error
	if _, err := c.BlockStatusByHeight(ctx, 99); !errors.As(err, &rerr) || rerr.Code != CodeNotFound {
		t.Fatalf("unknown height: %v", err)
	}
	f.b.failWith = errors.New("disk on fire")
	if _, err := c.BlockStatusByHash(ctx, b1); !errors.As(err, &rerr) || rerr.Code != CodeInternal || !strings.Contains(rerr.Message, "disk on fire") {
		t.Fatalf("store failure: %v", err)
	}
}
