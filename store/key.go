package store

// Key is the fixed 54-byte key of an authenticated record. The store keeps
// keys opaque: their layout (kind, address, namespace, slot) is the
// chain's, in chain/statekey, whose keys have the same bytes.
type Key [54]byte

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
