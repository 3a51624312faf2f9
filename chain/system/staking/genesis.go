package staking

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// GenesisValidator is a validator of the genesis file.
type GenesisValidator struct {
	Address      types.Address
	BLSPublicKey []byte
	StakeCBY     uint64 // whole CBY
}

// InitGenesis writes the registry at block 0, after the genesis
// allocations are minted: the parameters, each genesis validator's stake
// minted into the registry's balance and recorded as an active member,
// EpochSet(0) = the genesis validators in file order with the genesis
// seed, and the genesis total supply (stake included) that §8.2's
// inflation is a percentage of. A chain with no genesis validators (the
// devnet) gets an EpochSet(0) without members.
func InitGenesis(st *state.StateDB, p Params, vals []GenesisValidator, seed [32]byte) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if st.Get(paramsKey) != nil {
		return fmt.Errorf("staking: the registry is already initialized")
	}
	b, err := types.Marshal(&p)
	if err != nil {
		return fmt.Errorf("encode staking params: %w", err)
	}
	st.Set(paramsKey, b)
	set := &EpochSet{Epoch: 0, Seed: seed, Members: make([]Member, 0, len(vals))}
	for i, gv := range vals {
		if len(gv.BLSPublicKey) != bls.PublicKeySize {
			return fmt.Errorf("staking: genesis validator %d (%s): BLS key is %d bytes, want %d", i, gv.Address, len(gv.BLSPublicKey), bls.PublicKeySize)
		}
		if gv.Address == Address {
			return fmt.Errorf("staking: genesis validator %d uses the registry's own address", i)
		}
		stake := new(big.Int).Mul(new(big.Int).SetUint64(gv.StakeCBY), BaseUnitsPerCBY)
		if stake.Cmp(p.MinStake) < 0 {
			return fmt.Errorf("staking: genesis validator %d (%s) stakes %d CBY, below min_validator_stake %s", i, gv.Address, gv.StakeCBY, types.FormatCBY(p.MinStake))
		}
		if owner := st.Get(blsKeyKey(gv.BLSPublicKey)); owner != nil {
			return fmt.Errorf("staking: genesis validator %d (%s) reuses the BLS key of %s", i, gv.Address, types.Address(owner))
		}
		if v, err := ReadValidator(st, gv.Address); err != nil || v != nil {
			return fmt.Errorf("staking: genesis validator %s listed twice (%v)", gv.Address, err)
		}
		st.Mint(Address, stake)
		v := &Validator{Address: gv.Address, BLSPublicKey: gv.BLSPublicKey, Stake: stake, Active: true}
		if err := writeValidator(st, v); err != nil {
			return err
		}
		if err := addToRegistry(st, gv.Address); err != nil {
			return err
		}
		st.Set(blsKeyKey(gv.BLSPublicKey), gv.Address[:])
		set.Members = append(set.Members, Member{Address: gv.Address, BLSPublicKey: gv.BLSPublicKey, Stake: stake})
	}
	if err := writeEpochSet(st, set); err != nil {
		return err
	}
	supply := st.Supply().Bytes()
	if supply == nil {
		supply = []byte{}
	}
	st.Set(genesisSupplyKey, supply)
	return st.Err()
}
