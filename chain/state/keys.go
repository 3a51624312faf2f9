package state

import (
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Key is a record key (chain/statekey): 1 byte kind, 20 bytes address,
// 1 byte VM namespace, 32 bytes slot (docs/state-layout.md).
type Key = [54]byte

// AccountKey is where an account record lives: kind 0x01, the address,
// namespace 0, slot zero.
func AccountKey(a types.Address) Key { return statekey.Make(statekey.KindAccount, a, 0, [32]byte{}) }

// StorageKey is where one storage slot of an actor lives: kind 0x03, the
// actor's address, namespace 0, the slot.
func StorageKey(a types.Address, slot types.Hash) Key {
	return statekey.Make(statekey.KindActorStorage, a, 0, slot)
}

// supplyKey holds the total supply of CBY in base units: kind 0x05 (system
// record), address zero, slot keccak256("total_supply").
var supplyKey Key = statekey.Make(statekey.KindSystem, types.Address{}, 0, crypto.Keccak256([]byte("total_supply")))
