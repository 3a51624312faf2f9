package genesis

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

// TestApplyMintsStake: the genesis validators' stake is minted into the
// registry and counted in the supply; EpochSet(0) is the file's order and
// seed; the devnet gets an empty set.
func TestApplyMintsStake(t *testing.T) {
	var vals []Validator
	for i := byte(2); i > 0; i-- { // file order is not address order
		k, err := bls.GenerateKey(bytes.Repeat([]byte{i}, 32))
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, Validator{Address: [20]byte{i}, BLSPublicKey: k.PublicKey().Bytes(), Stake: uint64(i) * 1000})
	}
	g := WithValidators(5, 0, vals, [32]byte{4})
	st := state.New(memReader{})
	if err := g.Apply(st); err != nil {
		t.Fatal(err)
	}
	stake := new(big.Int).Mul(big.NewInt(3000), BaseUnitsPerCBY)
	if st.Balance(staking.Address).Cmp(stake) != 0 {
		t.Fatalf("registry holds %s", st.Balance(staking.Address))
	}
	allocs := new(big.Int).Mul(big.NewInt(DevAccounts), DevBalance)
	if want := new(big.Int).Add(allocs, stake); st.Supply().Cmp(want) != 0 {
		t.Fatalf("supply %s, want %s", st.Supply(), want)
	}
	s, err := staking.ReadEpochSet(st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Members) != 2 || s.Members[0].Address != ([20]byte{2}) || s.Members[0].Weight != 2000 || s.Seed != ([32]byte{4}) {
		t.Fatalf("epoch 0 %+v", s)
	}

	dev := state.New(memReader{})
	if err := Devnet().Apply(dev); err != nil {
		t.Fatal(err)
	}
	if s, err := staking.ReadEpochSet(dev, 0); err != nil || len(s.Members) != 0 {
		t.Fatalf("devnet epoch 0: %+v %v", s, err)
	}
	if dev.Supply().Cmp(allocs) != 0 {
		t.Fatalf("devnet supply %s", dev.Supply())
	}
}
