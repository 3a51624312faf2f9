package staking

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// FuzzApply: any payload either succeeds or fails with the state exactly
// as before, and never charges more cycles than the call had.
func FuzzApply(f *testing.F) {
	k := blsKey(f, 10)
	f.Add(RegisterPayload(k.PublicKey().Bytes(), k.ProvePossession().Bytes()), uint64(1000))
	f.Add(MethodPayload(MethodExit), uint64(0))
	f.Add(EvidencePayload(&Vote{Height: 1, BlockHash: types.Hash{1}, Validator: addr(1), Signature: make([]byte, 96)},
		&Vote{Height: 1, BlockHash: types.Hash{2}, Validator: addr(1), Signature: make([]byte, 96)}), uint64(0))
	f.Add([]byte{0x82, 0x64, 'e', 'x', 'i', 't', 0x00}, uint64(0))
	f.Fuzz(func(t *testing.T, payload []byte, valueCBY uint64) {
		st := state.New(memReader{})
		from := addr(10)
		st.Mint(from, cby(1_000_000))
		if err := InitGenesis(st, testParams(), []GenesisValidator{{Address: addr(1), BLSPublicKey: blsKey(t, 1).PublicKey().Bytes(), StakeCBY: 2000}}, [32]byte{}); err != nil {
			t.Fatal(err)
		}
		snap := st.Snapshot()
		value := new(big.Int).Mul(new(big.Int).SetUint64(valueCBY%2_000_000), BaseUnitsPerCBY)
		res, err := Apply(st, Call{From: from, Value: value, Payload: payload, Height: 3, Cycles: 20_000})
		if res.CyclesUsed > 20_000 {
			t.Fatalf("used %d cycles of 20,000", res.CyclesUsed)
		}
		if (err == nil) != (len(res.Events) == 1) {
			t.Fatalf("events %v with error %v", res.Events, err)
		}
		if err != nil && st.Snapshot() != snap {
			t.Fatalf("failed call (%v) left %d journal entries", err, st.Snapshot()-snap)
		}
		if err == nil && st.Balance(Address).Cmp(new(big.Int).Add(cby(2000), value)) != 0 && value.Sign() != 0 {
			t.Fatalf("registry balance %s after a call with value %s", st.Balance(Address), value)
		}
	})
}

// BenchmarkEndBlock is one ordinary block's registry work with 100
// members, one of which missed the vote, and its commit (Writes).
func BenchmarkEndBlock(b *testing.B) {
	st := state.New(memReader{})
	var vals []GenesisValidator
	var signers []types.Address
	for i := 0; i < 100; i++ {
		a := types.Address{1, byte(i)}
		vals = append(vals, GenesisValidator{Address: a, BLSPublicKey: blsKey(b, byte(i)).PublicKey().Bytes(), StakeCBY: 2000})
		if i > 0 {
			signers = append(signers, a)
		}
	}
	p := DefaultParams()
	if err := InitGenesis(st, p, vals, [32]byte{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h := uint64(1 + i%900) // stays inside one downtime window and epoch
		if err := EndBlock(st, BlockInfo{Height: h, Signers: signers}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.Writes(); err != nil { // the block's commit
			b.Fatal(err)
		}
	}
}

// BenchmarkEpochBoundary is the last block of an epoch with 100
// validators: rewards and the next set.
func BenchmarkEpochBoundary(b *testing.B) {
	st := state.New(memReader{})
	var vals []GenesisValidator
	for i := 0; i < 100; i++ {
		vals = append(vals, GenesisValidator{Address: types.Address{1, byte(i)}, BLSPublicKey: blsKey(b, byte(i)).PublicKey().Bytes(), StakeCBY: 2000})
	}
	p := DefaultParams()
	p.EpochLength = 1 // every block is a boundary
	if err := InitGenesis(st, p, vals, [32]byte{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := EndBlock(st, BlockInfo{Height: uint64(i)}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.Writes(); err != nil {
			b.Fatal(err)
		}
	}
}
