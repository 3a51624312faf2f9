package execution

import (
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm"
)

// Tracer watches a block being executed, for cowboy_traceTransaction: the
// node replays a committed block with a Tracer set on its BlockContext.
// A Tracer only observes. Execution calls it at fixed points and uses
// nothing it returns but the Host it wraps, which must pass every call
// through unchanged, so a traced block yields the same state and receipts
// as an untraced one (the node checks that byte for byte).
type Tracer interface {
	// TxStart and TxEnd bracket one transaction's ApplyTx.
	TxStart(tx *types.Tx)
	TxEnd()
	// Handler is called as a handler starts; the Host it returns is the
	// one the handler runs with (h itself, or a wrapper that may
	// implement pvm.HostCallObserver).
	Handler(m HandlerInfo, h pvm.Host) pvm.Host
	// HandlerEnd reports what the handler used and its error (nil on
	// success; a *vm.PyError carries the Python traceback).
	HandlerEnd(used pvm.Result, err error)
}

// HandlerInfo describes the message a traced handler runs for.
type HandlerInfo struct {
	From, To types.Address
	Method   string
	Depth    int
	Deploy   bool
}

// traceHandler starts tracing a handler if the block is traced.
func (rt *runtime) traceHandler(env *envelope, h pvm.Host) pvm.Host {
	if rt.bc.Tracer == nil {
		return h
	}
	return rt.bc.Tracer.Handler(HandlerInfo{From: env.from, To: env.to, Method: env.method, Depth: env.depth, Deploy: env.deploy}, h)
}
