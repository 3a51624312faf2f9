package pvm

// Address is a 20-byte account or actor address as the chain encodes it.
type Address [20]byte

// BlockInfo is what an actor may know about the block it runs in.
type BlockInfo struct {
	Height    uint64 // block number
	Timestamp uint64 // block timestamp in seconds, from the header (never a local clock)
	ChainID   uint64
}

// Message is an outgoing message an actor sends (technical spec §3.3).
type Message struct {
	To      Address
	Value   uint64 // base units transferred with the message
	Method  string
	Payload []byte // canonical CBOR of the arguments
}

// Event is a log entry an actor emits for indexers.
type Event struct {
	Topic string
	Data  []byte // canonical CBOR
}

// Host is the chain side of a PVM call. The chain implements it over the
// journaled world state; tests use an in-memory version. Every method is
// charged by the caller from the cost table (CIP-3 §2.2.1: storage read 10,
// write 50, mailbox send 80, ...) before the host is asked, so a Host never
// meters.
//
// Timers, off-chain jobs and randomness (technical spec §3.3, §3.4, §5) will
// be added to this interface by the issues that build them; they are
// deliberately absent rather than faked.
type Host interface {
	// StorageGet reads the calling actor's storage; ok is false when the key
	// is absent.
	StorageGet(key []byte) (value []byte, ok bool, err error)
	// StorageSet writes the calling actor's storage.
	StorageSet(key, value []byte) error
	// StorageDelete removes a key from the calling actor's storage.
	StorageDelete(key []byte) error
	// Send enqueues a message for delivery after this call (§3.3).
	Send(msg Message) error
	// Emit records an event in the transaction receipt.
	Emit(ev Event) error
	// Block describes the current block.
	Block() BlockInfo
	// Balance is the balance of addr in base units.
	Balance(addr Address) (uint64, error)
	// Self is the address of the running actor; Caller the sender of the
	// message being handled.
	Self() Address
	Caller() Address
}
