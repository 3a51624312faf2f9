package genesis

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Genesis is block 0: the chain id, the starting basefees and who owns
// what. Every node of a chain must start from the same Genesis.
type Genesis struct {
	ChainID      uint64
	Time         uint64 // unix seconds stamped on block 0
	BasefeeCycle uint64 // base units per cycle for block 1's parent (§4.2 floor: 1)
	BasefeeCell  uint64
	Alloc        []Alloc
	// Validators is the first epoch's validator set, in index order; empty
	// on the single-validator devnet.
	Validators []Validator
	// EpochSeed draws the proposer of every round and is the VRF input of
	// the first epoch (§6.1).
	EpochSeed [32]byte
	// Staking overrides the validator registry's parameters (epochs,
	// minimum stake, unbonding, jail, downtime window, slash); nil means
	// the spec's defaults (system/staking params_validator_set.go).
	Staking *Staking
	// Beacon is the first epoch's threshold beacon key (v2 §3.4): the
	// group public key and every share's public key, share x at x−1, with
	// shares allocated to Validators by stake (crypto/dkg.Allocate). It is
	// dealt by whoever writes the genesis (a trusted setup, as the
	// validator keys are on a localnet); nil means no beacon: R_n is the
	// proposer's VRF output.
	Beacon *Beacon
	// Runner overrides the runner market's parameters (genesis.json
	// "runner"; chain/genesis/runner.go); nil means the defaults.
	Runner *Runner
}

// Beacon is a beacon public key as genesis.json holds it.
type Beacon struct {
	GroupKey     []byte
	PublicShares [][]byte
}

// Alloc is a genesis balance.
type Alloc struct {
	Address types.Address
	Balance *big.Int // base units
}

// DevnetGenesisTime is block 0's timestamp on every devnet (2026-01-01
// 00:00:00 UTC), fixed so that every devnet has the same genesis hash.
const DevnetGenesisTime = 1767225600

// Devnet is the local devnet's genesis: chain id 7777, genesis basefees of
// 1 base unit per cycle and per cell (spec/README.md), and dev0…dev9
// holding 1,000,000 CBY each.
func Devnet() *Genesis {
	g := &Genesis{ChainID: DevnetChainID, Time: DevnetGenesisTime, BasefeeCycle: fees.MinBasefee, BasefeeCell: fees.MinBasefee}
	for i := 0; i < DevAccounts; i++ {
		a, _ := DevAddress(i)
		g.Alloc = append(g.Alloc, Alloc{Address: a, Balance: new(big.Int).Set(DevBalance)})
	}
	return g
}
