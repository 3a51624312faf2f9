package genesis

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestGenesisFileRoundTrip(t *testing.T) {
	vals := []Validator{
		{Address: types.Address{1}, BLSPublicKey: []byte{1, 2, 3}, Possession: []byte{4, 5}, Stake: 10, P2PAddr: "127.0.0.1:1"},
		{Address: types.Address{2}, BLSPublicKey: []byte{6}, Possession: []byte{7}, Stake: 20, P2PAddr: "127.0.0.1:2"},
	}
	g := WithValidators(99, DevnetGenesisTime, vals, [32]byte{9})
	path := filepath.Join(t.TempDir(), "genesis.json")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != g.Hash() {
		t.Fatalf("hash changed over save/load: %s vs %s", back.Hash(), g.Hash())
	}
	if len(back.Validators) != 2 || back.Validators[1].P2PAddr != "127.0.0.1:2" || back.ValidatorIndex(types.Address{2}) != 1 {
		t.Fatalf("validators: %+v", back.Validators)
	}
	// The p2p address is not part of the chain's identity; the rest is.
	moved := *back
	moved.Validators = append([]Validator(nil), back.Validators...)
	moved.Validators[0].P2PAddr = "10.0.0.1:5"
	if moved.Hash() != g.Hash() {
		t.Fatal("a validator's p2p address changed the genesis hash")
	}
	moved.Validators[0].Stake++
	if moved.Hash() == g.Hash() {
		t.Fatal("a stake change left the genesis hash unchanged")
	}
	other := *back
	other.ChainID++
	if other.Hash() == g.Hash() {
		t.Fatal("a chain id change left the genesis hash unchanged")
	}
}

func TestGenesisFileErrors(t *testing.T) {
	for name, tc := range map[string]struct{ json, want string }{
		"unknown field": {`{"chain_id":1,"epoch_seed":"0x` + strings.Repeat("00", 32) + `","extra":1}`, "unknown field"},
		"short seed":    {`{"chain_id":1,"epoch_seed":"0x00"}`, "epoch_seed"},
		"bad balance":   {`{"chain_id":1,"alloc":[{"address":"0x0000000000000000000000000000000000000001","balance":"-1"}],"epoch_seed":"0x` + strings.Repeat("00", 32) + `"}`, "balance"},
	} {
		var g Genesis
		err := g.UnmarshalJSON([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, tc.want)
		}
	}
	g := WithValidators(1, 0, []Validator{{Address: types.Address{1}, Stake: 0}}, [32]byte{})
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "no stake") {
		t.Errorf("zero stake: %v", err)
	}
}
