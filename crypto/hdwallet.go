package crypto

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"golang.org/x/crypto/pbkdf2"
)

// DevMnemonic is the well-known public test mnemonic from which the devnet's
// funded accounts dev0…dev9 are derived (docs/devnet.md). Its keys are public:
// never send real value to them.
const DevMnemonic = "test test test test test test test test test test test junk"

// MnemonicSeed is the BIP-39 seed of a mnemonic (PBKDF2-HMAC-SHA512, 2048
// rounds, salt "mnemonic"+passphrase). Word-list validation is not done: the
// devnet only feeds it the fixed DevMnemonic.
func MnemonicSeed(mnemonic, passphrase string) []byte {
	m := strings.Join(strings.Fields(mnemonic), " ")
	return pbkdf2.Key([]byte(m), []byte("mnemonic"+passphrase), 2048, 64, sha512.New)
}

const hardened = 0x80000000

// DeriveBIP44 derives the key at m/44'/60'/0'/0/index (BIP-32), the path
// Ethereum wallets use, so dev accounts can be imported into them.
func DeriveBIP44(seed []byte, index uint32) (*PrivateKey, error) {
	if index >= hardened {
		return nil, fmt.Errorf("derive: index %d out of range", index)
	}
	mac := hmac.New(sha512.New, []byte("Bitcoin seed"))
	mac.Write(seed)
	I := mac.Sum(nil)
	key, chain := I[:32], I[32:]
	for _, c := range []uint32{44 | hardened, 60 | hardened, hardened, 0, index} {
		var err error
		key, chain, err = deriveChild(key, chain, c)
		if err != nil {
			return nil, err
		}
	}
	return PrivateKeyFromBytes(key)
}

func deriveChild(key, chain []byte, index uint32) ([]byte, []byte, error) {
	mac := hmac.New(sha512.New, chain)
	if index >= hardened {
		mac.Write([]byte{0})
		mac.Write(key)
	} else {
		var s secp256k1.ModNScalar
		s.SetByteSlice(key)
		mac.Write(secp256k1.NewPrivateKey(&s).PubKey().SerializeCompressed())
	}
	var ib [4]byte
	binary.BigEndian.PutUint32(ib[:], index)
	mac.Write(ib[:])
	I := mac.Sum(nil)
	var il, k secp256k1.ModNScalar
	if overflow := il.SetByteSlice(I[:32]); overflow {
		return nil, nil, errors.New("derive: invalid child (IL ≥ n)")
	}
	k.SetByteSlice(key)
	k.Add(&il)
	if k.IsZero() {
		return nil, nil, errors.New("derive: invalid child (zero key)")
	}
	out := k.Bytes()
	return out[:], I[32:], nil
}
