package rpc

import (
	"errors"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// ErrNotFound is what a Backend wraps when a block, transaction or receipt
// does not exist; the server answers null for it, as Ethereum does, instead
// of an error. The Client wraps it too when the server answered null.
var ErrNotFound = errors.New("not found")

// ErrNoActor is what Actors.Call wraps when the call is addressed to an
// account that holds no actor: a transaction there would be a plain
// transfer that "succeeds" and runs nothing, so the server answers
// CodeNotFound ("no actor at 0x…") instead of a hollow result.
var ErrNoActor = errors.New("no actor")

// TxLocation says where a committed transaction sits in the chain.
type TxLocation struct {
	BlockHash types.Hash
	Height    uint64
	Index     int // position in the block's transaction list
}

// FeeEstimate is what a wallet should put in a transaction's fee fields.
type FeeEstimate struct {
	CyclesLimit, CellsLimit       uint64 // Cycles, Cells
	MaxFeePerCycle, MaxFeePerCell uint64 // base units per Cycle / per Cell
	TipPerCycle, TipPerCell       uint64 // base units per Cycle / per Cell
	// MaxCost is limits × max fees in base units: the most the fees can
	// cost, value excluded.
	MaxCost *big.Int
}

// TxRejectedError is a transaction refused by validation. The server turns
// it into error -32000 with the reason in data, so a client can switch on
// Reason (e.g. "nonce_too_low") while a human reads Error.
type TxRejectedError interface {
	error
	Reason() string
}

// Backend is what the server needs from a node. Methods read committed
// state unless they say otherwise, and must be safe for concurrent use.
type Backend interface {
	// ChainID is the chain id transactions must sign over (§1.1).
	ChainID() uint64
	// LatestHeight is the height of the last committed block.
	LatestHeight() uint64
	// BlockByNumber returns the committed block at height, or an error
	// wrapping ErrNotFound.
	BlockByNumber(height uint64) (*types.Block, error)
	// BlockByHash returns a committed block, or an error wrapping ErrNotFound.
	BlockByHash(h types.Hash) (*types.Block, error)
	// Account reads the latest committed nonce and balance (base units).
	Account(addr types.Address) (nonce uint64, balance *big.Int, err error)
	// PendingNonce is the next nonce counting the sender's mempool queue.
	PendingNonce(addr types.Address) (uint64, error)
	// SendTransaction validates tx and queues it. A refusal is an error
	// that satisfies TxRejectedError (found with errors.As).
	SendTransaction(tx *types.Tx) error
	// TransactionByHash finds a committed or pending transaction; loc is
	// nil while it is pending. Unknown: an error wrapping ErrNotFound.
	TransactionByHash(h types.Hash) (tx *types.Tx, loc *TxLocation, err error)
	// Receipt returns a committed transaction's receipt and where it is.
	// Unknown or pending: an error wrapping ErrNotFound.
	Receipt(h types.Hash) (*types.Receipt, *TxLocation, error)
	// Basefees are what the next block, at nextHeight, will charge, in base
	// units per Cycle and per Cell.
	Basefees() (cycle, cell uint64, nextHeight uint64)
	// EstimateFees proposes limits and fees for a transaction; a
	// transaction the chain would refuse is a TxRejectedError.
	EstimateFees(from, to *types.Address, value *big.Int, payload []byte) (FeeEstimate, error)
	// TotalSupply is the base units in existence after the last block.
	TotalSupply() (*big.Int, error)
}
