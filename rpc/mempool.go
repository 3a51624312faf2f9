package rpc

import (
	"context"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// MempoolReporter is what a node offers for cowboy_mempool. Optional:
// without it the method answers -32601.
type MempoolReporter interface {
	// Mempool returns how many transactions wait in the mempool and up to
	// max of them that the next block could include, in the order it
	// would take them (§6.4).
	Mempool(max int) (count int, next []*types.Tx)
}

// MaxMempoolList bounds cowboy_mempool's list.
const MaxMempoolList = 1000

// MempoolJSON is cowboy_mempool's result.
type MempoolJSON struct {
	Count        Quantity  `json:"count"` // every pending transaction
	Transactions []*TxJSON `json:"transactions"`
}

func mempool(_ context.Context, b Backend, _ *params) (any, *Error) {
	m, ok := b.(MempoolReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_mempool is not served by this node")
	}
	n, txs := m.Mempool(MaxMempoolList)
	out := &MempoolJSON{Count: Quantity(n), Transactions: make([]*TxJSON, 0, len(txs))}
	for _, tx := range txs {
		j, err := NewTxJSON(tx, nil)
		if err != nil {
			return nil, internal(err)
		}
		out.Transactions = append(out.Transactions, j)
	}
	return out, nil
}
