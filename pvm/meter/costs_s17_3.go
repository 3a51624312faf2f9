package meter

// Actor API costs: technical spec v2 §17.3 "Actor API Costs" and §17.4
// "On-Chain Storage Costs". §17 wins over CIP-3's host rows where both give
// a number (spec/README.md, "Precedence"); the CIP-3 host constants in
// costs_cip3_2_2.go stand only for what §17.3 does not list.
const (
	// HostSendMessage is send_message(): 500 cycles; the payload's bytes are
	// charged as cells (one per byte, §17.4 calldata).
	HostSendMessage uint64 = 500
	// HostStorageRead is storage_read(): 10 cycles, plus ceil(bytes/100)
	// cells of bandwidth (§17.4 "0.01 cells/byte", spec/README.md).
	HostStorageRead uint64 = 10
	// HostStorageReadBytesPerCell is the divisor of the read's cell charge.
	HostStorageReadBytesPerCell uint64 = 100
	// HostStorageWrite is storage_write() and delete: 200 cycles, plus one
	// cell per byte of key and value written (§17.4).
	HostStorageWrite uint64 = 200
	// HostHash is hash(): 100 cycles plus HostHashPerByte per byte hashed.
	HostHash        uint64 = 100
	HostHashPerByte uint64 = 1
	// HostVerifySignature is verify_signature() (secp256k1): 10,000 cycles.
	HostVerifySignature uint64 = 10_000
	// HostBlockInfo is get_block_info() and each message-context read:
	// 100 cycles.
	HostBlockInfo uint64 = 100
	// HostEmitEvent is emit_event(): 500 cycles plus 5 per byte of event
	// data, and ceil(bytes/2) cells (§17.4 "0.5 cells/byte").
	HostEmitEvent         uint64 = 500
	HostEmitEventPerByte  uint64 = 5
	HostEventBytesPerCell uint64 = 2
	// HostBalance reads an account balance: priced as a storage read.
	HostBalance uint64 = 10
	// HostTransfer moves value out of the actor: priced as the two account
	// writes it makes (derived from storage_write, no cells: accounts are
	// not actor storage).
	HostTransfer uint64 = 400
	// HostSetTimer is set_timer() and set_interval(): 1,000 cycles, plus
	// one cell per byte of the handler name and the data's CBOR (the
	// payload stored with the timer).
	HostSetTimer uint64 = 1_000
	// HostCancelTimer is cancel_timer(): 500 cycles.
	HostCancelTimer uint64 = 500
)

// CeilDiv is ceil(n/d) for the fractional cell rates of §17.4.
func CeilDiv(n, d uint64) uint64 { return (n + d - 1) / d }
