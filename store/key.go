package store

// Key is the fixed 54-byte state key: 1 byte kind, 20 bytes address,
// 1 byte VM namespace, 32 bytes slot (docs/state-layout.md).
type Key [54]byte

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

// MakeKey assembles a key from its parts.
func MakeKey(kind byte, addr [20]byte, ns byte, slot [32]byte) Key {
	var k Key
	k[0] = kind
	copy(k[1:21], addr[:])
	k[21] = ns
	copy(k[22:], slot[:])
	return k
}

// DB names one of the three authenticated databases.
type DB uint8

// The logical databases of the spec.
const (
	StateDB DB = iota
	TxIndexDB
	TxReceiptsDB
	numDBs
)

// String is the spec's name of the database.
func (d DB) String() string {
	switch d {
	case StateDB:
		return "state_db"
	case TxIndexDB:
		return "tx_index"
	case TxReceiptsDB:
		return "tx_receipts"
	}
	return "unknown"
}
