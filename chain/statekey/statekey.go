// Package statekey is the layout of the chain's 54-byte record keys
// (docs/state-layout.md): 1 byte kind, 20 bytes address, 1 byte VM
// namespace, 32 bytes slot. It is a leaf, without Pebble or the store: the
// store keeps opaque 54-byte keys and knows no chain meanings, while the
// chain packages, the node and light clients (rpc, the verifier's users)
// build keys here.
package statekey

// Size is the length of every record key in bytes.
const Size = 54

// Key is one record key; the store's key (store.Key) has the same bytes.
type Key = [Size]byte

// Kinds route keys; every record of the chain has one.
const (
	KindAccount      byte = 0x01 // account: nonce, balance, code hash
	KindActorCode    byte = 0x02 // actor source and metadata
	KindActorStorage byte = 0x03 // one actor storage slot
	KindTimer        byte = 0x04 // a scheduled timer
	KindSystem       byte = 0x05 // chain-wide records (total supply, ...)
	KindMessage      byte = 0x06 // message dedup set entries and their expiry lists
	KindTxIndex      byte = 0x10 // tx hash -> (height, index), in tx_index
	KindReceipt      byte = 0x11 // tx hash -> receipt, in tx_receipts
)

// Make assembles a key from its parts.
func Make(kind byte, addr [20]byte, ns byte, slot [32]byte) Key {
	var k Key
	k[0] = kind
	copy(k[1:21], addr[:])
	k[21] = ns
	copy(k[22:], slot[:])
	return k
}
