package genesis

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// DevnetChainID is the local devnet's chain id (spec/README.md: 31337 is
// taken by other chains' tools, so 7777).
const DevnetChainID uint64 = 7777

// DevAccounts is how many funded dev accounts (dev0…dev9) the devnet has.
const DevAccounts = 10

// BaseUnitsPerCBY is 10^18 (spec/README.md "base unit").
var BaseUnitsPerCBY = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)

// DevBalance is what each dev account holds at genesis: 1,000,000 CBY.
var DevBalance = new(big.Int).Mul(big.NewInt(1_000_000), BaseUnitsPerCBY)

var (
	devOnce sync.Once
	devKeys []*crypto.PrivateKey
)

// DevKey returns the key of dev<i>: BIP-44 path m/44'/60'/0'/0/i of
// crypto.DevMnemonic. These keys are public knowledge.
func DevKey(i int) (*crypto.PrivateKey, error) {
	if i < 0 || i >= DevAccounts {
		return nil, fmt.Errorf("no dev account dev%d: there are dev0…dev%d", i, DevAccounts-1)
	}
	devOnce.Do(func() {
		seed := crypto.MnemonicSeed(crypto.DevMnemonic, "")
		for j := 0; j < DevAccounts; j++ {
			k, err := crypto.DeriveBIP44(seed, uint32(j))
			if err != nil {
				panic(fmt.Sprintf("derive dev%d: %v", j, err)) // fixed input: cannot fail
			}
			devKeys = append(devKeys, k)
		}
	})
	return devKeys[i], nil
}

// DevAddress is the address of dev<i>.
func DevAddress(i int) (types.Address, error) {
	k, err := DevKey(i)
	if err != nil {
		return types.Address{}, err
	}
	return types.Address(k.Address()), nil
}
