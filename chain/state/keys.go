package state

import (
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Key is the store's fixed 54-byte key: 1 byte kind, 20 bytes address,
// 1 byte VM namespace, 32 bytes slot (docs/state-layout.md).
type Key = [54]byte

// Key kinds used by this package (the store's layout names them all).
const (
	kindAccount      byte = 0x01
	kindActorStorage byte = 0x03
	kindSystem       byte = 0x05
)

func makeKey(kind byte, addr types.Address, ns byte, slot [32]byte) Key {
	var k Key
	k[0] = kind
	copy(k[1:21], addr[:])
	k[21] = ns
	copy(k[22:], slot[:])
	return k
}

// AccountKey is where an account record lives: kind 0x01, the address,
// namespace 0, slot zero.
func AccountKey(a types.Address) Key { return makeKey(kindAccount, a, 0, [32]byte{}) }

// supplyKey holds the total supply of CBY in base units: kind 0x05 (system
// record), address zero, slot keccak256("total_supply").
var supplyKey = makeKey(kindSystem, types.Address{}, 0, crypto.Keccak256([]byte("total_supply")))

// StorageKey is where one storage slot of an actor lives: kind 0x03, the
// actor's address, namespace 0, the slot.
func StorageKey(a types.Address, slot types.Hash) Key { return makeKey(kindActorStorage, a, 0, slot) }
