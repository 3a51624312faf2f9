package genesis

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestGenesisFileRoundTrip(t *testing.T) {
	vals := []Validator{
		{Address: types.Address{1}, BLSPublicKey: []byte{1, 2, 3}, Possession: []byte{4, 5}, Stake: 1000, P2PAddr: "127.0.0.1:1"},
		{Address: types.Address{2}, BLSPublicKey: []byte{6}, Possession: []byte{7}, Stake: 2000, P2PAddr: "127.0.0.1:2"},
	}
	g := WithValidators(99, DevnetGenesisTime, vals, [32]byte{9})
	epoch := uint64(20)
	g.Staking = &Staking{EpochLength: &epoch}
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
	if p := back.StakingParams(); p.EpochLength != 20 || p.JailPeriod != 86_400 {
		t.Fatalf("staking params after load: %+v", p)
	}
	longer := *back
	e2 := uint64(21)
	longer.Staking = &Staking{EpochLength: &e2}
	if longer.Hash() == g.Hash() {
		t.Fatal("an epoch length change left the genesis hash unchanged")
	}
	// Defaults written out and left out are the same chain.
	explicit := *back
	d := uint64(3600)
	explicit.Staking = &Staking{EpochLength: &d}
	implicit := *back
	implicit.Staking = nil
	if explicit.Hash() != implicit.Hash() {
		t.Fatal("an explicit default changed the genesis hash")
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
		"staking typo":  {`{"chain_id":1,"epoch_seed":"0x` + strings.Repeat("00", 32) + `","staking":{"epoch_lenght":5}}`, "unknown field"},
		"bad balance":   {`{"chain_id":1,"alloc":[{"address":"0x0000000000000000000000000000000000000001","balance":"-1"}],"epoch_seed":"0x` + strings.Repeat("00", 32) + `"}`, "balance"},
	} {
		var g Genesis
		err := g.UnmarshalJSON([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, tc.want)
		}
	}
	zero, small := uint64(0), uint64(5000)
	for _, tc := range []struct {
		name string
		g    *Genesis
		want string
	}{
		{"zero stake", WithValidators(1, 0, []Validator{{Address: types.Address{1}, Stake: 0}}, [32]byte{}), "no stake"},
		{"below min", WithValidators(1, 0, []Validator{{Address: types.Address{1}, Stake: 999}}, [32]byte{}), "below min_validator_stake"},
		{"min raised", func() *Genesis {
			g := WithValidators(1, 0, []Validator{{Address: types.Address{1}, Stake: 4000}}, [32]byte{})
			g.Staking = &Staking{MinValidatorStake: &small}
			return g
		}(), "below min_validator_stake 5,000 CBY"},
		{"zero epoch", func() *Genesis { g := Devnet(); g.Staking = &Staking{EpochLength: &zero}; return g }(), "epoch_length"},
		{"alloc to registry", func() *Genesis {
			g := Devnet()
			g.Alloc = append(g.Alloc, Alloc{Address: staking.Address, Balance: DevBalance})
			return g
		}(), "validator registry"},
	} {
		if err := tc.g.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
