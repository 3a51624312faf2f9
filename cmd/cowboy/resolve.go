package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/keystore"
	"github.com/cowboy-chain/cowboy/rpc"
)

// devIndex reports whether who names a devnet account, dev0…dev9.
func devIndex(who string) (int, bool) {
	if !keystore.IsReserved(who) {
		return 0, false
	}
	return int(who[3] - '0'), true
}

// resolveAddress turns WHO into an address: dev0…dev9 (the devnet's
// accounts; a read needs no chain check), an 0x address (EIP-55 checked),
// or the name of a key in the keystore.
func (a *app) resolveAddress(who string) (types.Address, error) {
	if i, ok := devIndex(who); ok {
		return genesis.DevAddress(i)
	}
	if strings.HasPrefix(who, "0x") || strings.HasPrefix(who, "0X") {
		return types.ParseAddress(who)
	}
	if keystore.ValidName(who) != nil {
		return types.Address{}, fmt.Errorf("%q is not an address (0x + 40 hex digits), a dev account (dev0…dev9) or a key name", who)
	}
	ks, err := a.keystore()
	if err != nil {
		return types.Address{}, err
	}
	addr, err := ks.Show(who)
	if errors.Is(err, keystore.ErrNotFound) {
		hint := ""
		if len(who) == 40 {
			if _, herr := hex.DecodeString(who); herr == nil {
				hint = " (an address starts with 0x: did you mean 0x" + who + "?)"
			}
		}
		return types.Address{}, fmt.Errorf("%q is not an address, a dev account (dev0…dev9) or a key in %s%s", who, ks.Dir(), hint)
	}
	return addr, err
}

// signer is a key ready to sign, and the name the user gave it.
type signer struct {
	name string
	key  *crypto.PrivateKey
}

// resolveSigner finds the key for --from: a dev account only when the
// node runs the devnet (a devnet key anywhere else is a mistake, since the
// keys are public), a keystore name, or an address whose key is in the
// keystore. The passphrase is asked only once the key is known to exist.
func (a *app) resolveSigner(ctx context.Context, c *rpc.Client, from, passFile string) (*signer, uint64, error) {
	chainID, err := c.ChainID(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("ask the node for its chain id: %w", err)
	}
	if i, ok := devIndex(from); ok {
		if chainID != genesis.DevnetChainID {
			return nil, 0, fmt.Errorf("%s is a devnet key, but the node at %s runs chain id %d, not the devnet's %d: use a key from your keystore",
				from, c.URL(), chainID, genesis.DevnetChainID)
		}
		k, err := genesis.DevKey(i)
		return &signer{name: from, key: k}, chainID, err
	}
	ks, err := a.keystore()
	if err != nil {
		return nil, 0, err
	}
	name := from
	if strings.HasPrefix(from, "0x") || strings.HasPrefix(from, "0X") {
		addr, err := types.ParseAddress(from)
		if err != nil {
			return nil, 0, err
		}
		if name, err = findByAddress(ks, addr); err != nil {
			return nil, 0, err
		}
	} else if _, err := ks.Show(name); err != nil {
		return nil, 0, err
	}
	pass, err := a.passphrase(passFile, name, false)
	if err != nil {
		return nil, 0, err
	}
	k, err := ks.Load(name, pass)
	if err != nil {
		return nil, 0, err
	}
	return &signer{name: name, key: k}, chainID, nil
}

func findByAddress(ks *keystore.Store, addr types.Address) (string, error) {
	entries, err := ks.List()
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Err == nil && e.Address == addr {
			return e.Name, nil
		}
	}
	return "", fmt.Errorf("no key for %s in keystore %s: import it with `cowboy keys import NAME`", addr, ks.Dir())
}
