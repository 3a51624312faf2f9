package node

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// Key files of a validator or full node home (docs/localnet.md), each one
// line of hex, mode 0600:
//
//	node.key  secp256k1 secret key (32 bytes): p2p identity, validator address
//	bls.key   BLS12-381 secret key (32 bytes): votes and VRF proofs
//	beacon.key  the validator's shares of the genesis beacon key (32-byte
//	          scalars, one hex line each, in share order; optional)
const (
	NodeKeyFile   = "node.key"
	BLSKeyFile    = "bls.key"
	BeaconKeyFile = "beacon.key"
)

// NodeKeys are a home's keys.
type NodeKeys struct {
	Node *crypto.PrivateKey
	BLS  *bls.SecretKey
	// Beacon are the validator's shares of the genesis beacon key (v2
	// §3.4), in share order; empty when it has none.
	Beacon [][]byte
}

// WriteBeaconShares writes a validator's beacon key shares into its home
// (mode 0600, never overwriting).
func WriteBeaconShares(home string, shares [][]byte) error {
	path := filepath.Join(home, BeaconKeyFile)
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s already exists: refusing to overwrite a key", path)
	}
	var b strings.Builder
	for _, s := range shares {
		b.WriteString(hex.EncodeToString(s) + "\n")
	}
	if err := writeFileAtomic(path, []byte(b.String())); err != nil {
		return fmt.Errorf("write beacon shares: %w", err)
	}
	return nil
}

func readBeaconShares(home string) ([][]byte, error) {
	b, err := os.ReadFile(filepath.Join(home, BeaconKeyFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read beacon shares: %w", err)
	}
	var out [][]byte
	for i, line := range strings.Fields(string(b)) {
		raw, err := hex.DecodeString(line)
		if err != nil || len(raw) != bls.SecretKeySize {
			return nil, fmt.Errorf("%s: share %d is not 32 bytes of hex", BeaconKeyFile, i+1)
		}
		out = append(out, raw)
	}
	return out, nil
}

// GenerateKeys makes fresh keys and writes them into home (created if
// absent). Existing key files are kept, never overwritten.
func GenerateKeys(home string) (*NodeKeys, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home: %w", err)
	}
	for _, f := range []string{NodeKeyFile, BLSKeyFile} {
		if _, err := os.Stat(filepath.Join(home, f)); err == nil {
			return nil, fmt.Errorf("%s already exists: refusing to overwrite a key", filepath.Join(home, f))
		}
	}
	nk, err := crypto.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("generate node key: %w", err)
	}
	seed := make([]byte, 32)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("generate bls key: %w", err)
	}
	bk, err := bls.GenerateKey(seed)
	if err != nil {
		return nil, fmt.Errorf("generate bls key: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(home, NodeKeyFile), []byte(hex.EncodeToString(nk.Bytes())+"\n")); err != nil {
		return nil, fmt.Errorf("write node key: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(home, BLSKeyFile), []byte(hex.EncodeToString(bk.Bytes())+"\n")); err != nil {
		return nil, fmt.Errorf("write bls key: %w", err)
	}
	return &NodeKeys{Node: nk, BLS: bk}, nil
}

// LoadKeys reads a home's node key and, if present, its BLS key (a full
// node may have none).
func LoadKeys(home string) (*NodeKeys, error) {
	raw, err := readHexFile(filepath.Join(home, NodeKeyFile))
	if err != nil {
		return nil, err
	}
	nk, err := crypto.PrivateKeyFromBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NodeKeyFile, err)
	}
	keys := &NodeKeys{Node: nk}
	if keys.Beacon, err = readBeaconShares(home); err != nil {
		return nil, err
	}
	raw, err = readHexFile(filepath.Join(home, BLSKeyFile))
	if errors.Is(err, os.ErrNotExist) {
		return keys, nil
	}
	if err != nil {
		return nil, err
	}
	if keys.BLS, err = bls.SecretKeyFromBytes(raw); err != nil {
		return nil, fmt.Errorf("%s: %w", BLSKeyFile, err)
	}
	return keys, nil
}

func readHexFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read key: %w", err)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, fmt.Errorf("key file %s is corrupt: %w", path, err)
	}
	return raw, nil
}

// DefaultStake is the stake, in whole CBY, that init and localnet give
// each validator.
const DefaultStake = 1_000_000

// GenesisValidator is the genesis entry for the validator with these keys,
// with its BLS proof of possession.
func (k *NodeKeys) GenesisValidator(stake uint64, p2pAddr string) genesis.Validator {
	return genesis.Validator{Address: types.Address(k.Node.Address()), BLSPublicKey: k.BLS.PublicKey().Bytes(),
		Possession: k.BLS.ProvePossession().Bytes(), Stake: stake, P2PAddr: p2pAddr}
}

// DealGenesisBeacon gives a genesis the threshold beacon key of its
// validator set (v2 §3.4) and writes each validator's shares into its home
// (home(i)): a trusted setup by whoever writes the genesis, as localnet
// writes every validator's keys anyway (simplex.DealBeacon). keys are the
// validators' keys in genesis order.
func DealGenesisBeacon(g *genesis.Genesis, keys []*NodeKeys, home func(i int) string) error {
	if len(keys) != len(g.Validators) {
		return fmt.Errorf("deal beacon: %d keys for %d validators", len(keys), len(g.Validators))
	}
	vs := make([]simplex.Validator, len(keys))
	sks := make([]*bls.SecretKey, len(keys))
	for i, v := range g.Validators {
		vs[i] = simplex.Validator{PublicKey: v.BLSPublicKey, Stake: v.Stake}
		sks[i] = keys[i].BLS
	}
	set, err := simplex.NewValidatorSet(vs)
	if err != nil {
		return fmt.Errorf("deal beacon: %w", err)
	}
	key, mine, err := simplex.DealBeacon(set, sks)
	if err != nil {
		return err
	}
	for i := range keys {
		if err := WriteBeaconShares(home(i), mine[i]); err != nil {
			return err
		}
		keys[i].Beacon = mine[i]
	}
	g.Beacon = &genesis.Beacon{GroupKey: key.Group, PublicShares: key.PublicShares}
	// The key renews by DKG every epoch, with dealings and complaints as
	// registry transactions from the validators' accounts: each starts
	// with DKGFundsCBY for their fees.
	for _, v := range g.Validators {
		g.Alloc = append(g.Alloc, genesis.Alloc{Address: v.Address, Balance: new(big.Int).Mul(big.NewInt(DKGFundsCBY), staking.BaseUnitsPerCBY)})
	}
	return nil
}

// DKGFundsCBY is what DealGenesisBeacon gives each genesis validator's
// account for the fees of its DKG transactions (a dealing of a 4-member
// set costs well under 1 CBY).
const DKGFundsCBY = 1000
