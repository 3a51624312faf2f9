package types

// MaxTxSize is max_tx_size = 128 KiB (technical-spec-v2 §12.1): the largest
// encoded transaction, signature included, that any node accepts. The
// decoder refuses larger input before reading it.
const MaxTxSize = 128 * 1024

// maxValueBits bounds amounts on the wire: balances are 256-bit integers of
// base units, far above the 10^27 base units of the genesis supply.
const maxValueBits = 256
