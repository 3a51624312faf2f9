package genesis

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Validator is a member of the genesis validator set (v2 "Validator Set").
// The set is fixed for the chain's first epoch; registration, exits and
// epochs come later (docs/decisions.md "Consensus wiring").
type Validator struct {
	// Address is the validator's node key address (secp256k1): its p2p
	// PeerID and the account that receives the tips of the blocks it
	// proposes.
	Address types.Address
	// BLSPublicKey is the 48-byte compressed BLS12-381 key that signs
	// votes and VRF proofs; Possession is its 96-byte proof of possession.
	BLSPublicKey []byte
	Possession   []byte
	// Stake is the consensus weight in whole CBY. It is not minted or
	// locked in the state yet (staking accounting comes with epochs).
	Stake uint64
	// P2PAddr is "ip:port" where the validator listens for QUIC; other
	// nodes dial it at start. Operational only: not part of the hash.
	P2PAddr string
}

// fileJSON is the genesis.json layout: every integer that can exceed 2^53
// is a decimal string, byte strings are 0x-hex.
type fileJSON struct {
	ChainID      uint64          `json:"chain_id"`
	Time         uint64          `json:"time"`
	BasefeeCycle uint64          `json:"basefee_cycle"`
	BasefeeCell  uint64          `json:"basefee_cell"`
	Alloc        []allocJSON     `json:"alloc"`
	Validators   []validatorJSON `json:"validators"`
	EpochSeed    string          `json:"epoch_seed"`
	Staking      *Staking        `json:"staking,omitempty"`
	Beacon       *beaconJSON     `json:"beacon,omitempty"`
	Runner       *Runner         `json:"runner,omitempty"`
}

type beaconJSON struct {
	GroupKey     string   `json:"group_key"`
	PublicShares []string `json:"public_shares"`
}

type allocJSON struct {
	Address string `json:"address"`
	Balance string `json:"balance"` // base units, decimal
}

type validatorJSON struct {
	Address      string `json:"address"`
	BLSPublicKey string `json:"bls_public_key"`
	Possession   string `json:"proof_of_possession"`
	Stake        uint64 `json:"stake"`
	P2PAddr      string `json:"p2p_address"`
}

// MarshalJSON writes the genesis.json form (docs/localnet.md).
func (g *Genesis) MarshalJSON() ([]byte, error) {
	f := fileJSON{ChainID: g.ChainID, Time: g.Time, BasefeeCycle: g.BasefeeCycle, BasefeeCell: g.BasefeeCell,
		Alloc: []allocJSON{}, Validators: []validatorJSON{}, EpochSeed: "0x" + hex.EncodeToString(g.EpochSeed[:]), Staking: g.Staking, Runner: g.Runner}
	for _, a := range g.Alloc {
		f.Alloc = append(f.Alloc, allocJSON{Address: a.Address.Hex(), Balance: a.Balance.String()})
	}
	if b := g.Beacon; b != nil {
		f.Beacon = &beaconJSON{GroupKey: "0x" + hex.EncodeToString(b.GroupKey), PublicShares: []string{}}
		for _, p := range b.PublicShares {
			f.Beacon.PublicShares = append(f.Beacon.PublicShares, "0x"+hex.EncodeToString(p))
		}
	}
	for _, v := range g.Validators {
		f.Validators = append(f.Validators, validatorJSON{Address: v.Address.Hex(),
			BLSPublicKey: "0x" + hex.EncodeToString(v.BLSPublicKey), Possession: "0x" + hex.EncodeToString(v.Possession),
			Stake: v.Stake, P2PAddr: v.P2PAddr})
	}
	return json.MarshalIndent(f, "", "  ")
}

// UnmarshalJSON reads the genesis.json form; unknown fields are refused.
func (g *Genesis) UnmarshalJSON(b []byte) error {
	var f fileJSON
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("genesis: %w", err)
	}
	out := Genesis{ChainID: f.ChainID, Time: f.Time, BasefeeCycle: f.BasefeeCycle, BasefeeCell: f.BasefeeCell, Staking: f.Staking, Runner: f.Runner}
	for i, a := range f.Alloc {
		addr, err := types.ParseAddress(a.Address)
		if err != nil {
			return fmt.Errorf("genesis: alloc %d: %w", i, err)
		}
		bal, ok := new(big.Int).SetString(a.Balance, 10)
		if !ok || bal.Sign() < 0 {
			return fmt.Errorf("genesis: alloc %d: balance %q is not a non-negative decimal integer", i, a.Balance)
		}
		out.Alloc = append(out.Alloc, Alloc{Address: addr, Balance: bal})
	}
	for i, v := range f.Validators {
		addr, err := types.ParseAddress(v.Address)
		if err != nil {
			return fmt.Errorf("genesis: validator %d: %w", i, err)
		}
		pk, err := decodeHex(v.BLSPublicKey)
		if err != nil {
			return fmt.Errorf("genesis: validator %d: bls_public_key: %w", i, err)
		}
		pop, err := decodeHex(v.Possession)
		if err != nil {
			return fmt.Errorf("genesis: validator %d: proof_of_possession: %w", i, err)
		}
		out.Validators = append(out.Validators, Validator{Address: addr, BLSPublicKey: pk, Possession: pop, Stake: v.Stake, P2PAddr: v.P2PAddr})
	}
	seed, err := decodeHex(f.EpochSeed)
	if err != nil || len(seed) != 32 {
		return fmt.Errorf("genesis: epoch_seed must be 32 bytes of 0x-hex")
	}
	copy(out.EpochSeed[:], seed)
	if b := f.Beacon; b != nil {
		gk, err := decodeHex(b.GroupKey)
		if err != nil {
			return fmt.Errorf("genesis: beacon group_key: %w", err)
		}
		out.Beacon = &Beacon{GroupKey: gk}
		for i, p := range b.PublicShares {
			raw, err := decodeHex(p)
			if err != nil {
				return fmt.Errorf("genesis: beacon public share %d: %w", i+1, err)
			}
			out.Beacon.PublicShares = append(out.Beacon.PublicShares, raw)
		}
	}
	*g = out
	return nil
}

func decodeHex(s string) ([]byte, error) {
	return hex.DecodeString(strings.TrimPrefix(s, "0x"))
}

// Validate checks what every node must agree on before starting: a chain
// id, usable staking parameters, and validators with distinct addresses
// and at least the minimum stake. The BLS keys and their proofs of
// possession are checked when the consensus starts.
func (g *Genesis) Validate() error {
	if g.ChainID == 0 {
		return errors.New("genesis: chain_id is 0")
	}
	p := g.StakingParams()
	if err := p.Validate(); err != nil {
		return fmt.Errorf("genesis: %w", err)
	}
	if _, err := g.RunnerParams(); err != nil {
		return fmt.Errorf("genesis: %w", err)
	}
	for i, a := range g.Alloc {
		if a.Address == staking.Address {
			return fmt.Errorf("genesis: alloc %d credits the validator registry %s, whose balance must be exactly the bonded stake", i, a.Address)
		}
	}
	seen := map[types.Address]bool{}
	for i, v := range g.Validators {
		if v.Stake == 0 {
			return fmt.Errorf("genesis: validator %d (%s) has no stake", i, v.Address)
		}
		if new(big.Int).Mul(new(big.Int).SetUint64(v.Stake), BaseUnitsPerCBY).Cmp(p.MinStake) < 0 {
			return fmt.Errorf("genesis: validator %d (%s) stakes %d CBY, below min_validator_stake %s", i, v.Address, v.Stake, types.FormatCBY(p.MinStake))
		}
		if seen[v.Address] {
			return fmt.Errorf("genesis: validator %s listed twice", v.Address)
		}
		seen[v.Address] = true
	}
	return nil
}

// Load reads and checks a genesis.json file.
func Load(path string) (*Genesis, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read genesis: %w", err)
	}
	g := new(Genesis)
	if err := json.Unmarshal(b, g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Save writes g as genesis.json (mode 0644; it holds no secrets).
func (g *Genesis) Save(path string) error {
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("encode genesis: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write genesis: %w", err)
	}
	return nil
}

// hashTag prefixes the genesis hash preimage.
const hashTag = "cowboy/genesis/v1"

type hashAlloc struct {
	_       struct{} `cbor:",toarray"`
	Address types.Address
	Balance []byte // big-endian magnitude
}

type hashValidator struct {
	_            struct{} `cbor:",toarray"`
	Address      types.Address
	BLSPublicKey []byte
	Possession   []byte
	Stake        uint64
}

type hashBeacon struct {
	_            struct{} `cbor:",toarray"`
	GroupKey     []byte
	PublicShares [][]byte
}

type hashGenesis struct {
	_            struct{} `cbor:",toarray"`
	ChainID      uint64
	Time         uint64
	BasefeeCycle uint64
	BasefeeCell  uint64
	Alloc        []hashAlloc
	Validators   []hashValidator
	EpochSeed    [32]byte
	Staking      hashStaking
}

// Hash identifies the chain: keccak256("cowboy/genesis/v1" || CBOR) of the
// canonical CBOR array [chain_id, time, basefee_cycle, basefee_cell,
// [[address, balance_be]…], [[address, bls_public_key, possession,
// stake]…], epoch_seed, [epoch_length, min_stake_be, unbonding_period,
// jail_period, downtime_window, slash_bps]], lists in file order, the
// staking parameters as in effect (defaults filled in). Validators' p2p addresses
// are left out: they are where to dial, not what the chain is. A beacon
// key, then runner parameters other than the defaults (runnerHash), extend
// the preimage. Peers
// exchange it in the p2p Hello and refuse another chain's nodes.
func (g *Genesis) Hash() types.Hash {
	h := hashGenesis{ChainID: g.ChainID, Time: g.Time, BasefeeCycle: g.BasefeeCycle, BasefeeCell: g.BasefeeCell,
		Alloc: []hashAlloc{}, Validators: []hashValidator{}, EpochSeed: g.EpochSeed, Staking: g.hashStaking()}
	for _, a := range g.Alloc {
		h.Alloc = append(h.Alloc, hashAlloc{Address: a.Address, Balance: a.Balance.Bytes()})
	}
	for _, v := range g.Validators {
		h.Validators = append(h.Validators, hashValidator{Address: v.Address, BLSPublicKey: v.BLSPublicKey, Possession: v.Possession, Stake: v.Stake})
	}
	b, err := types.Marshal(&h)
	if err != nil {
		panic(fmt.Sprintf("encode genesis: %v", err)) // plain fields cannot fail
	}
	if g.Beacon != nil {
		// A beacon key extends the preimage with [group_key,
		// [public_share…]]; a genesis without one hashes as before.
		bb, err := types.Marshal(&hashBeacon{GroupKey: g.Beacon.GroupKey, PublicShares: g.Beacon.PublicShares})
		if err != nil {
			panic(fmt.Sprintf("encode genesis beacon: %v", err))
		}
		return types.Hash(crypto.Keccak256([]byte(hashTag), b, bb, g.runnerHash()))
	}
	return types.Hash(crypto.Keccak256([]byte(hashTag), b, g.runnerHash()))
}

// ValidatorIndex is the index of addr in the validator set, or -1.
func (g *Genesis) ValidatorIndex(addr types.Address) int {
	for i, v := range g.Validators {
		if v.Address == addr {
			return i
		}
	}
	return -1
}

// WithValidators is a multi-validator genesis for test networks (cowboyd
// init and localnet): the devnet's allocations (dev0…dev9, 1,000,000 CBY
// each, keys public), basefees of 1, and the given validators and seed.
func WithValidators(chainID, time uint64, vals []Validator, seed [32]byte) *Genesis {
	g := Devnet()
	g.ChainID, g.Time = chainID, time
	g.Validators = vals
	g.EpochSeed = seed
	return g
}
