package store

// The tests build keys in the chain's layout (chain/statekey: kind,
// address, namespace, slot), so the vectors are those of real records;
// the store itself treats keys as opaque bytes.
const (
	KindAccount byte = 0x01
	KindSystem  byte = 0x05
	KindTxIndex byte = 0x10
	KindReceipt byte = 0x11
)

// MakeKey assembles a key as statekey.Make does.
func MakeKey(kind byte, addr [20]byte, ns byte, slot [32]byte) Key {
	var k Key
	k[0] = kind
	copy(k[1:21], addr[:])
	k[21] = ns
	copy(k[22:], slot[:])
	return k
}
