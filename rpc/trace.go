package rpc

import (
	"context"
	"errors"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TxTracer is what a node offers for cowboy_traceTransaction. Optional:
// without it the method answers -32601.
type TxTracer interface {
	// TraceTransaction replays a committed transaction on the retained
	// state before its block and returns what every handler did. An
	// unknown or pending transaction is an error wrapping ErrNotFound; a
	// block whose parent state is no longer retained wraps ErrNotRetained.
	TraceTransaction(h types.Hash) (*TraceJSON, error)
}

// ErrNotRetained is what a TxTracer wraps when the state a replay needs is
// older than the node keeps.
var ErrNotRetained = errors.New("state not retained")

// TraceJSON is cowboy_traceTransaction's result: the committed receipt,
// which the replay reproduced byte for byte, and each handler the
// transaction ran, in the order they ran (messages are delivered FIFO
// after their sender's handler completes, §3.3; depth and from/to give the
// tree).
type TraceJSON struct {
	TransactionHash Hash                `json:"transactionHash"`
	BlockHash       Hash                `json:"blockHash"`
	BlockNumber     Quantity            `json:"blockNumber"`
	Receipt         *ReceiptJSON        `json:"receipt"`
	Handlers        []*TraceHandlerJSON `json:"handlers"`
}

// TraceHandlerJSON is one handler run: the message, what it used, its
// error with the Python traceback, and every pvm_host call it made.
type TraceHandlerJSON struct {
	From       Address              `json:"from"`
	To         Address              `json:"to"`
	Method     string               `json:"method"`
	Depth      Quantity             `json:"depth"` // 1 for the transaction's own message
	Deploy     bool                 `json:"deploy,omitempty"`
	Status     string               `json:"status"` // "success" or "failed"
	CyclesUsed Quantity             `json:"cyclesUsed"`
	CellsUsed  Quantity             `json:"cellsUsed"`
	Error      string               `json:"error,omitempty"`
	Traceback  string               `json:"traceback,omitempty"` // as Python prints it
	HostCalls  []*TraceHostCallJSON `json:"hostCalls"`
}

// TraceHostCallJSON is one pvm_host call: arguments and result as Python
// reprs of the builtin types (cut to 200 bytes), or the exception it
// raised, and the cycles and cells it charged.
type TraceHostCallJSON struct {
	Name   string   `json:"name"`
	Args   []string `json:"args"`
	Result string   `json:"result,omitempty"`
	Error  string   `json:"error,omitempty"`
	Cycles Quantity `json:"cycles"`
	Cells  Quantity `json:"cells"`
}

func init() {
	methods["cowboy_traceTransaction"] = method{1, 1, traceTransaction}
}

func traceTransaction(_ context.Context, b Backend, p *params) (any, *Error) {
	t, ok := b.(TxTracer)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_traceTransaction is not served by this node")
	}
	h, err := p.hash(0)
	if err != nil {
		return nil, err
	}
	tr, terr := t.TraceTransaction(h)
	switch {
	case errors.Is(terr, ErrNotFound):
		return nil, nil
	case errors.Is(terr, ErrNotRetained):
		return nil, newError(CodeNotFound, "%v", terr)
	case terr != nil:
		return nil, internal(terr)
	}
	return tr, nil
}

// TraceTransaction calls cowboy_traceTransaction; an unknown or pending
// transaction is an error wrapping ErrNotFound.
func (c *Client) TraceTransaction(ctx context.Context, h types.Hash) (*TraceJSON, error) {
	var out TraceJSON
	return &out, c.Call(ctx, &out, "cowboy_traceTransaction", Hash(h))
}
