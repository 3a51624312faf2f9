package staking

import (
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestLightClientRecords: the records a light client reads under
// EpochBeaconKey and DKGMembersKey decode to what the registry holds, a
// record of another epoch or bytes that are not one are refused, and
// PayloadAnchor reads the anchor a payload names.
func TestLightClientRecords(t *testing.T) {
	e := newBeaconEnv(t)
	raw := e.st.Get(EpochBeaconKey(0))
	b, err := DecodeEpochBeacon(raw, 0)
	if err != nil || b.Epoch != 0 || b.Source != BeaconGenesis || len(b.PublicShares) != 4 {
		t.Fatalf("epoch 0 beacon %+v %v", b, err)
	}
	members, err := DecodeDKGMembers(e.st.Get(DKGMembersKey(1)), 1)
	r, _ := e.round(1)
	if err != nil || len(members) != 4 || !sameMembers(members, r.Members) {
		t.Fatalf("DKG(1) members %v %v", members, err)
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"beacon of another epoch", func() error { _, err := DecodeEpochBeacon(raw, 1); return err }(), "epoch 1 beacon record says epoch 0"},
		{"beacon not CBOR", func() error { _, err := DecodeEpochBeacon([]byte{0xff}, 0); return err }(), "decode epoch 0 beacon"},
		{"members of another epoch", func() error { _, err := DecodeDKGMembers(e.st.Get(DKGMembersKey(1)), 2); return err }(), "dkg 2 members"},
		{"members not CBOR", func() error { _, err := DecodeDKGMembers([]byte{0xff}, 1); return err }(), "dkg 1 members"},
		{"payload not CBOR", func() error { _, err := PayloadAnchor([]byte{0xff}); return err }(), "not the CBOR array"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	anchor := types.Hash{4, 5, 6}
	payload, err := types.Marshal(&proposalWire{Time: 1, Txs: []cbor.RawMessage{}, Anchor: anchor})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := PayloadAnchor(payload); err != nil || got != anchor {
		t.Fatalf("anchor %x %v", got, err)
	}
	prev := members[:2]
	if got := SetAfterDKG(nil, prev); len(got) != 2 {
		t.Fatalf("no DKG members: %d, want the previous set's 2", len(got))
	}
	if got := SetAfterDKG(members, prev); len(got) != 4 {
		t.Fatalf("DKG members: %d, want 4", len(got))
	}
}
