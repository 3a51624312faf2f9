package types

// The DoS limits of technical-spec-v2 §12.1 and the execution limits of
// §13 that bound one transaction or one block, in one place
// (consensus-critical; governance-tunable by the spec, constants today).
// chain/execution enforces them under the same names.
const (
	// MaxTxSize is max_tx_size = 128 KiB (§12.1): the largest encoded
	// transaction, signature included, that any node accepts. The decoder
	// refuses larger input before reading it.
	MaxTxSize = 128 * 1024
	// MaxMessageDepth is max_message_depth_per_tx = 32 (§12.1, §13
	// reentrancy_depth); the transaction's own message is depth 1.
	MaxMessageDepth = 32
	// PerActorBlockCycles is per_actor_per_block_cycles = 1,000,000
	// (§12.1): the cycles one actor's handlers may use in one block.
	PerActorBlockCycles = 1_000_000
	// MaxMessagesPerTx is fanout_per_tx = 1,024 (§3.3, §13): "a transaction
	// (including all nested sends) MUST NOT enqueue more than 1,024
	// messages".
	MaxMessagesPerTx = 1024
	// MailboxCapacity is mailbox_capacity_bytes = 1,000,000 (§3.3, §13):
	// bytes of payload waiting for one actor in a transaction's queue;
	// enqueueing beyond it reverts.
	MailboxCapacity = 1_000_000
	// MaxAccessListEntries bounds the access list so its validation is
	// cheap (§2.2(d); the project's bound, the spec names none); with
	// MaxTxSize it caps the work an access list can cause.
	MaxAccessListEntries = 1024
)

// maxValueBits bounds amounts on the wire: balances are 256-bit integers of
// base units, far above the 10^27 base units of the genesis supply.
const maxValueBits = 256
