package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// BatchSender is what a node offers to admit many transactions at once:
// their signatures are recovered on all cores instead of one request at a
// time. Optional: without it a batch's cowboy_sendRawTransaction requests
// go through Backend.SendTransaction one by one.
type BatchSender interface {
	// SendTransactions validates and queues txs as SendTransaction would,
	// one after another in slice order, and returns one error (or nil)
	// per transaction.
	SendTransactions(txs []*types.Tx) []error
}

const sendRawMethod = "cowboy_sendRawTransaction"

// handleBatch answers a batch's requests, one response per request in
// order (nil for a notification). Its cowboy_sendRawTransaction requests
// are admitted together through BatchSender, before the other requests
// run; each still gets its own result or error, as if sent alone.
func (s *Server) handleBatch(ctx context.Context, batch []json.RawMessage) []*response {
	out := make([]*response, len(batch))
	calls := make([]*parsedCall, len(batch))
	for i, raw := range batch {
		calls[i], out[i] = parseCall(raw)
	}
	if bs, ok := s.b.(BatchSender); ok {
		s.sendBatch(bs, calls, out)
	}
	for i, c := range calls {
		if c != nil {
			result, rpcErr := s.call(ctx, c.method, c.params)
			out[i] = c.answer(result, rpcErr)
		}
	}
	return out
}

// sendBatch admits the batch's well-formed cowboy_sendRawTransaction
// requests in one BatchSender call, writes their answers to out and clears
// their entries in calls (the rest run one by one). A request whose
// parameter does not decode is answered with the same error it would get
// alone, and the others still go through.
func (s *Server) sendBatch(bs BatchSender, calls []*parsedCall, out []*response) {
	m := methods[sendRawMethod]
	var txs []*types.Tx
	var at []int
	for i, c := range calls {
		if c == nil || c.method != sendRawMethod {
			continue
		}
		tx, err := s.decodeSend(c, m)
		if err != nil {
			s.observe(0, true)
			out[i], calls[i] = c.answer(nil, err), nil
			continue
		}
		txs = append(txs, tx)
		at = append(at, i)
	}
	if len(txs) == 0 {
		return
	}
	start := time.Now()
	errs := s.sendTransactions(bs, txs)
	d := time.Since(start)
	for j, i := range at {
		c := calls[i]
		calls[i] = nil
		var result json.RawMessage
		var rpcErr *Error
		if errs[j] != nil {
			rpcErr = txError(errs[j])
			if rpcErr.Code == CodeInternal {
				s.log.Warn("rpc: internal error", "method", sendRawMethod, "err", rpcErr.Message)
			}
		} else {
			// What encodeResult writes for a Hash: its hex text quoted
			// (nothing in it needs escaping).
			result = append(append([]byte{'"'}, txs[j].Hash().Hex()...), '"')
		}
		s.observe(d, rpcErr != nil)
		out[i] = c.answer(result, rpcErr)
	}
}

// decodeSend reads a cowboy_sendRawTransaction request's transaction as
// the method does alone, a panic included (-32603, as call answers it).
func (s *Server) decodeSend(c *parsedCall, m method) (tx *types.Tx, rpcErr *Error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("rpc: panic in method", "method", sendRawMethod, "panic", p, "stack", string(debug.Stack()))
			tx, rpcErr = nil, newError(CodeInternal, "internal error in %s", sendRawMethod)
		}
	}()
	p, err := parseParams(c.method, c.params, m.minParams, m.maxParams)
	if err != nil {
		return nil, err
	}
	return rawTxParam(p)
}

// sendTransactions calls bs and turns a panic or a wrong answer into an
// internal error for every transaction, so no input takes the server down.
func (s *Server) sendTransactions(bs BatchSender, txs []*types.Tx) (errs []error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("rpc: panic in method", "method", sendRawMethod, "panic", p, "stack", string(debug.Stack()))
			errs = nil
		}
		if len(errs) != len(txs) {
			errs = make([]error, len(txs))
			for i := range errs {
				errs[i] = errInternalBatch
			}
		}
	}()
	return bs.SendTransactions(txs)
}

// errInternalBatch answers every transaction of a batch whose admission
// failed as a whole (-32603, logged above).
var errInternalBatch = errors.New("admitting the batch's transactions failed")

func (s *Server) observe(d time.Duration, failed bool) {
	if s.opts.Observe != nil {
		s.opts.Observe(sendRawMethod, d, failed)
	}
}

// encodeResult marshals a method's result; a failure is -32603.
func (s *Server) encodeResult(method string, v any) (json.RawMessage, *Error) {
	out, err := json.Marshal(v)
	if err != nil {
		s.log.Error("rpc: encode result", "method", method, "err", err)
		return nil, newError(CodeInternal, "internal error: encode result of %s: %v", method, err)
	}
	return out, nil
}
