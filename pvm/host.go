package pvm

import "math/big"

// Address is a 20-byte account or actor address as the chain encodes it.
type Address [20]byte

// BlockInfo is what an actor may know about the block it runs in.
type BlockInfo struct {
	Height    uint64 // block number
	Timestamp uint64 // block timestamp in seconds, from the header (never a local clock)
	ChainID   uint64
	Proposer  Address
	// Beacon is the block's R_n (§3.4), which actors never see directly:
	// pvm_host.randomness(label) gives them HKDF(R_n, label).
	Beacon [32]byte
}

// MessageContext describes the message a handler is running for
// (technical spec §3.3). Value is what arrived with it, already credited to
// Self before the handler runs.
type MessageContext struct {
	Self   Address // the running actor
	Sender Address // who sent this message: an account or an actor
	Origin Address // the account that signed the transaction
	Value  *big.Int
	ID     [32]byte // keccak256(sender || nonce || msg_hash)
	Depth  int      // 1 for the transaction's own message
}

// Message is an outgoing message an actor sends (technical spec §3.3).
type Message struct {
	To      Address
	Value   *big.Int // base units transferred with the message
	Method  string
	Payload []byte // canonical CBOR array of the arguments
}

// Event is a log entry an actor emits for indexers.
type Event struct {
	Name string
	Data []byte // canonical CBOR
}

// Storage namespaces separate what the SDK keeps in an actor's storage
// (the VM namespace byte of the state key, docs/state-layout.md).
const (
	// NSStorage holds the keys an actor writes itself (self.storage,
	// pvm_host.storage_set).
	NSStorage byte = 0
	// NSAttrs holds the persisted instance attributes of a plain
	// `class Actor:` (one record, the canonical CBOR of its __dict__).
	NSAttrs byte = 1
	// NSBlob holds the actor's inline blobs (put_blob, technical spec
	// §7.1), keyed by their multihash.
	NSBlob byte = 2
)

// HostError is a refusal by the chain that Python code sees as an
// exception (quota exceeded, fanout or depth cap, insufficient balance).
// Type names a builtin exception class; Msg is its message.
type HostError struct {
	Type string // "RuntimeError", "ValueError", ...
	Msg  string
}

func (e *HostError) Error() string { return e.Type + ": " + e.Msg }

// Host is the chain side of a PVM call. The chain implements it over the
// journaled world state; tests use an in-memory version. pvm charges every
// call from the cost table (technical spec §17.3) before the host is asked,
// so a Host never meters. A *HostError comes back to Python as an
// exception; any other error aborts the call as an internal failure.
//
// Off-chain jobs (technical spec §5) are the optional JobHost interface
// (hostjobs.go). Randomness (§3.4) comes from Block().Beacon.
type Host interface {
	// StorageGet reads the running actor's storage in namespace ns; ok is
	// false when the key is absent.
	StorageGet(ns byte, key []byte) (value []byte, ok bool, err error)
	// StorageSet writes the running actor's storage (the 1 MiB quota of §3.2
	// is the host's to enforce).
	StorageSet(ns byte, key, value []byte) error
	// StorageDelete removes a key from the running actor's storage.
	StorageDelete(ns byte, key []byte) error
	// Send enqueues a message for delivery after this handler completes
	// (§3.3: FIFO, same block, fanout and depth caps) and returns its
	// message id.
	Send(msg Message) ([32]byte, error)
	// Emit records an event in the transaction receipt.
	Emit(ev Event) error
	// Transfer moves value from the running actor to addr now; it reverts
	// with the handler.
	Transfer(to Address, value *big.Int) error
	// Balance is the balance of addr in base units.
	Balance(addr Address) (*big.Int, error)
	// Context describes the message being handled.
	Context() MessageContext
	// Block describes the current block.
	Block() BlockInfo
	// SetTimer schedules a timer for the running actor (§3.3 set_timer and
	// set_interval) and returns its id; the host takes the deposit, the
	// same-height surcharge and the timer basefee from the actor's balance
	// (scheduler-dos-protection) or refuses with a *HostError.
	SetTimer(t TimerRequest) (uint64, error)
	// CancelTimer cancels one of the running actor's timers and returns
	// the deposit refunded (§3.3); zero if the timer is no longer pending.
	CancelTimer(id uint64) (*big.Int, error)
}

// TimerRequest is a set_timer or set_interval call (technical spec §3.3).
type TimerRequest struct {
	Height  uint64   // the first height it runs at (a future block)
	Every   uint64   // blocks between runs of an interval; 0 for set_timer
	Handler string   // method of the actor called when it fires
	Data    []byte   // canonical CBOR of the one argument the handler gets
	GBA     *Address // Gas Bidding Agent (CIP-1); nil: the network default bid
}
